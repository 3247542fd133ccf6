import Foundation

/// What the review roll reads of a repository to follow a proposal: the target's first-parent line, a commit's
/// parents and tree, a branch's value.
extension GitRepository {
    /// Pushes one proposal from here to `remote`, as `name` in the outcome and in messages
    /// (``ReviewPush/push(_:lease:options:repository:from:to:git:)``).
    public func propose(_ update: RefUpdate, lease: Bool, options: [String], as name: String, to remote: String) throws
        -> PushOutcome
    {
        try ReviewPush.push(update, lease: lease, options: options, repository: name, from: path, to: remote, git: git)
    }

    /// The first-parent commits of `tip` after `base`, oldest first (`rev-list --first-parent --reverse`).
    public func firstParentLine(after base: String, to tip: String, context: String) throws(GitError) -> [String] {
        try run(
            ["rev-list", "--first-parent", "--reverse", "--end-of-options", tip, "^" + base], context: context
        ).lines.filter { !$0.isEmpty }
    }

    /// The parents of `commit`, first parent first.
    public func parents(of commit: String, context: String) throws(GitError) -> [String] {
        let fields = try run(["rev-list", "--parents", "-n", "1", "--end-of-options", commit], context: context)
            .text.split(separator: " ").map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
        return Array(fields.dropFirst())
    }

    /// The tree of `commit`.
    public func tree(of commit: String, context: String) throws(GitError) -> String {
        try resolve(commit, peeledTo: .tree, context: context).hex
    }

    /// The value of `ref` in this repository, nil when it does not exist.
    public func refValue(_ ref: String, context: String) throws(GitError) -> String? {
        try objectID(of: ref, peeledTo: .commit, context: context)?.hex
    }

    /// The message of `commit` after its subject line (`%b`: its body, trailers included).
    public func body(of commit: String, context: String) throws(GitError) -> String {
        try run(["log", "-1", "--format=%b", "--end-of-options", commit], context: context).text
    }

    /// The subjects of the commits of `tip` that `base` lacks, merges left out.
    public func subjects(of tip: String, excluding base: String, context: String) throws(GitError) -> Set<String> {
        Set(
            try run(
                ["log", "--no-merges", "--format=%s", "--end-of-options", tip, "^" + base], context: context
            ).lines.filter { !$0.isEmpty })
    }
}

/// The push of one proposal to a forge that reads push options or a review namespace (`refs/for/<target>`): AGit,
/// GitLab, Gerrit. One ref a push, because push options apply to the whole push and Gerrit takes one magic ref per
/// push, never mixed with branches.
public enum ReviewPush {
    /// Pushes `update.new` to `update.ref` (a `refs/for/…` destination, or a proposal branch leased on `update.old`
    /// when `lease`) with `options` (`-o`). A refusal is an outcome, not an error; an error means git gave no answer
    /// for the ref (the remote could not be reached, it does not take push options, the connection broke).
    public static func push(
        _ update: RefUpdate, lease: Bool, options: [String], repository name: String, from repository: String,
        to remote: String, git: Git
    ) throws -> PushOutcome {
        guard let new = update.new else {
            throw PushError("refusing to propose nothing on \(update.ref) of \(name): a proposal is a commit")
        }
        var arguments = ["push", "--porcelain", "--no-verify"]
        if lease { arguments.append("--force-with-lease=\(update.ref):\(update.old?.hex ?? "")") }
        for option in options { arguments.append("--push-option=" + option) }
        arguments += ["--", remote, new.hex + ":" + update.ref.name]
        try LFSUpload.upload([update], repository: name, from: repository, to: remote, git: git)
        let context = "propose \(update.ref) of \(name) to \(Redaction.redact(remote))"
        let output = try git.runNetwork(arguments, in: repository, remote: remote, context: context, accepting: [0, 1])
        let answer = AtomicPush.parsePorcelain(output.text)[update.ref.name]
        let messages = AtomicPush.remoteMessages(output.stderr)
        if output.status == 0 && answer?.flag != "!" {
            return PushOutcome(repository: name, accepted: true, detail: "", remoteMessages: messages)
        }
        guard let answer else {
            throw GitError(
                context: context, kind: .failed(status: output.status), command: git.command(arguments, in: repository),
                directory: repository, output: output)
        }
        var detail = "\(update.ref): \(answer.summary)"
        if !messages.isEmpty { detail += "; the remote said: " + messages.joined(separator: " / ") }
        return PushOutcome(
            repository: name, accepted: false, detail: Redaction.redact(detail), remoteMessages: messages)
    }
}
