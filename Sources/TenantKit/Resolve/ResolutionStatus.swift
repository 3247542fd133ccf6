import Foundation

/// An unfinished resolution as `tenantctl status` shows it: which repositories are merged, which still have
/// conflicts, and the command that comes next.
public struct ResolutionStatus: Sendable, Equatable, Codable {
    /// One repository of the resolution.
    public struct Repository: Sendable, Equatable, Codable {
        /// `superproject` or the module name.
        public var repository: String
        /// Path relative to the superproject root.
        public var path: String
        /// The tenant branch merged into.
        public var branch: String
        /// `conflicted` (unmerged paths left), `staged` (every conflict staged; `--continue` commits it), `merged`
        /// (the merge is committed), `not started` (the start was interrupted before it).
        public var state: String
        /// Paths still unmerged.
        public var unmerged: [String]
    }

    /// The tenant being resolved.
    public var tenant: String
    /// `starting`, `resolving`, `committed`, `publishing`.
    public var phase: String
    /// When the resolution started.
    public var startedAt: String
    /// The superproject and every module merge.
    public var repositories: [Repository]
    /// What to run next.
    public var next: String
    /// The worktree where the resolution started, when it is another one than the one asked (its commands run
    /// there: `tenantctl -C <worktree> resolve …`).
    public var worktree: String?

    /// `tenantctl resolve`, or `tenantctl -C <worktree> resolve` for a resolution started in another worktree.
    public var command: String {
        worktree.map { "tenantctl -C \(ResolveState.shellWord($0)) resolve" } ?? "tenantctl resolve"
    }

    /// The resolution under way in `workspace`, nil when there is none (read-only).
    public static func inspect(workspace: Workspace, git: Git) throws -> ResolutionStatus? {
        guard let state = try ResolveState.read(commonDirectory: workspace.commonDirectory) else { return nil }
        // A resolution started in another worktree is shown as it stands there, with the commands to run there.
        let elsewhere = state.startedElsewhere(than: workspace)
        let root = elsewhere ? (state.worktree ?? workspace.root) : workspace.root
        let command = elsewhere ? "tenantctl -C \(ResolveState.shellWord(root)) resolve" : "tenantctl resolve"
        var repositories: [Repository] = []
        for merge in [state.superproject] + state.modules {
            let path = merge.path.isEmpty ? root : (root as NSString).appendingPathComponent(merge.path)
            guard try WorkingCopyGit.presence(of: path, git: git) == .repository else { continue }
            let inspected = try RepositoryState.inspect(path: path, git: git, superproject: merge.path.isEmpty)
            let unmerged = inspected.status.entries.filter { $0.kind == .unmerged }.map(\.path)
            let value: String
            if state.phase == .starting && merge.commit == nil && !inspected.operations.contains("merge") {
                value = "not started"
            } else if inspected.operations.contains("merge") {
                value = unmerged.isEmpty ? "staged" : "conflicted"
            } else {
                value = "merged"
            }
            repositories.append(
                Repository(
                    repository: merge.repository, path: merge.path, branch: merge.branch, state: value,
                    unmerged: unmerged))
        }
        let next: String
        switch state.phase {
        case .starting: next = "\(command) --abort"
        case .resolving:
            next =
                repositories.contains { $0.state == "conflicted" }
                ? "resolve the conflicts, git add them, then \(command) --continue"
                : "\(command) --continue"
        case .committed, .publishing: next = "\(command) --continue"
        }
        return ResolutionStatus(
            tenant: state.tenant, phase: state.phase.rawValue, startedAt: state.startedAt, repositories: repositories,
            next: next, worktree: elsewhere ? root : nil)
    }

    /// The lines `status` prints.
    public func render() -> [String] {
        var lines = ["resolving \(tenant) (\(phase), started \(startedAt)):"]
        for repository in repositories {
            var line = "  \(repository.repository): \(repository.state)"
            if !repository.unmerged.isEmpty { line += " (" + repository.unmerged.joined(separator: ", ") + ")" }
            lines.append(line)
        }
        lines.append("  next: \(next)")
        return lines
    }
}
