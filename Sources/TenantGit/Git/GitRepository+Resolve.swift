import Foundation

/// The one resolver: a revision (`HEAD`, `HEAD^1`, a full ref name, an id, `<commit>:<path>`) to the ``ObjectID`` it
/// names, with one argument vector (`rev-parse --verify --end-of-options`) and one parser. Every other lookup of an
/// id is built on it.
extension GitRepository {
    /// The kind of object a revision is peeled to before its id is taken (`<revision>^{commit}`).
    public enum Peel: String, Sendable {
        /// An annotated tag is followed to its commit; a tree or blob names nothing.
        case commit
        /// A commit's tree.
        case tree
    }

    /// The object `revision` names, peeled to `peel` when given; nil when it names nothing.
    public func objectID(of revision: String, peeledTo peel: Peel? = nil, context: String? = nil) throws(GitError)
        -> ObjectID?
    {
        try revParse(revision, peel: peel, required: false, context: context)
    }

    /// The object `revision` names, peeled to `peel` when given; throws git's own error when it names nothing.
    public func resolve(_ revision: String, peeledTo peel: Peel? = nil, context: String? = nil) throws(GitError)
        -> ObjectID
    {
        guard let id = try revParse(revision, peel: peel, required: true, context: context) else {
            // Not reached: without `--quiet`, git exits non-zero for a revision that names nothing.
            throw GitError(
                context: context ?? "resolve \(revision) in \(path)", kind: .failed(status: 1),
                command: git.command(["rev-parse", "--verify", revision], in: path), directory: path,
                stderr: "\(revision) names no object")
        }
        return id
    }

    /// What the ref `ref` points to (not peeled); nil when the ref does not exist.
    public func value(of ref: RefName, context: String? = nil) throws(GitError) -> ObjectID? {
        try revParse(ref.name, peel: nil, required: false, context: context ?? "look up \(ref) in \(path)")
    }

    /// The one `rev-parse` of an object id. `required`: git's own error (status and message) when the revision
    /// names nothing; otherwise `--quiet` and nil. `unreadableIsAbsent`: a revision git cannot read at all (exit
    /// 128) is nil too.
    func revParse(
        _ revision: String, peel: Peel?, required: Bool, unreadableIsAbsent: Bool = false, context: String?
    ) throws(GitError) -> ObjectID? {
        let spelled = peel.map { revision + "^{\($0.rawValue)}" } ?? revision
        let arguments = ["rev-parse", "--verify"] + (required ? [] : ["--quiet"]) + ["--end-of-options", spelled]
        let context =
            context ?? (peel == .commit ? "look up commit \(revision) in \(path)" : "look up \(spelled) in \(path)")
        let accepting: Set<Int32> = required ? [0] : unreadableIsAbsent ? [0, 1, 128] : [0, 1]
        let output = try run(arguments, context: context, accepting: accepting)
        guard output.status == 0 else { return nil }
        guard let id = ObjectID(output.text) else {
            throw unparseable(arguments, output: output, detail: "no object id", context: context)
        }
        return id
    }
}
