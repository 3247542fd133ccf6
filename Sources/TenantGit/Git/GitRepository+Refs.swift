import Foundation

/// HEAD, branches and refs of a repository.
extension GitRepository {
    /// Whether `commit` exists as a commit in the repository.
    public func hasCommit(_ commit: String) throws(GitError) -> Bool {
        try objectID(of: commit, peeledTo: .commit, context: "look up commit \(commit) in \(path)") != nil
    }

    /// Whether the ref `name` (a full ref name) exists. Being replaced by ``value(of:context:)``, which it forwards
    /// to for a well-formed name.
    public func hasRef(_ name: String, context: String) throws(GitError) -> Bool {
        try objectID(of: name, context: context) != nil
    }

    /// The full name of the branch HEAD is on; nil on a detached HEAD.
    public func headBranchRef(context: String) throws(GitError) -> String? {
        let output = try run(["symbolic-ref", "--quiet", "HEAD"], context: context, accepting: [0, 1])
        return output.status == 0 ? output.text : nil
    }

    /// The short name of the branch HEAD is on; nil on a detached HEAD.
    public func headBranch(context: String) throws(GitError) -> String? {
        let output = try run(["symbolic-ref", "--quiet", "--short", "HEAD"], context: context, accepting: [0, 1])
        return output.status == 0 && !output.text.isEmpty ? output.text : nil
    }

    /// The repository's git directory, absolute.
    public func absoluteGitDirectory() throws(GitError) -> String {
        try run(["rev-parse", "--absolute-git-dir"], context: "find the git directory of \(path)").text
    }

    /// The repository's git directory and its common git directory (shared by its worktrees), both absolute.
    public func gitDirectories() throws(GitError) -> (gitDirectory: String, commonDirectory: String)? {
        let lines = try run(
            ["rev-parse", "--absolute-git-dir", "--path-format=absolute", "--git-common-dir"],
            context: "find the git directory of \(path)"
        ).lines
        return lines.count == 2 ? (lines[0], lines[1]) : nil
    }

    /// The absolute path of `name` inside the git directory (`modules/<name>`: a submodule's git directory).
    public func gitPath(_ name: String, context: String) throws(GitError) -> String {
        try run(["rev-parse", "--path-format=absolute", "--git-path", name], context: context).text
    }

    /// The top directory of the working tree `path` is in.
    public func topLevel(context: String? = nil) throws(GitError) -> String {
        try run(["rev-parse", "--show-toplevel"], context: context ?? "check that \(path) is a repository").text
    }

    /// The upstream configured for `branch` (a full ref name); empty when none is.
    public func upstream(of branch: String) throws(GitError) -> String {
        try run(
            ["for-each-ref", "--format=%(upstream)", "--end-of-options", "refs/heads/\(branch)"],
            context: "read the upstream of \(branch) in \(path)"
        ).text
    }

    /// Sets the ref `ref` to `new`, leased on `old` when given (`update-ref -m`).
    public func updateRef(_ ref: String, to new: String, from old: String? = nil, message: String, context: String)
        throws(GitError)
    {
        try run(["update-ref", "-m", message, ref, new] + (old.map { [$0] } ?? []), context: context)
    }

    /// Sets each ref of `values` to its commit, or deletes it (nil), in one `update-ref --stdin`, whatever the refs
    /// held before: a copy of a remote's branches brought up to date after a push (as `git push` updates
    /// `refs/remotes/…`).
    public func setRefs(_ values: [(ref: String, commit: String?)], message: String, context: String)
        throws(GitError)
    {
        guard !values.isEmpty else { return }
        var input = ""
        for value in values {
            guard value.ref.hasPrefix("refs/"), !value.ref.contains(where: { $0 == " " || $0 == "\n" }) else {
                throw GitError(
                    context: context, kind: .refusedArgument(detail: "refusing ref name \(value.ref)"),
                    command: ["git"] + git.argumentVector(["update-ref", "--stdin"], in: path), directory: path,
                    stderr: "")
            }
            input += value.commit.map { "update \(value.ref) \($0)\n" } ?? "delete \(value.ref)\n"
        }
        try git.run(["update-ref", "-m", message, "--stdin"], in: path, input: Data(input.utf8), context: context)
    }

    /// Detaches HEAD at `commit` without touching the files (`update-ref --no-deref`).
    public func detachHead(at commit: String, message: String, context: String) throws(GitError) {
        try run(["update-ref", "--no-deref", "-m", message, "HEAD", commit], context: context)
    }

    /// Deletes the ref `ref`; a ref that is not there is no failure.
    public func deleteRef(_ ref: String, context: String) throws(GitError) {
        try run(["update-ref", "-d", ref], context: context, accepting: [0, 1])
    }

    /// Puts HEAD on the branch `ref` (a full ref name) without touching the files.
    public func pointHead(at ref: String, message: String, context: String) throws(GitError) {
        try run(["symbolic-ref", "-m", message, "HEAD", ref], context: context)
    }

    /// Deletes the local branch `branch`, merged or not, with its configuration.
    public func deleteBranch(_ branch: String, context: String) throws(GitError) {
        try run(["branch", "--quiet", "-D", "--", branch], context: context)
    }

    /// Sets the upstream of the local `branch` to the remote-tracking branch `upstream` (`origin/t2`).
    public func setUpstream(of branch: String, to upstream: String, context: String) throws(GitError) {
        try run(["branch", "--quiet", "--set-upstream-to=\(upstream)", "--", branch], context: context)
    }

    /// Local branches whose names clash with creating `branch`: a branch below it (`t3/wip` blocks `t3`) or above
    /// it (`t3` blocks `t3/wip`). git would refuse the creation half-way.
    public func branchNameClashes(_ branch: String) throws(GitError) -> [String] {
        let below = try GitRefs.branches(under: "refs/heads/\(branch)/", in: path, git: git, what: path)
            .keys.map { "\(branch)/\($0)" }
        var above: [String] = []
        var components = branch.split(separator: "/").dropLast()
        while !components.isEmpty {
            let name = components.joined(separator: "/")
            if try hasRef("refs/heads/\(name)", context: "look for branch \(name) in \(path)") { above.append(name) }
            components = components.dropLast()
        }
        return (below + above).sorted()
    }

    /// A remote-tracking branch that contains `commit`: `origin/<preferred>` when it does, else the first by name.
    public func remoteBranch(containing commit: String, preferred: String, remote: String) throws(GitError)
        -> String?
    {
        let names = try GitRefs.containing(commit, under: "refs/remotes/", in: path, git: git, what: path)
            .filter { !$0.hasSuffix("/HEAD") }
        let preferredName = "\(remote)/\(preferred)"
        if names.contains(preferredName) { return preferredName }
        return names.sorted().first
    }

    /// Branches checked out in another worktree of this repository (whose git directory is `gitDirectory`): branch →
    /// that worktree's path. (git names a submodule's own checkout by its git directory.)
    public func branchesInOtherWorktrees(gitDirectory: String) throws(GitError) -> [String: String] {
        let output = try run(["worktree", "list", "--porcelain", "-z"], context: "list the worktrees of \(path)")
        let own: Set<String> = [
            URL(fileURLWithPath: path).resolvingSymlinksInPath().path,
            URL(fileURLWithPath: gitDirectory).resolvingSymlinksInPath().path,
        ]
        var result: [String: String] = [:]
        var worktree: String?
        var branch: String?
        func flush() {
            if let worktree, let branch, !own.contains(URL(fileURLWithPath: worktree).resolvingSymlinksInPath().path) {
                result[branch] = worktree
            }
            worktree = nil
            branch = nil
        }
        for field in output.stdout.split(separator: 0, omittingEmptySubsequences: false) {
            let text = String(decoding: field, as: UTF8.self)
            if text.isEmpty {
                flush()
            } else if text.hasPrefix("worktree ") {
                worktree = String(text.dropFirst("worktree ".count))
            } else if text.hasPrefix("branch refs/heads/") {
                branch = String(text.dropFirst("branch refs/heads/".count))
            }
        }
        flush()
        return result
    }
}
