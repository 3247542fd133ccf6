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

/// The author and committer of the commits tenantctl writes (`Name <email> <time> <zone>`).
public struct CommitIdentity: Sendable, Equatable {
    public var author: String
    public var committer: String

    public init(author: String, committer: String) {
        self.author = author
        self.committer = committer
    }

    /// Read with `git var -l` in `repository`, honouring `GIT_AUTHOR_*` / `GIT_COMMITTER_*` and the user's config.
    public static func read(in repository: String, git: Git) throws -> CommitIdentity {
        let lines = try git.run(["var", "-l"], in: repository, context: "read the author and committer identities")
            .lines
        func value(_ name: String) -> String? {
            lines.first { $0.hasPrefix(name + "=") }.map { String($0.dropFirst(name.count + 1)) }
        }
        guard let author = value("GIT_AUTHOR_IDENT"), let committer = value("GIT_COMMITTER_IDENT") else {
            throw CommitWriterError(
                "git var -l printed no author or committer identity in \(repository); set user.name and user.email")
        }
        return CommitIdentity(author: author, committer: committer)
    }
}

/// Writes commit objects: any number with one `hash-object -t commit -w --stdin-paths` process. The commits are only
/// objects until a ref or a push names them.
public enum CommitWriter {
    /// Writes `commits` into `repository`; returns their ids in order.
    public static func write(_ commits: [CommitSpec], in repository: String, identity: CommitIdentity, git: Git)
        throws -> [String]
    {
        guard !commits.isEmpty else { return [] }
        let directory = try TemporaryDirectory(prefix: "tenantctl-commits-")
        defer { directory.remove() }
        var paths: [String] = []
        for (index, commit) in commits.enumerated() {
            var text = "tree \(commit.tree)\n"
            for parent in commit.parents { text += "parent \(parent)\n" }
            text += "author \(identity.author)\ncommitter \(identity.committer)\n\n\(commit.message)\n"
            let file = directory.url.appendingPathComponent("\(index)")
            try Data(text.utf8).write(to: file)
            guard !file.path.contains("\n") else { throw CommitWriterError("temporary path with a line break") }
            paths.append(file.path)
        }
        let output = try git.run(
            ["hash-object", "-t", "commit", "-w", "--no-filters", "--stdin-paths"], in: repository,
            input: Data(paths.map { $0 + "\n" }.joined().utf8),
            context: "write \(commits.count) commit\(commits.count == 1 ? "" : "s")")
        let ids = output.lines
        guard ids.count == commits.count, ids.allSatisfy(ObjectID.isValid) else {
            throw CommitWriterError("hash-object wrote \(ids.count) commits for \(commits.count) in \(repository)")
        }
        return ids
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
