import Foundation

/// A code-review forge (GitHub, GitLab, Gitea …) emulated with plain git on a bare repository: protected branches
/// refused by a `pre-receive` hook, and a merge button (``land(_:into:method:in:)``) that lands a proposal the way a
/// forge does — merge commit, fast-forward, squash or rebase — writing the target branch directly, as the forge's
/// own process does (no hook runs for it).
public struct EmulatedForge: Sendable {
    /// How a forge lands a proposal.
    public enum Method: String, Sendable, CaseIterable {
        /// A merge commit: the target as first parent, the proposal as second.
        case merge
        /// The target moved to the proposal (only when the proposal contains the target).
        case fastForward = "fast-forward"
        /// One new commit on the target with the proposal's merged tree and the target as its only parent; its
        /// message lists the proposal's commits' messages, as GitHub, Gitea and Bitbucket write by default
        /// (``land(_:into:method:in:keepingMessages:)`` can leave them out, as GitLab's default template does).
        case squash
        /// The proposal's commits that are not merges, replayed one by one onto the target.
        case rebase
    }

    /// The file in the bare repository that lists the protected branches, one name a line.
    public static let protectedList = "forge-protected"
    /// What the hook prints for a refused branch: the words tenantctl recognises a protected branch by.
    public static let refusal = "protected branch"

    /// The forge's own identity, as the committer of what its merge button writes.
    static let committer = ["-c", "user.name=The Forge", "-c", "user.email=forge@forge.invalid"]

    let sandbox: GitSandbox

    public init(sandbox: GitSandbox) {
        self.sandbox = sandbox
    }

    /// The `pre-receive` hook: every update of a branch named in ``protectedList`` is refused with
    /// "protected branch <ref>"; with any refused, the whole push is (as a forge refuses an atomic push).
    public static let preReceiveHook = """
        #!/bin/sh
        list="${GIT_DIR:-.}/\(protectedList)"
        status=0
        while read -r old new ref; do
            case "$ref" in
            refs/heads/*)
                if [ -f "$list" ] && grep -qxF -- "${ref#refs/heads/}" "$list"; then
                    echo "error: \(refusal) $ref: changes go through a review" >&2
                    status=1
                fi
                ;;
            esac
        done
        exit $status

        """

    /// Protects `branches` of the bare repository `bare` (adds to what is protected already) and installs the hook
    /// (the recording one where the repository is served as a forge kind: ``serve(_:in:)``).
    public func protect(_ branches: [String], in bare: String) throws {
        let served = FileManager.default.fileExists(atPath: bare + "/" + Self.kindFile)
        _ = try sandbox.writeExecutable(
            try relative(bare + "/hooks/pre-receive"), served ? Self.recordingPreReceiveHook : Self.preReceiveHook)
        let file = bare + "/" + Self.protectedList
        let existing = (try? String(contentsOfFile: file, encoding: .utf8)) ?? ""
        let names = existing.split(separator: "\n").map(String.init) + branches
        try (names.joined(separator: "\n") + "\n").write(toFile: file, atomically: true, encoding: .utf8)
    }

    /// Lands `proposal` (a branch or commit of `bare`) into the branch `target` of `bare` by `method`, as the forge's
    /// merge button would; returns the target's new tip. A squash's message is `Squash <proposal> into <target>`,
    /// then (`keepingMessages`) each message of the proposal's commits that the target lacks, oldest first, as a
    /// list item (`* <subject>`, then its body).
    @discardableResult
    public func land(
        _ proposal: String, into target: String, method: Method, in bare: String, keepingMessages: Bool = true
    ) throws -> String {
        let old = try sandbox.git(["rev-parse", "--verify", "refs/heads/\(target)^{commit}"], in: bare)
        let tip = try sandbox.git(["rev-parse", "--verify", "\(proposal)^{commit}"], in: bare)
        let new: String
        switch method {
        case .fastForward:
            guard try sandbox.gitResult(["merge-base", "--is-ancestor", old, tip], in: bare).status == 0 else {
                throw SandboxError(description: "cannot fast-forward \(target) to \(proposal): it does not contain it")
            }
            new = tip
        case .merge, .squash:
            let tree = try mergedTree(old, tip, in: bare)
            let parents = method == .merge ? [old, tip] : [old]
            var message = "\(method == .merge ? "Merge" : "Squash") \(proposal) into \(target)"
            if method == .squash && keepingMessages {
                message += try squashedMessages(tip, excluding: old, in: bare)
            }
            new = try sandbox.git(
                Self.committer + ["commit-tree", tree] + parents.flatMap { ["-p", $0] } + ["-m", message], in: bare)
        case .rebase:
            new = try rebase(tip, onto: old, in: bare)
        }
        try sandbox.git(["update-ref", "refs/heads/\(target)", new, old], in: bare)
        // A pull request landed from its ref is merged: an AGit push of its topic no longer updates it.
        let parts = proposal.split(separator: "/")
        if parts.count == 4, parts[0] == "refs", parts[1] == "pull", let number = Int(parts[2]) {
            let file = bare + "/" + Self.mergedFile
            let merged = (try? String(contentsOfFile: file, encoding: .utf8)) ?? ""
            try (merged + "\(number)\n").write(toFile: file, atomically: true, encoding: .utf8)
        }
        return new
    }

    /// The messages of the commits of `tip` that `base` lacks, oldest first, each a list item after a blank line: one
    /// `git log`, each message ended by a NUL (which no commit message holds).
    func squashedMessages(_ tip: String, excluding base: String, in bare: String) throws -> String {
        let listing = try sandbox.git(["log", "--reverse", "--format=%B%x00", tip, "^" + base, "--"], in: bare)
        return listing.split(separator: "\0", omittingEmptySubsequences: false).dropLast().map {
            "\n\n* " + $0.trimmingCharacters(in: .whitespacesAndNewlines)
        }.joined()
    }

    /// The tree of merging `theirs` into `ours` (`merge-tree --write-tree`); a conflict is an error.
    func mergedTree(_ ours: String, _ theirs: String, in bare: String) throws -> String {
        let result = try sandbox.gitResult(["merge-tree", "--write-tree", ours, theirs], in: bare)
        guard result.status == 0, let tree = result.stdout.split(separator: "\n").first else {
            throw SandboxError(description: "the forge cannot merge \(theirs) into \(ours): \(result.stdout)")
        }
        return String(tree)
    }

    /// Replays the commits of `tip` that `base` lacks (merges left out) onto `base`, keeping their messages and
    /// authors, in a throwaway clone; the result is fetched back into `bare` unreferenced.
    func rebase(_ tip: String, onto base: String, in bare: String) throws -> String {
        let clone = sandbox.path("forge-rebase-\(UUID().uuidString.prefix(8))")
        defer { try? FileManager.default.removeItem(atPath: clone) }
        try sandbox.git(["clone", "-q", "--no-checkout", bare, clone])
        try sandbox.git(["checkout", "-q", "--detach", base], in: clone)
        let commits = try sandbox.git(["rev-list", "--reverse", "--no-merges", tip, "^" + base], in: clone)
            .split(separator: "\n").map(String.init)
        for commit in commits {
            // The forge is the committer: every replayed commit is a new one, as on a real forge.
            try sandbox.git(
                Self.committer + ["cherry-pick", "--allow-empty", "--keep-redundant-commits", commit], in: clone)
        }
        let result = try sandbox.git(["rev-parse", "HEAD"], in: clone)
        try sandbox.git(["fetch", "-q", clone, "HEAD:refs/forge/rebased"], in: bare)
        try sandbox.git(["update-ref", "-d", "refs/forge/rebased"], in: bare)
        return result
    }

    /// `path` relative to the sandbox root (the sandbox writes executables by relative path).
    func relative(_ path: String) throws -> String {
        let root = sandbox.root.hasSuffix("/") ? sandbox.root : sandbox.root + "/"
        guard path.hasPrefix(root) else {
            throw SandboxError(description: "\(path) is outside the sandbox \(sandbox.root)")
        }
        return String(path.dropFirst(root.count))
    }
}
