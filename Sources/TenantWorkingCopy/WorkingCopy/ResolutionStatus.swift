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

        package init(repository: String, path: String, branch: String, state: String, unmerged: [String]) {
            self.repository = repository
            self.path = path
            self.branch = branch
            self.state = state
            self.unmerged = unmerged
        }
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

    package init(
        tenant: String, phase: String, startedAt: String, repositories: [Repository], next: String,
        worktree: String? = nil
    ) {
        self.tenant = tenant
        self.phase = phase
        self.startedAt = startedAt
        self.repositories = repositories
        self.next = next
        self.worktree = worktree
    }

    /// `tenantctl resolve`, or `tenantctl -C <worktree> resolve` for a resolution started in another worktree.
    public var command: String {
        worktree.map { "tenantctl -C \(ShellWord.quote($0)) resolve" } ?? "tenantctl resolve"
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
