import Foundation

/// Keeping the user's changes aside before a put-back: a commit shaped like git's own stash entries, stored on
/// `refs/stash`, so that `git stash list`, `git stash show -p` and `git stash pop` find it.
extension GitRepository {
    /// Adds `commit` (a stash-like commit: first parent the base, second the index) to the stash list with
    /// `message` (`git stash store`).
    public func storeStash(_ commit: String, message: String, context: String) throws(GitError) {
        try run(["stash", "store", "-m", message, commit], context: context)
    }
}
