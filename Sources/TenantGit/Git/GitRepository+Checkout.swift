import Foundation

/// Porcelain writes of a working copy: switch, reset, merge, commit.
///
/// `recurseSubmodules: false` is for a superproject whose module checkouts tenantctl moves itself: git leaves the
/// submodules' working trees alone (`--no-recurse-submodules`, or `submodule.recurse=false` where git has no flag).
extension GitRepository {
    private func switchArguments(_ recurseSubmodules: Bool) -> [String] {
        recurseSubmodules ? ["switch", "--quiet"] : ["switch", "--quiet", "--no-recurse-submodules"]
    }

    /// Checks out the local branch `branch`.
    public func switchTo(_ branch: String, recurseSubmodules: Bool = true, context: String) throws(GitError) {
        try run(switchArguments(recurseSubmodules) + ["--end-of-options", branch], context: context)
    }

    /// Creates the branch `branch` at `commit` (no upstream) and checks it out; `force`: resets an existing branch
    /// of that name (`-C`).
    public func createBranch(
        _ branch: String, at commit: String, force: Bool = false, recurseSubmodules: Bool = true, context: String
    ) throws(GitError) {
        try run(
            switchArguments(recurseSubmodules) + ["--no-track", force ? "-C" : "-c", branch, commit], context: context)
    }

    /// Checks `commit` out on a detached HEAD, discarding local changes.
    public func detachDiscardingChanges(at commit: String, recurseSubmodules: Bool = true, context: String)
        throws(GitError)
    {
        try run(switchArguments(recurseSubmodules) + ["--discard-changes", "--detach", commit], context: context)
    }

    /// Moves the checked-out branch to `commit`, keeping local changes that do not conflict (`reset --keep`).
    /// `commit` is an object id (`reset` rejects `--end-of-options` before it).
    public func resetKeep(to commit: String, recurseSubmodules: Bool = true, context: String) throws(GitError) {
        try run(
            ["reset", "--quiet", "--keep"] + (recurseSubmodules ? [] : ["--no-recurse-submodules"]) + [commit],
            context: context)
    }

    /// Moves the checked-out branch to `commit` and the index with it, leaving every file as it is (`reset --mixed`):
    /// what the commits between differ in shows as changes not staged. `commit` is an object id.
    public func resetMixed(to commit: String, context: String) throws(GitError) {
        try run(["reset", "--quiet", "--mixed", commit], context: context)
    }

    /// Puts the index and the files back at `commit` (HEAD when nil), discarding changes and an unfinished merge;
    /// the submodules' working trees are not touched.
    public func resetHard(to commit: String? = nil, context: String) throws(GitError) {
        try run(
            ["reset", "--quiet", "--hard", "--no-recurse-submodules"] + (commit.map { [$0] } ?? []), context: context)
    }

    /// Fast-forwards the checked-out branch to `commit` (`merge --ff-only`).
    public func fastForward(to commit: String, context: String) throws(GitError) {
        try run(
            ["merge", "--ff-only", "--quiet", "--no-verify-signatures", "--end-of-options", commit], context: context)
    }

    /// `git merge --no-ff` of `theirs` with `message`; `commit: false` stops before committing, and submodules are not
    /// touched (a superproject whose pins are set afterwards). Exit 1 (conflicts, or a merge git refused to start) is
    /// returned, not thrown. Signatures are not verified (`merge.verifySignatures` would stop it half-way).
    public func merge(_ theirs: String, message: String, commit: Bool, context: String) throws(GitError) -> GitOutput {
        let arguments =
            commit
            ? ["merge", "--no-ff", "--no-edit", "--quiet", "--no-verify-signatures", "-m", message]
            : [
                "-c", "submodule.recurse=false", "merge", "--no-ff", "--no-commit", "--no-edit", "--quiet",
                "--no-verify-signatures", "-m", message,
            ]
        return try run(arguments + ["--end-of-options", theirs], context: context, accepting: [0, 1])
    }

    /// Commits the index with `message` (no hooks; `noEdit`: the message as given, even for a merge).
    public func commit(message: String, noEdit: Bool = false, context: String) throws(GitError) {
        try run(
            ["commit", "--quiet", "--no-verify"] + (noEdit ? ["--no-edit"] : []) + ["-m", message], context: context)
    }

    /// Amends HEAD with the index, message unchanged (no hooks).
    public func amend(context: String) throws(GitError) {
        try run(["commit", "--quiet", "--no-verify", "--amend", "--no-edit"], context: context)
    }

    /// Creates or resets the branch `branch` at HEAD and checks it out (`checkout -B`).
    public func checkOutResetting(_ branch: String, context: String) throws(GitError) {
        try run(["checkout", "--quiet", "-B", branch], context: context)
    }
}
