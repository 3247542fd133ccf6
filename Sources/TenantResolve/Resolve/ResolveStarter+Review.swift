import Foundation

/// `resolve <tenant> --review`: its merges are commits of a review roll. Each message ends with the trailer `roll
/// --review` writes (`Rolled-by: tenantctl <run-id> <general branch> <general commit>`, naming this resolve run), so
/// that a landing is recognised and the virtual base is built for a resolved tenant as for a rolled one; where a
/// repository is proposed to Gerrit, with the `Change-Id` `roll --review` would give the proposal
/// (``ReviewChangeId/open(_:snapshot:workspace:)``): the one of the review open in that repository and target, so that
/// the resolution updates it (a new patch set), unless the forge landed it since (by the landing rule on the target
/// as last fetched, even before `roll --land` saw it); else a new change's, made on the same tip.
extension ResolveStarter {
    /// With `--review`, marks the resolution as a review one and appends the review trailer to every merge's message
    /// (`generalTip`: the general branch's commit the superproject rolls in).
    func markForReview(_ state: inout ResolveState, snapshot: Snapshot, generalTip: String) throws {
        guard review else { return }
        state.review = true
        state.forge = forge?.rawValue
        // The kinds the waiting review runs recorded win: the resolution updates their proposals the same way.
        let options = try ReviewOptions(forge: forge).reading(snapshot.project.manifest).recordingKinds(in: workspace)
        let gerrit = options.changeIdRepositories(state.modules.map(\.repository) + [state.superproject.repository])
        let open = try ReviewChangeId.open(gerrit, snapshot: snapshot, workspace: workspace)
        for index in state.modules.indices {
            let merge = state.modules[index]
            guard let theirs = merge.theirs else { continue }
            state.modules[index].message += RolledByTrailer.text(
                run: transaction.runId, general: state.generalBranch, commit: theirs,
                changeId: options.changeId(
                    repository: merge.repository, target: merge.branch, base: merge.ours, open: open))
        }
        let superproject = state.superproject
        state.superproject.message += RolledByTrailer.text(
            run: transaction.runId, general: state.generalBranch, commit: superproject.theirs ?? generalTip,
            changeId: options.changeId(
                repository: superproject.repository, target: superproject.branch, base: superproject.ours, open: open))
    }

    /// What to do when the general branch's pins are behind its modules: its re-pin goes first. In a review
    /// resolution (or while a review run proposes the re-pin) that is the review form: `roll --land` while the re-pin
    /// is proposed, else `roll --review`, which proposes it; plain `roll` otherwise.
    /// Empty when `plan` needs no re-pin.
    func repinNextStep(_ plan: RollPlan, tenant: String) throws -> String {
        guard plan.repin != nil else { return "" }
        let general = plan.generalBranch
        let forgeFlag = forge.map { " --forge \($0.rawValue)" } ?? ""
        let again = "`tenantctl resolve \(tenant)" + (review ? " --review" + forgeFlag : "") + "`"
        let runs = try RunJournal.all(gitDirectory: workspace.commonDirectory).runs.filter { $0.state == .waiting }
        if let run = runs.sorted(by: { $0.runId > $1.runId }).first(where: { run in
            (run.reviews ?? []).contains { $0.isGeneralRepin && ["proposed", "open"].contains($0.state) }
        }) {
            return "its re-pin is proposed as a review (review run \(run.runId)): run `tenantctl roll --land` until "
                + "it has landed, then \(again)"
        }
        if review {
            return "run `tenantctl roll --review\(forgeFlag)` first (it proposes the re-pin of \(general) as a "
                + "review, with every tenant that merges cleanly), then `tenantctl roll --land` until the re-pin has "
                + "landed, then \(again)"
        }
        return "run `tenantctl roll` first (it re-pins \(general) and rolls every tenant that merges cleanly), then "
            + again
    }
}
