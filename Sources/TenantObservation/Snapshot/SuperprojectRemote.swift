import Foundation

/// The superproject's own remote (`--remote`, default `origin`).
///
/// tenantctl reads the remote's branches from its own ref namespace, `refs/tenantctl/remotes/<remote>/`, filled by
/// ``fetch`` with tenantctl's own refspec — never from `refs/remotes/<remote>/`, whose content depends on how the
/// clone was made (a single-branch clone, GitHub's `fetch --depth=1` of one ref, GitLab's one-branch refspec).
/// A shallow clone is made complete by the first fetch (`--unshallow`), so ahead/behind and merge bases are those of
/// a full clone. Why this and not a private bare mirror of the superproject: docs/DESIGN.md, "The superproject's
/// remote branches".
public enum SuperprojectRemote {
    /// Where tenantctl keeps the superproject remote's branches: `refs/tenantctl/remotes/<remote>/`.
    public static func refPrefix(_ workspace: Workspace) -> String {
        workspace.fetchedRefPrefix
    }

    /// Fetches every branch of the remote into ``refPrefix(_:)`` (`+refs/heads/*`, `--prune`), with the complete
    /// history (`--unshallow` when the clone is shallow), whatever the clone's configured refspec or depth. Never
    /// touches local branches, the user's remote-tracking refs (`--refmap=`), tags (`--no-tags`), the working tree
    /// or the submodules (`--no-recurse-submodules`, so a pin missing from a module remote does not fail the fetch).
    /// `remoteChecked`: the caller has already found the remote configured (saves a git process).
    public static func fetch(_ workspace: Workspace, remoteChecked: Bool = false) throws {
        if !remoteChecked { try requireRemote(workspace) }
        try workspace.superproject.fetchBranches(
            of: workspace.remoteName, into: refPrefix(workspace), unshallow: try isShallow(workspace),
            context: "fetch the superproject from \(workspace.remoteName)")
    }

    /// The remote's branches as last fetched (branch name → commit); empty before the first ``fetch``.
    public static func branches(_ workspace: Workspace) throws -> [String: String] {
        try workspace.superproject.branches(under: refPrefix(workspace), what: "the superproject")
    }

    /// Where a push of the superproject to its remote is written down (``PushTracking``): tenantctl's copy of the
    /// remote's branches, which `status` compares with. Nothing while tenantctl has fetched nothing yet (status then
    /// reads the clone's own `refs/remotes/…`, which `git push` updates itself): one recorded branch alone would
    /// make every other branch look deleted on the remote.
    public static func pushTracking(_ workspace: Workspace) throws -> [PushTracking] {
        try branches(workspace).isEmpty
            ? [] : [PushTracking(repository: workspace.root, prefix: refPrefix(workspace))]
    }

    /// ``pushTracking(_:)-(Workspace)`` for a run whose snapshot already read the fetched branches (no git call).
    public static func pushTracking(_ snapshot: Snapshot) -> [PushTracking] {
        snapshot.branches.isEmpty ? [] : [PushTracking(repository: snapshot.workspace.root, prefix: snapshot.refPrefix)]
    }

    /// Whether the repository is a shallow clone: its common git directory has a `shallow` file — what
    /// `git rev-parse --is-shallow-repository` checks, without a process.
    static func isShallow(_ workspace: Workspace) throws -> Bool {
        FileManager.default.fileExists(
            atPath: (workspace.commonDirectory as NSString).appendingPathComponent("shallow"))
    }

    /// Throws when the remote is not configured, naming the remotes that are.
    static func requireRemote(_ workspace: Workspace) throws {
        guard try originURL(workspace) == nil else { return }
        let remotes = try workspace.superproject.remoteNames(
            context: "list the superproject's remotes")
        throw SnapshotError(
            "the superproject at \(workspace.root) has no remote '\(workspace.remoteName)'"
                + (remotes.isEmpty
                    ? "" : " (its remotes: \(remotes.joined(separator: ", ")); choose one with --remote <name>)"))
    }

    /// The configured URL of the remote (the base of relative module URLs); nil when there is no such remote.
    public static func originURL(_ workspace: Workspace) throws -> String? {
        try workspace.superproject.configValue(
            "remote.\(workspace.remoteName).url",
            context: "read the URL of the superproject's remote \(workspace.remoteName)")
    }
}
