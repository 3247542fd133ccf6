import Foundation

/// What happens to one repository's branch during a switch.
public enum BranchAction: Sendable, Equatable {
    /// Already on the branch at the target commit (or ahead of it): nothing to do.
    case none
    /// Check out the existing branch, whose tip is already right.
    case checkout
    /// Move the branch forward from `from` to the target (`update-ref` with a lease, or `merge --ff-only` when it is
    /// checked out), then check it out.
    case fastForward(from: String)
    /// Move the branch back from `from` to the target, leaving `leaving` commits that are all on remote-tracking
    /// branches (`on` names one that holds them), then check it out.
    case moveBack(from: String, leaving: Int, on: String?)
    /// Create the branch at the target commit, with `upstream` (`origin/<branch>`) when the remote has it.
    case create(upstream: String?)
    /// The module is not initialised: initialise, clone, then create the branch at the target commit.
    case initialise(upstream: String?)
}

/// The plan for one repository (the superproject or a module).
public struct RepositoryPlan: Sendable, Equatable {
    /// `superproject` or the module name.
    public var repository: String
    /// Path relative to the superproject root ("" for the superproject).
    public var path: String
    /// The branch it ends on.
    public var branch: String
    /// The commit the branch must contain: the pin (modules) or the tenant branch (superproject).
    public var target: String
    /// The commit it ends on (the target, or the local branch tip when that is ahead of the target).
    public var finalCommit: String
    /// Commits the kept local branch has beyond the target.
    public var aheadOfTarget: Int
    /// What to do.
    public var action: BranchAction
    /// The path its checkout is moved from (a module whose path differs on the target branch); nil: not moved.
    public var movedFrom: String? = nil

    public init(
        repository: String, path: String, branch: String, target: String, finalCommit: String, aheadOfTarget: Int,
        action: BranchAction
    ) {
        self.repository = repository
        self.path = path
        self.branch = branch
        self.target = target
        self.finalCommit = finalCommit
        self.aheadOfTarget = aheadOfTarget
        self.action = action
    }

    /// Whether anything changes in this repository.
    public var changes: Bool { action != .none || movedFrom != nil }

    /// Whether the module is cloned by the switch (its directory is not a repository yet).
    public var initialises: Bool {
        if case .initialise = action { return true }
        return false
    }
}

/// What the planner knows about one existing repository and its target.
public struct BranchObservation: Sendable, Equatable {
    /// `superproject` or the module name.
    public var repository: String
    /// Path relative to the superproject root.
    public var path: String
    /// The branch the repository must end on.
    public var branch: String
    /// The commit the branch must contain.
    public var target: String
    /// The current branch (nil when detached).
    public var currentBranch: String?
    /// The current HEAD commit.
    public var head: String?
    /// The local branch's tip, if the branch exists.
    public var branchTip: String?
    /// Commits only in the local branch and only in the target (`rev-list --left-right --count tip...target`).
    public var tipVersusTarget: (ahead: Int, behind: Int)?
    /// Whether `origin/<branch>` exists.
    public var remoteBranchExists: Bool
    /// Whether the target commit exists in this repository.
    public var targetAvailable: Bool
    /// Whether a local branch that has commits beyond the target is moved back to it (modules: the pin is the
    /// truth) rather than kept (the superproject: its own unpushed commits are the pins it builds).
    public var movesBack: Bool = false
    /// The commits the branch would leave that no remote-tracking branch holds (`<id> <subject>`, at most 10).
    public var unpublished: [String] = []
    /// How many commits the branch would leave that no remote-tracking branch holds.
    public var unpublishedCount: Int = 0
    /// A remote-tracking branch that holds the commits the branch would leave (`origin/general_dev`).
    public var publishedOn: String?

    public init(
        repository: String, path: String, branch: String, target: String, currentBranch: String?, head: String?,
        branchTip: String?, tipVersusTarget: (ahead: Int, behind: Int)?, remoteBranchExists: Bool,
        targetAvailable: Bool
    ) {
        self.repository = repository
        self.path = path
        self.branch = branch
        self.target = target
        self.currentBranch = currentBranch
        self.head = head
        self.branchTip = branchTip
        self.tipVersusTarget = tipVersusTarget
        self.remoteBranchExists = remoteBranchExists
        self.targetAvailable = targetAvailable
    }

    public static func == (lhs: BranchObservation, rhs: BranchObservation) -> Bool {
        lhs.repository == rhs.repository && lhs.path == rhs.path && lhs.branch == rhs.branch
            && lhs.target == rhs.target && lhs.currentBranch == rhs.currentBranch && lhs.head == rhs.head
            && lhs.branchTip == rhs.branchTip && lhs.tipVersusTarget?.ahead == rhs.tipVersusTarget?.ahead
            && lhs.tipVersusTarget?.behind == rhs.tipVersusTarget?.behind
            && lhs.remoteBranchExists == rhs.remoteBranchExists && lhs.targetAvailable == rhs.targetAvailable
            && lhs.movesBack == rhs.movesBack && lhs.unpublished == rhs.unpublished
            && lhs.unpublishedCount == rhs.unpublishedCount && lhs.publishedOn == rhs.publishedOn
    }
}

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
