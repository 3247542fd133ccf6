import Foundation

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
