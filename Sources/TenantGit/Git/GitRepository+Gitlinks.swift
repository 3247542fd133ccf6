import Foundation

/// Every submodule pin of a commit, and whether a commit is published in a bare mirror.
extension GitRepository {
    /// Path → pinned commit of every gitlink in the tree of `commit`, at any depth (one `ls-tree -r`).
    public func gitlinks(at commit: String) throws(GitError) -> [String: String] {
        let arguments = ["ls-tree", "-r", "-z", "--full-tree", "--end-of-options", commit]
        let context = "list the submodules of \(ObjectID.short(commit)) in \(path)"
        let listing = try run(arguments, context: context)
        guard let entries = GitParse.lsTree(listing.stdout) else {
            throw unparseable(arguments, output: listing, detail: "ls-tree output", context: context)
        }
        var result: [String: String] = [:]
        for (entry, path) in entries where entry.isGitlink { result[path] = entry.id }
        return result
    }

    /// Whether `commit` (which the repository has) is reachable from one of its branches or tags: in a module's
    /// mirror, whether the module's remote has it (`rev-list` of what the commit has beyond every branch and tag is
    /// empty).
    public func isOnBranchOrTag(_ commit: String, context: String) throws(GitError) -> Bool {
        try run(
            ["rev-list", "--max-count=1", "--not", "--branches", "--tags", "--not", "--end-of-options", commit],
            context: context
        ).text.isEmpty
    }
}
