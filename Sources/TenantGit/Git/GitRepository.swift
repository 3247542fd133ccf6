import Foundation

/// One repository tenantctl works on: a superproject, a module mirror or a module checkout.
///
/// A `GitRepository` is a ``Git`` runner plus the directory it runs in (`-C`). Every git call of a feature goes
/// through one of its named operations (refs, HEAD, commits, the index, checkouts, merges, fetches, configuration,
/// `.gitmodules`); no feature builds a git argument vector itself. Each operation has one implementation: one set of
/// flags, one parser of git's machine output, and errors that carry the full process result.
public struct GitRepository: Sendable {
    /// The runner.
    public let git: Git
    /// The directory git runs in (`-C`): a working tree, a git directory or a bare repository.
    public let path: String

    /// The repository at `path`, run with `git`.
    public init(_ path: String, git: Git) {
        self.git = git
        self.path = path
    }

    /// Runs `arguments` here (the layer's own entry to the runner).
    @discardableResult
    func run(_ arguments: [String], context: String, input: Data? = nil, accepting: Set<Int32> = [0])
        throws(GitError) -> GitOutput
    {
        try git.run(arguments, in: path, input: input, context: context, accepting: accepting)
    }

    /// Runs a call that talks to `remote` here.
    @discardableResult
    func runNetwork(_ arguments: [String], remote: String, context: String) throws(GitError) -> GitOutput {
        try git.runNetwork(arguments, in: path, remote: remote, context: context)
    }

    /// The error for output of `arguments` that cannot be parsed: it names the full command and carries the result.
    func unparseable(_ arguments: [String], output: GitOutput, detail: String, context: String) -> GitError {
        GitError(
            context: context, kind: .unparseableOutput(detail: detail), command: git.command(arguments, in: path),
            directory: path, output: output)
    }
}

extension GitRepository {
    /// Another repository run by the same runner: a module checkout inside this working tree, a module mirror, a
    /// remote's bare repository next to it.
    public func repository(at path: String) -> GitRepository { GitRepository(path, git: git) }
}

extension Git {
    /// The repository at `path`, run by this runner: for a run that starts from a directory before there is a
    /// workspace to hand out its repositories (finding the superproject, reading the pager's configuration).
    public func repository(at path: String) -> GitRepository { GitRepository(path, git: self) }
}
