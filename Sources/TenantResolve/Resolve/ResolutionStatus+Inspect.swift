import Foundation

extension ResolutionStatus {
    /// The resolution under way in `workspace`, nil when there is none (read-only).
    public static func inspect(workspace: Workspace) throws -> ResolutionStatus? {
        guard let state = try ResolveState.read(commonDirectory: workspace.commonDirectory) else { return nil }
        // A resolution started in another worktree is shown as it stands there, with the commands to run there.
        let elsewhere = state.startedElsewhere(than: workspace)
        let root = elsewhere ? (state.worktree ?? workspace.root) : workspace.root
        let command = elsewhere ? "tenantctl -C \(ResolveState.shellWord(root)) resolve" : "tenantctl resolve"
        var repositories: [Repository] = []
        // What `--continue` would refuse, found by the same checks, so that the next step is one it accepts.
        var problems: [String] = []
        for merge in [state.superproject] + state.modules {
            let path = merge.path.isEmpty ? root : (root as NSString).appendingPathComponent(merge.path)
            let repository = workspace.superproject.repository(at: path)
            guard try CheckoutPresence.of(repository) == .repository else { continue }
            let inspected = try RepositoryState.inspect(repository, superproject: merge.path.isEmpty)
            if state.phase == .resolving {
                problems += try ResolveContinuer.problems(
                    of: merge, state: inspected, in: repository, superproject: merge.path.isEmpty)
            }
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
            if repositories.contains(where: { $0.state == "conflicted" }) {
                next = "resolve the conflicts, git add them, then \(command) --continue"
            } else if !problems.isEmpty {
                next = "fix first: " + problems.joined(separator: "; ") + "; then \(command) --continue"
            } else {
                next = "\(command) --continue"
            }
        case .committed, .publishing: next = "\(command) --continue"
        }
        return ResolutionStatus(
            tenant: state.tenant, phase: state.phase.rawValue, startedAt: state.startedAt, repositories: repositories,
            next: next, worktree: elsewhere ? root : nil)
    }
}
