import Foundation

/// How a push may move the remote's refs.
public enum PushMode: Sendable, Equatable {
    /// Updates must be fast-forwards (the remote refuses anything else) and a new ref must not exist yet; a deletion
    /// carries a lease on its expected old value. Never forced.
    case fastForward
    /// Every ref is set to its `new` value with a lease on its `old` value (`--force-with-lease=<ref>:<old>`): only
    /// `roll --undo`, which moves refs back to what a journalled run found, and only while nobody moved them since.
    case restore
    /// Every ref is set to its `new` value with a lease on its `old` value, where `new` descends from `old`:
    /// `resolve --continue`, which publishes exactly over the tips the resolution started from.
    case leased
}
