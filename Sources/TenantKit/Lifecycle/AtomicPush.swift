import Foundation

/// One ref a push sets, creates or deletes.
public struct PushRef: Sendable, Equatable {
    /// The commit or tag object to push; nil deletes ``ref``.
    public var source: String?
    /// The full destination ref (`refs/heads/t3`, `refs/tags/DEV-M1`).
    public var ref: String
    /// For a deletion: the value the remote ref must still have (a lease); never a force.
    public var expected: String?

    /// Creates a push ref.
    public init(source: String?, ref: String, expected: String? = nil) {
        self.source = source
        self.ref = ref
        self.expected = expected
    }
}

/// `git push --atomic --porcelain`: every ref of one repository changes, or none does. Never forced: an update
/// that is not a fast-forward, or a new ref that already exists, is rejected by the remote; a deletion carries a
/// lease on the value read before.
public enum AtomicPush {
    /// Pushes `refs` from `repository` to `remote` (a remote name or URL) in one atomic push.
    public static func push(_ refs: [PushRef], from repository: String, to remote: String, git: Git, label: String)
        throws
    {
        guard !refs.isEmpty else { return }
        var arguments = ["push", "--atomic", "--porcelain", "--no-verify"]
        for ref in refs where ref.source == nil {
            guard let expected = ref.expected else {
                throw LifecycleError("internal: deleting \(ref.ref) of \(label) without a lease")
            }
            arguments.append("--force-with-lease=\(ref.ref):\(expected)")
        }
        arguments += ["--", remote]
        arguments += refs.map { ($0.source ?? "") + ":" + $0.ref }
        let output = try git.run(
            arguments, in: repository, context: "push to \(label)", accepting: [0, 1])
        guard output.status == 0 else {
            let rejected = output.lines.filter { $0.hasPrefix("!") }.map {
                "  " + $0.replacingOccurrences(of: "\t", with: " ")
            }
            throw LifecycleError(
                "the push to \(label) was rejected; no ref of \(label) changed (atomic push):\n"
                    + (rejected.isEmpty
                        ? "  " + output.stderr.trimmingCharacters(in: .whitespacesAndNewlines)
                        : rejected.joined(separator: "\n")))
        }
    }
}
