import Foundation

extension GitRepository {
    /// Copies `commits`, with everything they reach, from the local repository `source` into this repository's object
    /// store, setting no ref (no FETCH_HEAD, tags or submodules): commits this repository is to read, never to name.
    public func fetchCommits(_ commits: [String], from source: String, context: String) throws(GitError) {
        guard !commits.isEmpty else { return }
        try run(
            [
                "fetch", "--quiet", "--no-tags", "--no-recurse-submodules", "--no-write-fetch-head", "--refmap=",
                "--end-of-options", source,
            ] + commits, context: context)
    }
}
