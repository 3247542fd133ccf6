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
