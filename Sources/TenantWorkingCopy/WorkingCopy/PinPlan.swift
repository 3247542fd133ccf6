import Foundation

/// What `pin` does, decided by ``PinPlanner`` from a ``PinObservation``: refuse with every problem, or the changes
/// and where the pin commit goes.
struct PinPlan: Sendable, Equatable {
    /// What the executor does once the run's records are journalled.
    enum Step: Sendable, Equatable {
        /// Nothing to pin and nothing to publish.
        case nothing
        /// A pin commit of an earlier run whose superproject push failed: publish it as it is.
        case publish(String)
        /// Every change is on the remote's new tip already (a landing pin stopped after its push): the local branch
        /// only catches up.
        case catchUp(PinLanding)
        /// The remote branch moved on (a roll ran): the pin commit is written on its tip, then the local branch
        /// follows.
        case land(PinLanding)
        /// The pin commit on the checked-out branch.
        case commit
    }

    /// The superproject branch; "" on a detached HEAD.
    var branch: String
    /// The superproject's HEAD (nil on an unborn branch).
    var head: String?
    /// Everything that forbids the pin; the run changes nothing unless it is empty.
    var problems: [WorkingCopyProblem] = []
    /// The pin changes in manifest order (against the remote tip's pins when the pin lands there).
    var changes: [PinReport.Change] = []
    /// Module → the branch its unpushed commits are pushed from (with `--push`).
    var moduleBranches: [String: String] = [:]
    /// The superproject and every module the pin may change, as they are now: journalled before the first change.
    var before: [RunJournal.Before] = []
    /// The remote tip the pin lands on, when the remote branch moved on.
    var landing: PinLanding?
    /// The superproject's HEAD when it is a pin commit ahead of the remote with nothing to pin: published as it is.
    var unpublished: String?
    /// The superproject branch on the remote before this run: what `runs --abort` sets it back to.
    var remoteBefore: String?

    /// The refusal naming every problem; nil when the pin may go ahead.
    var refusal: WorkingCopyRefusal? {
        guard !problems.isEmpty else { return nil }
        return WorkingCopyRefusal(action: "pin on \(branch.isEmpty ? "a detached HEAD" : branch)", problems: problems)
    }

    /// What the executor does.
    var step: Step {
        if let landing {
            return changes.isEmpty ? .catchUp(landing) : .land(landing)
        }
        guard !changes.isEmpty else { return unpublished.map(Step.publish) ?? .nothing }
        return .commit
    }
}
