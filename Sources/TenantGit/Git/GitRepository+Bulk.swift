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

    /// The graph of everything reachable from `tips` (``CommitGraph/load(tips:repository:git:what:)``).
    public func commitGraph(tips: [String], what: String) throws -> CommitGraph {
        try CommitGraph.load(tips: tips, repository: path, git: git, what: what)
    }
}
