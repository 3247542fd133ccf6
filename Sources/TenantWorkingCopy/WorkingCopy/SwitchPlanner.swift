import Foundation

/// Turns observed branch states into actions, or into the problems that forbid the switch. Pure.
public enum SwitchPlanner {
    /// Plans one repository: it ends on a named branch whose tip is the target commit.
    ///
    /// A module's local branch that has commits beyond the target is moved back to it only when every commit it
    /// would leave is on a remote-tracking branch; otherwise the switch is refused naming those commits (never
    /// success off the pin, never a user's work dropped). The superproject's branch ahead of its remote is
    /// kept (its unpushed commits are the pins the modules are set to); diverged, it is refused.
    public static func plan(_ observation: BranchObservation) -> Result<RepositoryPlan, WorkingCopyProblem> {
        let o = observation
        func problem(_ reason: String) -> Result<RepositoryPlan, WorkingCopyProblem> {
            .failure(WorkingCopyProblem(repository: o.repository, path: o.path, reason: reason))
        }
        func plan(_ action: BranchAction, final: String, ahead: Int = 0) -> Result<RepositoryPlan, WorkingCopyProblem> {
            .success(
                RepositoryPlan(
                    repository: o.repository, path: o.path, branch: o.branch, target: o.target, finalCommit: final,
                    aheadOfTarget: ahead, action: action))
        }
        guard o.targetAvailable else {
            return problem(
                "commit \(ObjectID.short(o.target)) is not in the repository, not even after a fetch; "
                    + "is it pushed to the module's remote?")
        }
        guard let tip = o.branchTip else {
            return plan(.create(upstream: o.remoteBranchExists ? "origin/\(o.branch)" : nil), final: o.target)
        }
        let onBranch = o.currentBranch == o.branch
        if tip == o.target {
            return plan(onBranch ? .none : .checkout, final: tip)
        }
        guard let counts = o.tipVersusTarget else {
            return problem("cannot compare branch \(o.branch) with \(ObjectID.short(o.target))")
        }
        switch (counts.ahead, counts.behind) {
        case (0, 0):
            return plan(onBranch ? .none : .checkout, final: tip)
        case (0, _):
            return plan(.fastForward(from: tip), final: o.target)
        case (let ahead, let behind) where o.movesBack:
            guard o.unpublishedCount == 0 else {
                return problem(
                    unpublishedReason(
                        branch: o.branch, target: o.target, count: o.unpublishedCount, listed: o.unpublished))
            }
            _ = behind
            return plan(.moveBack(from: tip, leaving: ahead, on: o.publishedOn), final: o.target)
        case (let ahead, 0):
            return plan(onBranch ? .none : .checkout, final: tip, ahead: ahead)
        case (let ahead, let behind):
            return problem(
                "local branch \(o.branch) has diverged from \(ObjectID.short(o.target)) "
                    + "(\(English.count(ahead, "commit")) of its own, \(behind) missing); it would have to move "
                    + "backwards. Next: in that repository `git merge \(ObjectID.short(o.target))` (or `git rebase "
                    + "\(ObjectID.short(o.target))`), push \(o.branch), record it with `tenantctl pin`, then switch again"
            )
        }
    }

    /// Why a branch with commits no remote holds is not moved back to the pin.
    public static func unpublishedReason(branch: String, target: String, count: Int, listed: [String]) -> String {
        let more = count > listed.count ? "; and \(count - listed.count) more" : ""
        return "local branch \(branch) has \(count) commit\(count == 1 ? "" : "s") that no remote branch holds "
            + "(\(listed.joined(separator: "; "))\(more)); switching would move it back to the pin \(ObjectID.short(target)). "
            + "Push them (and pin them with tenantctl pin), or keep them on another branch "
            + "(git branch <name> \(branch)) and reset \(branch) to the pin yourself"
    }

    /// Plans a module that is not initialised: it is cloned, then its branch is created at the pin.
    public static func planUninitialised(
        repository: String, path: String, branch: String, pin: String, remoteBranchExists: Bool?
    ) -> RepositoryPlan {
        RepositoryPlan(
            repository: repository, path: path, branch: branch, target: pin, finalCommit: pin, aheadOfTarget: 0,
            action: .initialise(upstream: remoteBranchExists == false ? nil : "origin/\(branch)"))
    }
}
