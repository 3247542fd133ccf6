import Foundation

/// The review refs a forge keeps of its own (GitHub's and Gitea's `refs/pull/<n>/head`, GitLab's
/// `refs/merge-requests/<n>/head`, Gerrit's `refs/changes/<nn>/<n>/<patch set>`), copied into a namespace of
/// tenantctl's (``reviewRefCache``) by one fetch, and read from there: they outlive the proposal branch a forge
/// deletes after landing it.
extension GitRepository {
    /// Where the copies are kept: `refs/pull/12/head` of the remote as `refs/tenantctl/reviews/pull/12/head`. A
    /// cache that every such fetch refills (and prunes), like the module mirrors.
    public static let reviewRefCache = "refs/tenantctl/reviews/"

    /// The copy of the remote ref pattern `pattern` (`refs/pull/*/head` → `refs/tenantctl/reviews/pull/*/head`).
    public static func reviewRefCopy(of pattern: String) -> String {
        reviewRefCache + (pattern.hasPrefix("refs/") ? String(pattern.dropFirst("refs/".count)) : pattern)
    }

    /// Copies the refs of `remote` (a URL or a remote's name) that `patterns` match (`refs/pull/*/head`,
    /// `refs/changes/*`) into ``reviewRefCache`` with their commits, pruning the copies the remote no longer has: one
    /// `fetch` (no tags, FETCH_HEAD, submodules or configured refmap; branches left alone).
    public func fetchReviewRefs(_ patterns: [String], from remote: String, context: String) throws(GitError) {
        guard !patterns.isEmpty else { return }
        try runNetwork(
            [
                "fetch", "--quiet", "--prune", "--no-tags", "--no-recurse-submodules", "--no-write-fetch-head",
                "--refmap=", "--end-of-options", remote,
            ] + patterns.map { "+\($0):\(Self.reviewRefCopy(of: $0))" }, remote: remote, context: context)
    }

    /// The commits the copies of `patterns` hold (``fetchReviewRefs(_:from:context:)``) whose message contains
    /// `text` (a fixed string, on any line), each once with one copy that holds it (``FoundMessage/tip`` is that
    /// copy's name). One `git log --no-walk` over the copies; none when there are no copies.
    public func reviewRefCommits(_ patterns: [String], messageContaining text: String, context: String)
        throws(GitError) -> [FoundMessage]
    {
        guard !patterns.isEmpty else { return [] }
        let output = try run(
            [
                "log", "--no-walk=unsorted", "--source", "--fixed-strings", "--grep=" + text,
                "--format=%H%x1f%S%x1f%P%x1f%B%x1e",
            ] + patterns.map { "--glob=" + Self.reviewRefCopy(of: $0) }, context: context)
        return Self.parseFoundMessages(output.text)
    }
}
