import Foundation

/// The decisions of `pin`, pure: which modules it pins, every reason it refuses, and where the pin commit goes.
///
/// A module is pinned at its HEAD when HEAD differs from its pin, it is on the branch the checked-out superproject
/// branch takes it from, and HEAD is on the module's remote (or pushed by `--push`, which never recreates a branch
/// and never pushes a general branch shared by every tenant from a tenant view without `--to-general`). A re-run of
/// a stopped pin pins only what that run recorded. The pin commit goes on the local branch, or on the remote's tip
/// when a roll moved it on (``PinLanding``).
enum PinPlanner {
    /// A module whose remote `pin` asks before deciding: its HEAD and the branch it is on.
    struct Candidate: Sendable, Equatable {
        var module: Module
        var head: String
        var branch: String
    }

    /// What one selected module's checkout says before its remote is asked.
    enum Verdict: Sendable, Equatable {
        /// Nothing to pin (at its pin, or not this run's to pin).
        case skip
        /// Problems that forbid the pin (the checkout's own first).
        case refuse([WorkingCopyProblem])
        /// Its checkout's problems (if any); pinned at `head` when its remote has it.
        case candidate([WorkingCopyProblem], head: String, branch: String)
    }

    /// The tenant whose branch is checked out (nil: the general view or no branch).
    static func tenant(_ observation: PinObservation) -> Tenant? {
        observation.superproject.currentBranch.flatMap { observation.project.tenant(onBranch: $0) }
    }

    /// The modules `pin` looks at: every module, or the ones named, in the order named.
    static func selected(_ observation: PinObservation) -> [Module] {
        let modules = observation.project.manifest.modules
        guard !observation.names.isEmpty else { return modules }
        return observation.names.compactMap { name in modules.first { $0.name == name } }
    }

    /// The modules whose remote must be asked whether HEAD is published: the ones the checkout alone does not skip
    /// or refuse.
    static func candidates(_ observation: PinObservation) -> [Candidate] {
        selected(observation).compactMap { module in
            guard case .candidate(_, let head, let branch) = verdict(module, observation) else { return nil }
            return Candidate(module: module, head: head, branch: branch)
        }
    }

    /// The plan before the superproject's remote is asked: the superproject's problems, each module's, the changes.
    static func plan(_ observation: PinObservation, push: Bool, toGeneral: Bool) -> PinPlan {
        let superproject = observation.superproject
        var plan = PinPlan(branch: superproject.currentBranch ?? "", head: superproject.head)
        plan.problems = superprojectProblems(observation)
        plan.before = [
            RunJournal.Before(repository: "superproject", branch: superproject.currentBranch, head: superproject.head)
        ]
        let tenant = tenant(observation)
        for module in selected(observation) {
            switch verdict(module, observation) {
            case .skip: continue
            case .refuse(let problems): plan.problems += problems
            case .candidate(let problems, let head, let branch):
                plan.problems += problems
                let publication = observation.checkouts[module.name]?.publication
                let unpushed = publication?.unpushed ?? 0
                plan.problems += publicationProblems(
                    module, head: head, branch: branch, publication: publication, tenant: tenant,
                    project: observation.project, push: push, toGeneral: toGeneral)
                plan.moduleBranches[module.name] = unpushed != 0 ? branch : nil
                plan.before.append(RunJournal.Before(repository: module.name, branch: branch, head: head))
                plan.changes.append(
                    PinReport.Change(
                        module: module.name, path: module.path, old: observation.pins[module.path], new: head,
                        pushed: false))
            }
        }
        return plan
    }

    /// Whether the superproject's remote branch must be read: where the pin commit goes (also without `--push`, a
    /// pin never commits on a branch the remote has moved past: that would leave the local branch diverged from
    /// its remote), or whether an earlier pin commit is published.
    static func readsRemote(_ plan: PinPlan, push: Bool) -> Bool {
        (push || !plan.changes.isEmpty) && !plan.branch.isEmpty && plan.head != nil
    }

    /// Whether the local commits ahead of the remote are published as they are: nothing to pin, with `--push`.
    static func publishesAhead(_ plan: PinPlan, push: Bool) -> Bool {
        plan.changes.isEmpty && push
    }

    /// The plan completed by what the superproject's remote says (nil: not read).
    static func land(_ plan: PinPlan, remote: PinRemoteObservation?, push: Bool) -> PinPlan {
        guard let remote else { return plan }
        var plan = plan
        plan.remoteBefore = remote.tip
        guard remote.tip != nil, let relation = remote.relation else {
            if push && !plan.changes.isEmpty {
                plan.problems.append(
                    WorkingCopyProblem(
                        repository: "superproject", path: "",
                        reason: "branch \(plan.branch) does not exist on the remote (deleted there?); pin --push "
                            + "never recreates a branch"))
            }
            return plan
        }
        switch relation {
        case .published, .behindWithNothingToPin: break
        case .ahead where publishesAhead(plan, push: push):
            plan.unpublished = plan.head
            plan.problems += remote.unpublishedPins
        case .ahead: break
        case .moved(let landing):
            plan.landing = landing
            plan.changes = landing.changes
        case .refused(let problem): plan.problems.append(problem)
        }
        return plan
    }

    /// The superproject's own problems: its working copy (a gitlink this pin stages at a module's HEAD excepted),
    /// and a branch that is neither the general branch nor a tenant's.
    static func superprojectProblems(_ observation: PinObservation) -> [WorkingCopyProblem] {
        let superproject = observation.superproject
        let manifest = observation.project.manifest
        var problems = superproject.problems(repository: "superproject", relativePath: "")
        if let current = superproject.currentBranch {
            if tenant(observation) == nil && current != manifest.generalBranch {
                problems.append(
                    WorkingCopyProblem(
                        repository: "superproject", path: "",
                        reason: "branch \(current) is neither \(manifest.generalBranch) nor a tenant's branch"))
            }
        } else {
            problems.append(
                WorkingCopyProblem(
                    repository: "superproject", path: "",
                    reason: "detached HEAD; switch to a tenant first (tenantctl switch <tenant>)"))
        }
        let known = Set(manifest.modules.map(\.name))
        for name in observation.names where !known.contains(name) {
            problems.append(WorkingCopyProblem(repository: name, path: "", reason: "no module named \(name)"))
        }
        // A gitlink staged at the module's HEAD is what a pin stopped between staging and committing leaves (and
        // exactly what this pin stages): it never blocks the re-run. Any other staged or modified path does.
        let ownStaged = Set(
            superproject.status.entries.filter {
                $0.kind == .changed && $0.indexStatus == "M" && $0.worktreeStatus == "."
                    && $0.submodule.map { !$0.modified } == true
            }.map(\.path)
        ).intersection(selected(observation).map(\.path))
        problems.removeAll { $0.repository == "superproject" && ownStaged.contains($0.path) }
        return problems
    }

    /// One selected module, judged by its checkout alone.
    static func verdict(_ module: Module, _ observation: PinObservation) -> Verdict {
        guard let checkout = observation.checkouts[module.name] else {
            guard !observation.names.isEmpty else { return .skip }
            return .refuse([WorkingCopyProblem(repository: module.name, path: module.path, reason: "not initialised")])
        }
        let state = checkout.state
        let problems = state.problems(repository: module.name, relativePath: module.path)
        guard let head = state.head, head != checkout.pinned else {
            return problems.isEmpty ? .skip : .refuse(problems)
        }
        // The re-run of a stopped pin pins what that run set out to pin: a module it did not record is one whose
        // pin its landing moved (a roll's), with the checkout still at the old pin; it is never pinned back.
        if let recorded = observation.stoppedRecords, !recorded.contains(module.name) {
            return problems.isEmpty ? .skip : .refuse(problems)
        }
        let expected = observation.project.branch(of: module, for: tenant(observation))
        guard let current = state.currentBranch else {
            return .refuse(
                problems + [
                    WorkingCopyProblem(
                        repository: module.name, path: module.path,
                        reason: "detached HEAD; check out \(expected) and commit there first")
                ])
        }
        guard current == expected else {
            let branch = observation.superproject.currentBranch ?? ""
            return .refuse(
                problems + [
                    WorkingCopyProblem(
                        repository: module.name, path: module.path,
                        reason: "on branch \(current), but \(branch) takes \(module.name) from \(expected)")
                ])
        }
        return .candidate(problems, head: head, branch: current)
    }

    /// A candidate's problems with its remote: unpushed commits without `--push`; with it, a branch the remote lacks
    /// or a general branch pushed from a tenant view.
    static func publicationProblems(
        _ module: Module, head: String, branch: String, publication: PinObservation.Publication?, tenant: Tenant?,
        project: Project, push: Bool, toGeneral: Bool
    ) -> [WorkingCopyProblem] {
        let unpushed = publication?.unpushed ?? 0
        guard unpushed != 0 else { return [] }
        guard push else {
            return [
                WorkingCopyProblem(
                    repository: module.name, path: module.path,
                    reason: "commit \(ObjectID.short(head)) is not on the module's remote (\(unpushed) unpushed); "
                        + "push it first or run with --push")
            ]
        }
        var problems: [WorkingCopyProblem] = []
        if publication?.remoteHasBranch == false {
            problems.append(
                WorkingCopyProblem(
                    repository: module.name, path: module.path,
                    reason: "branch \(branch) does not exist on the remote of \(module.name) (deleted "
                        + "there?); pin --push never recreates a branch"))
        }
        if let behind = publication?.behindRemote, behind > 0 {
            let remoteBranch = "\(Workspace.defaultRemoteName)/\(branch)"
            problems.append(
                WorkingCopyProblem(
                    repository: module.name, path: module.path,
                    reason: "branch \(branch) is behind \(remoteBranch): the remote has "
                        + "\(English.count(behind, "commit")) that HEAD does not (someone pushed), so its push would be "
                        + "refused; nothing was pushed; merge them first: `git -C \(module.path) merge --no-edit "
                        + "\(remoteBranch)`, then run the pin again: `tenantctl pin --push`"))
        }
        if let tenant, branch == project.generalBranch(of: module), !toGeneral {
            problems.append(
                WorkingCopyProblem(
                    repository: module.name, path: module.path,
                    reason: "\(branch) is \(module.name)'s general branch, shared by every tenant, and "
                        + "\(tenant.id) does not customise \(module.name); push it from the \(branch) "
                        + "view, customise it (tenantctl customize \(tenant.id) \(module.name)), or run with "
                        + "--to-general"))
        }
        return problems
    }
}
