import Foundation

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
