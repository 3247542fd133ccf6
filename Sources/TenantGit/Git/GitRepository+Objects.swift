import Foundation

/// Objects of a repository read one at a time (bulk reads: ``CatFileBatch``).
extension GitRepository {
    /// Whether `object` (`<commit>:<path>`, `<id>^{commit}`) names an object the repository has.
    public func hasObject(_ object: String, context: String) throws(GitError) -> Bool {
        try run(["cat-file", "-e", "--end-of-options", object], context: context, accepting: [0, 1, 128]).status == 0
    }

    /// Whether the tree of `commit` has anything at `path` (one `ls-tree`).
    public func hasPath(_ path: String, at commit: String, context: String) throws(GitError) -> Bool {
        try !run(["ls-tree", "-z", "--end-of-options", commit, "--", path], context: context).stdout.isEmpty
    }

    /// The contents of the blob `commit:path`.
    public func blob(_ path: String, at commit: String, context: String) throws(GitError) -> Data {
        try run(["cat-file", "blob", "\(commit):\(path)"], context: context).stdout
    }
}

/// History questions of the lifecycle commands.
extension GitRepository {
    /// `<short id> <subject>` of each commit reachable from `tips` and not from `base`, newest first.
    public func oneLineLog(_ tips: [String], excluding base: String, context: String) throws(GitError) -> [String] {
        try run(
            ["log", "--no-decorate", "--format=%h %s", "--end-of-options"] + tips + ["^" + base, "--"],
            context: context
        ).lines
    }

    /// The paths below `directory` (`Tenants/`) that a commit reachable from `tip` deleted (one `git log`); a path
    /// deleted several times is listed as often.
    public func deletedPaths(from tip: String, under directory: String, context: String) throws(GitError)
        -> [String]
    {
        let output = try run(
            ["log", "--format=", "--name-only", "--diff-filter=D", "-z", "--end-of-options", tip, "--", directory],
            context: context)
        return output.stdout.split(whereSeparator: { $0 == 0 || $0 == 10 }).map {
            String(decoding: $0, as: UTF8.self)
        }
    }

    /// The number of commits reachable from `tip` and from no ref matching `glob` other than `ref`.
    public func countCommits(from tip: String, notOn glob: String, except ref: String, context: String)
        throws(GitError) -> Int
    {
        let arguments = ["rev-list", "--count", tip, "--not", "--exclude=\(ref)", "--glob=\(glob)"]
        let output = try run(arguments, context: context)
        guard let count = Int(output.text) else {
            throw unparseable(arguments, output: output, detail: output.text, context: context)
        }
        return count
    }
}

extension GitRepository {
    /// Whether `revision` (`<commit>:<path>`) names an object; a revision git cannot read is no failure. Being
    /// replaced by ``objectID(of:peeledTo:context:)``.
    public func resolves(_ revision: String, context: String) throws(GitError) -> Bool {
        try revParse(revision, peel: nil, required: false, unreadableIsAbsent: true, context: context) != nil
    }

    /// The entries of the tree of `revision` at `path` (a directory given as `Tenants/`: its entries), not recursing.
    public func treeEntries(at revision: String, path: String, context: String) throws(GitError)
        -> [(entry: TreeEntry, path: String)]
    {
        let arguments = ["ls-tree", "-z", "--end-of-options", revision, "--", path]
        let listing = try run(arguments, context: context)
        guard let entries = GitParse.lsTree(listing.stdout) else {
            throw unparseable(arguments, output: listing, detail: "ls-tree output", context: context)
        }
        return entries
    }
}

extension GitRepository {
    /// The subject of the commit `revision` names.
    public func subject(of revision: String, context: String) throws(GitError) -> String {
        try run(["log", "-1", "--format=%s", revision], context: context).text
    }

    /// The number of merge commits reachable from the local branches; nil when git's count cannot be read.
    public func mergeCount(context: String) throws(GitError) -> Int? {
        Int(try run(["rev-list", "--merges", "--count", "--branches"], context: context).text)
    }
}

extension GitRepository {
    /// Runs one `git fast-import` with `stream` (ending in `done`) that asks for `marks` commit ids (`get-mark`);
    /// returns them in order. Any other number of lines is an error naming the command, with git's output.
    public func fastImport(_ stream: Data, marks: Int, context: String) throws(GitError) -> [String] {
        let arguments = ["fast-import", "--quiet", "--done"]
        let output = try run(arguments, context: context, input: stream)
        let lines = output.lines
        guard lines.count == marks else {
            throw unparseable(
                arguments, output: output, detail: "expected \(marks) commit ids, got \(lines.count) lines",
                context: context)
        }
        return lines
    }
}
