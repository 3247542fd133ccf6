import Foundation

/// A commit object to write.
public struct CommitSpec: Sendable, Equatable {
    /// Tree id.
    public var tree: String
    /// Parents, first parent first.
    public var parents: [String]
    /// Message (one paragraph or more).
    public var message: String

    public init(tree: String, parents: [String], message: String) {
        self.tree = tree
        self.parents = parents
        self.message = message
    }
}

/// The author and committer of the commits tenantctl writes (`Name <email> <time> <zone>`), and whether the user's
/// config asks for them to be signed.
public struct CommitIdentity: Sendable, Equatable {
    public var author: String
    public var committer: String
    /// `commit.gpgSign` is true: every commit is signed as `git commit` would sign it (`gpg.format`,
    /// `user.signingKey`, `gpg.<format>.program`).
    public var signs: Bool

    public init(author: String, committer: String, signs: Bool = false) {
        self.author = author
        self.committer = committer
        self.signs = signs
    }

    /// Read the way `git commit` reads them in `repository`: `git var GIT_AUTHOR_IDENT` and `GIT_COMMITTER_IDENT`
    /// (strict: they fail where `git commit` would, with no email configured or `user.useConfigOnly` set, and the
    /// error carries git's own hint), honouring `GIT_AUTHOR_*` / `GIT_COMMITTER_*`; and `commit.gpgSign`. Call it
    /// before the first write, so that a missing identity changes nothing.
    public static func read(in repository: String, git: Git) throws -> CommitIdentity {
        func ident(_ name: String) throws -> String {
            let value = try git.run(
                ["var", name], in: repository,
                context: "read the \(name == "GIT_AUTHOR_IDENT" ? "author" : "committer") identity "
                    + "(the one git commit would use; set user.name and user.email)"
            ).text.trimmingCharacters(in: .newlines)
            guard !value.isEmpty else {
                throw CommitWriterError(
                    "git var \(name) printed no identity in \(repository); set user.name and user.email")
            }
            return value
        }
        let author = try ident("GIT_AUTHOR_IDENT")
        let committer = try ident("GIT_COMMITTER_IDENT")
        let sign = try git.run(
            ["config", "--type=bool", "--get", "commit.gpgsign"], in: repository,
            context: "read commit.gpgSign", accepting: [0, 1])
        return CommitIdentity(author: author, committer: committer, signs: sign.text.hasPrefix("true"))
    }

    /// `GIT_AUTHOR_NAME`, `_EMAIL`, `_DATE` and the committer's: the identity for `git commit-tree`.
    func environment() throws -> [String: String] {
        var result: [String: String] = [:]
        for (role, line) in [("AUTHOR", author), ("COMMITTER", committer)] {
            guard let open = line.lastIndex(of: "<"), let close = line.lastIndex(of: ">"), open < close else {
                throw CommitWriterError("the commit identity \(line.debugDescription) is not Name <email> date")
            }
            result["GIT_\(role)_NAME"] = String(line[..<open]).trimmingCharacters(in: .whitespaces)
            result["GIT_\(role)_EMAIL"] = String(line[line.index(after: open)..<close])
            result["GIT_\(role)_DATE"] = String(line[line.index(after: close)...]).trimmingCharacters(in: .whitespaces)
        }
        return result
    }
}

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
