import Foundation

/// The bulk readers of a repository value: the same operations as their path-and-runner forms, for a feature that
/// holds a ``GitRepository`` (the workspace's superproject, a snapshot's mirror).
extension GitRepository {
    /// Every ref under `prefixes` (full ref name → object id), from one `for-each-ref` (``GitRefs/list``).
    public func refs(_ prefixes: [String], what: String) throws(GitError) -> [String: String] {
        try GitRefs.list(prefixes, in: path, git: git, what: what)
    }

    /// The refs under one `prefix` by their short name (``GitRefs/branches(under:in:git:what:)``).
    public func branches(under prefix: String, what: String) throws(GitError) -> [String: String] {
        try GitRefs.branches(under: prefix, in: path, git: git, what: what)
    }

    /// The short names of the refs under `prefix` that contain `commit` (``GitRefs/containing(_:under:in:git:what:)``).
    public func branches(containing commit: String, under prefix: String, what: String) throws(GitError) -> Set<String>
    {
        try GitRefs.containing(commit, under: prefix, in: path, git: git, what: what)
    }

    /// Module path → pinned commit of one commit (``PinReader/pins(at:paths:in:git:)``).
    public func pins(at commit: String, paths: [String]) throws(GitError) -> [String: String] {
        try PinReader.pins(at: commit, paths: paths, in: path, git: git)
    }

    /// A `cat-file --batch` open on this repository; the caller closes it.
    public func openBatch() throws(GitError) -> CatFileBatch {
        try CatFileBatch(git: git, repository: path)
    }

    /// Whether the index has a gitlink (``IndexGitlinks/any(in:git:)``).
    public func indexHasGitlinks() throws -> Bool {
        try IndexGitlinks.any(in: path, git: git)
    }

    /// The branches and the graph in one listing, with `more` commits (``CommitGraph/loadBranches(more:repository:git:what:)``).
    public func branchesAndGraph(more: [String], what: String) throws -> (
        branches: [String: String], graph: CommitGraph
    ) {
        let read = try CommitGraph.loadBranches(more: more, repository: path, git: git, what: what)
        return (read.branches, read.graph)
    }

    /// Commit → paths changed against its base for many pairs with one `diff-tree --stdin`
    /// (``ChangedPaths/between(_:repository:what:gitlinks:git:)``).
    public func changedPaths(between pairs: [(commit: String, base: String)], what: String, gitlinks: Bool) throws
        -> [String: [String]]
    {
        try ChangedPaths.between(pairs, repository: path, what: what, gitlinks: gitlinks, git: git)
    }

    /// Which of `paths` (relative to this working tree) git ignores, with the rule that does
    /// (``IgnoreRules/ignored(_:in:git:)``).
    public func ignored(_ paths: [String]) throws -> [IgnoreRules.Match] {
        try IgnoreRules.ignored(paths, in: path, git: git)
    }

    /// Creates an empty bare repository at `path`, run by this repository's runner
    /// (``GitRepository/initBare(at:git:objectFormat:initialBranch:context:)``).
    @discardableResult
    public func initBare(at path: String, context: String) throws(GitError) -> GitRepository {
        try GitRepository.initBare(at: path, git: git, context: context)
    }

    /// The graph of everything reachable from `tips` (``CommitGraph/load(tips:repository:git:what:)``).
    public func commitGraph(tips: [String], what: String) throws -> CommitGraph {
        try CommitGraph.load(tips: tips, repository: path, git: git, what: what)
    }
}
