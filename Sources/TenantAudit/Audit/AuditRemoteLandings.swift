import Foundation

/// How audit learns the landings by squash or rebase that the remotes show (for a clone without the journals of the
/// review runs: a fresh clone, a CI job): the command gives it, as the reading lives above this layer (with the
/// virtual base of roll, which reads the same landings). Both do nothing, and run no git, for a project without
/// review settings.
public struct AuditRemoteLandings: Sendable {
    /// Copies the review refs of the forges that the review settings name, under the workspace lock, when audit
    /// fetches (never with `--no-fetch`).
    public var fetch: @Sendable (Snapshot) throws -> Void
    /// The landings, as reviews seen on the remotes (``ObservedReview/seenOnRemotes``), from the snapshot and the
    /// observation (the repositories' graphs already read).
    public var read: @Sendable (Snapshot, ProjectObservation) throws -> [ObservedReview]

    public init(
        fetch: @escaping @Sendable (Snapshot) throws -> Void,
        read: @escaping @Sendable (Snapshot, ProjectObservation) throws -> [ObservedReview]
    ) {
        self.fetch = fetch
        self.read = read
    }
}
