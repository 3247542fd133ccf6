import Foundation

/// Writes commit objects: any number with one `git fast-import` process, into one pack (loose objects below git's
/// `fastimport.unpackLimit`), with no temporary file. The commits are only objects until a ref or a push names them:
/// the stream commits to a scratch branch that it resets before it ends, so fast-import writes no ref. The ids are
/// the ones `hash-object -t commit` gives the same text (`CommitWriterTests` compares them).
public enum CommitWriter {
    /// The branch the stream commits to; reset at the end, so never written.
    static let scratchRef = "refs/tenantctl/commit-writer"

    /// Writes `commits` into `repository`; returns their ids in order.
    public static func write(_ commits: [CommitSpec], in repository: String, identity: CommitIdentity, git: Git)
        throws -> [String]
    {
        guard !commits.isEmpty else { return [] }
        if identity.signs { return try writeSigned(commits, in: repository, identity: identity, git: git) }
        let stream = try fastImportStream(commits, identity: identity)
        let output = try git.run(
            ["fast-import", "--quiet", "--done"], in: repository, input: stream,
            context: "write \(English.count(commits.count, "commit"))")
        let ids = output.lines
        guard ids.count == commits.count, ids.allSatisfy(ObjectID.isValid) else {
            throw CommitWriterError("fast-import wrote \(ids.count) commits for \(commits.count) in \(repository)")
        }
        return ids
    }

    /// The `git fast-import` stream: one `commit` per spec (its parents as `from` and `merge`, its tree as the root),
    /// then a `get-mark` per commit (the ids, in order, on standard output), the reset of the scratch branch, `done`.
    static func fastImportStream(_ commits: [CommitSpec], identity: CommitIdentity) throws -> Data {
        for line in [identity.author, identity.committer] where line.contains("\n") {
            throw CommitWriterError("the commit identity \(line.debugDescription) has a line break")
        }
        var stream = Data()
        stream.reserveCapacity(commits.count * 400)
        for (index, commit) in commits.enumerated() {
            guard ObjectID.isValid(commit.tree), commit.parents.allSatisfy(ObjectID.isValid) else {
                throw CommitWriterError("refusing to write a commit of tree \(commit.tree): not object ids")
            }
            let message = Data((commit.message + "\n").utf8)
            // A root commit starts from an empty scratch branch (it may hold the previous commit).
            var head = commit.parents.isEmpty ? "reset \(scratchRef)\n\n" : ""
            head += "commit \(scratchRef)\nmark :\(index + 1)\n"
            head += "author \(identity.author)\ncommitter \(identity.committer)\ndata \(message.count)\n"
            stream.append(contentsOf: head.utf8)
            stream.append(message)
            var tail = commit.parents.first.map { "from \($0)\n" } ?? ""
            for parent in commit.parents.dropFirst() { tail += "merge \(parent)\n" }
            tail += "M 040000 \(commit.tree) \"\"\n\n"
            stream.append(contentsOf: tail.utf8)
        }
        var end = ""
        for index in commits.indices { end += "get-mark :\(index + 1)\n" }
        end += "reset \(scratchRef)\n\ndone\n"
        stream.append(contentsOf: end.utf8)
        return stream
    }

    /// Signed commits: git 2.39's fast-import cannot sign, so each is written with `git commit-tree -S`, which signs
    /// as `git commit` does (the user's `gpg.format`, key and program). One process per commit, plus the signing
    /// program's: the cost docs/PERFORMANCE.md gives.
    static func writeSigned(_ commits: [CommitSpec], in repository: String, identity: CommitIdentity, git: Git)
        throws -> [String]
    {
        let signing = git.with(environment: try identity.environment())
        return try commits.map { commit in
            guard ObjectID.isValid(commit.tree), commit.parents.allSatisfy(ObjectID.isValid) else {
                throw CommitWriterError("refusing to write a commit of tree \(commit.tree): not object ids")
            }
            var arguments = ["commit-tree", "-S"]
            for parent in commit.parents { arguments += ["-p", parent] }
            arguments += ["-F", "-", commit.tree]
            let id = try signing.run(
                arguments, in: repository, input: Data((commit.message + "\n").utf8),
                context: "write a signed commit (commit.gpgSign is set; check gpg.format and user.signingKey)"
            ).text.trimmingCharacters(in: .whitespacesAndNewlines)
            guard ObjectID.isValid(id) else {
                throw CommitWriterError("git commit-tree printed \(id.debugDescription), not a commit id")
            }
            return id
        }
    }

    /// Writes one commit.
    public static func write(_ commit: CommitSpec, in repository: String, identity: CommitIdentity, git: Git) throws
        -> String
    {
        try write([commit], in: repository, identity: identity, git: git)[0]
    }
}

/// A commit could not be written as expected.
public struct CommitWriterError: Error, Sendable, Equatable, CustomStringConvertible {
    public var description: String

    public init(_ description: String) { self.description = description }
}
