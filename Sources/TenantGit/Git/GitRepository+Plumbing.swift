import Foundation

/// The plumbing writes of a repository value: merges without a work tree, commits and trees written as objects,
/// ref transactions and atomic pushes — the same operations as their path-and-runner forms (``MergeTree``,
/// ``CommitWriter``, ``TreeWriter``, ``RefTransaction``, ``AtomicPush``), for a feature that holds a
/// ``GitRepository`` (roll's superproject and module mirrors).
extension GitRepository {
    /// Merges every pair (`ours`, `theirs`) here in one `merge-tree` process (``MergeTree/merge(_:in:git:what:)``).
    public func mergeTrees(_ pairs: [(ours: String, theirs: String)], what: String) throws -> [MergeTreeResult] {
        try MergeTree.merge(pairs, in: path, git: git, what: what)
    }

    /// Writes `commits` here (``CommitWriter``, one `fast-import`); their ids in order.
    public func writeCommits(_ commits: [CommitSpec], identity: CommitIdentity) throws -> [ObjectID] {
        try CommitWriter.write(commits, in: path, identity: identity, git: git).map { text in
            guard let id = ObjectID(text) else {
                throw CommitWriterError("writing commits in \(path) gave \(text.debugDescription), not a commit id")
            }
            return id
        }
    }

    /// Writes one commit here; its id.
    public func writeCommit(_ commit: CommitSpec, identity: CommitIdentity) throws -> ObjectID {
        guard let id = try writeCommits([commit], identity: identity).first else {
            throw CommitWriterError("writing a commit in \(path) gave no commit id")
        }
        return id
    }

    /// A tree writer on this repository's objects; `batch` is a `cat-file --batch` open on it.
    public func treeWriter(batch: CatFileBatch) -> TreeWriter {
        TreeWriter(batch: batch, repository: path, git: git)
    }

    /// Applies `updates` here as one atomic ref transaction (``RefTransaction/apply(_:in:git:context:beforeCommit:)``).
    public func applyRefUpdates(_ updates: [RefUpdate], context: String) throws {
        try RefTransaction.apply(updates, in: path, git: git, context: context)
    }

    /// Pushes `updates` from here to `remote` in one atomic push; `name` is the repository's name in the outcome
    /// and in messages (``AtomicPush/push(_:repository:from:to:mode:weighStaging:tracking:git:)``).
    public func push(
        _ updates: [RefUpdate], as name: String, to remote: String, mode: PushMode = .fastForward,
        weighStaging: Bool = false, tracking: [PushTracking] = []
    ) throws -> PushOutcome {
        try AtomicPush.push(
            updates, repository: name, from: path, to: remote, mode: mode, weighStaging: weighStaging,
            tracking: tracking, git: git)
    }

    /// ``push(_:as:to:mode:weighStaging:tracking:)`` from a mirror of `remote` that leaves the record of a landed push
    /// (in the same ref transaction that removes the staged branches, ``AtomicPush``) to the caller
    /// (``PendingPushRecord``): it completes it while another repository pushes.
    public func pushLeavingRecord(
        _ updates: [RefUpdate], as name: String, to remote: String, weighStaging: Bool = false
    ) throws -> (outcome: PushOutcome, record: PendingPushRecord?) {
        try AtomicPush.push(
            updates, repository: name, from: path, to: remote, weighStaging: weighStaging, leavingRecord: true,
            git: git)
    }

    /// The identity `git commit` would use here (``CommitIdentity/read(in:git:)``).
    public func commitIdentity() throws -> CommitIdentity {
        try CommitIdentity.read(in: path, git: git)
    }

    /// This repository run by `runner` instead (the same directory, another environment: roll's superproject
    /// merges, which run where git sees no submodule).
    public func runBy(_ runner: Git) -> GitRepository { GitRepository(path, git: runner) }
}
