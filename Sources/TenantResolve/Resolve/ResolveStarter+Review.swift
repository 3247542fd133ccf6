import Foundation

/// `resolve <tenant> --review`: its merges are commits of a review roll. Each message ends with the trailer `roll
/// --review` writes (`Rolled-by: tenantctl <run-id> <general branch> <general commit>`, naming this resolve run), so
/// that a landing is recognised and the virtual base is built for a resolved tenant as for a rolled one; where a
/// repository is proposed to Gerrit, with a `Change-Id`: the one of the tenant's review that is open in that
/// repository, so that the resolution updates it (a new patch set), else the one `roll --review` gives a proposal
/// made on the same tip.
extension ResolveStarter {
    /// With `--review`, marks the resolution as a review one and appends the review trailer to every merge's message
    /// (`generalTip`: the general branch's commit the superproject rolls in).
    func markForReview(_ state: inout ResolveState, snapshot: Snapshot, generalTip: String) throws {
        guard review else { return }
        state.review = true
        state.forge = forge?.rawValue
        let options = ReviewOptions(forge: forge).reading(snapshot.project.manifest)
        let open = try Self.openReviews(of: state.tenant, in: workspace)
        for index in state.modules.indices {
            let merge = state.modules[index]
            guard let theirs = merge.theirs else { continue }
            state.modules[index].message += RolledByTrailer.text(
                run: transaction.runId, general: state.generalBranch, commit: theirs,
                changeId: try changeId(of: merge, review: options, open: open, snapshot: snapshot))
        }
        let superproject = state.superproject
        state.superproject.message += RolledByTrailer.text(
            run: transaction.runId, general: state.generalBranch, commit: superproject.theirs ?? generalTip,
            changeId: try changeId(of: superproject, review: options, open: open, snapshot: snapshot))
    }

    /// The `Change-Id` of `merge`'s proposal: nil unless its repository is proposed to Gerrit; the one the tenant's
    /// open review there carries when its commit is here (roll's in the module's mirror or the superproject,
    /// resolve's in the checkout); else the one for the tenant's tip.
    func changeId(
        of merge: ResolveState.Merge, review: ReviewOptions, open: [RunJournal.Review], snapshot: Snapshot
    ) throws -> String? {
        guard let fresh = review.changeId(repository: merge.repository, target: merge.branch, base: merge.ours) else {
            return nil
        }
        let mine = open.filter { $0.repository == merge.repository && $0.target == merge.branch }
        guard !mine.isEmpty else { return fresh }
        var repositories = [workspace.superproject]
        if !merge.isSuperproject {
            let checkout = workspace.checkout(at: merge.path)
            repositories = try CheckoutPresence.of(checkout) == .repository ? [checkout] : []
            if let mirror = snapshot.existingMirror(of: merge.repository) { repositories.insert(mirror, at: 0) }
        }
        let context = "read the Change-Id of the open review of \(merge.repository)"
        for proposal in mine {
            for repository in repositories where try repository.hasCommit(proposal.proposed) {
                if let id = RolledByTrailer.changeId(in: try repository.body(of: proposal.proposed, context: context)) {
                    return id
                }
            }
        }
        return fresh
    }

    /// The tenant's reviews still open in the review runs that wait, the newest run's first.
    static func openReviews(of tenant: String, in workspace: Workspace) throws -> [RunJournal.Review] {
        let waiting = try RunJournal.all(gitDirectory: workspace.commonDirectory).runs
            .filter { $0.state == .waiting }.sorted { $0.runId > $1.runId }
        return waiting.flatMap { $0.reviews ?? [] }.filter {
            $0.tenant == tenant && ["proposed", "open", "conflict"].contains($0.state)
        }
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
