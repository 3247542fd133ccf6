import Foundation

/// One `resolve`: the workspace lock, the run's journal, then the start of a resolution, its continuation or its
/// abort. The command parses its options and renders the ``ResolveReport``; a ``ResolveError`` or a
/// ``WorkingCopyRefusal`` (nothing changed) is its exit status.
public struct ResolveRun: Sendable {
    /// What resolve is asked.
    public enum Action: Sendable, Equatable {
        /// `resolve <tenant>`: merge the general branch into the tenant's branches, in the working copy.
        case start(tenant: String, acceptMergedBack: [String] = [])
        /// `resolve --continue`: commit the resolved merges, pin, publish.
        case continueResolution
        /// `resolve --abort`: every repository back as before the start.
        case abort
    }

    /// What to do.
    public var action: Action
    /// The words that re-run the command (the journal's arguments).
    public var arguments: [String]
    /// Start: fetch first.
    public var fetch: Bool
    /// Wait for the workspace lock instead of failing fast.
    public var wait: Bool

    public init(action: Action, arguments: [String], fetch: Bool = true, wait: Bool = false) {
        self.action = action
        self.arguments = arguments
        self.fetch = fetch
        self.wait = wait
    }

    /// Runs the action under the lock, journalled. A continuation whose push was refused is returned (its report
    /// says what landed) and its run stays unfinished when something of it landed.
    public func run(workspace: Workspace, git: Git, console: Console?) throws -> ResolveReport {
        let lock = try WorkspaceLock(gitDirectory: workspace.commonDirectory, wait: wait)
        defer { lock.release() }
        return try Transaction.journalled(
            workspace, command: "resolve", arguments: arguments, aborting: action == .abort,
            stopped: { report in
                // A refused push, reported: the run stays unfinished when something of it landed.
                report.action == "continue" && !report.published
                    ? ResolveError(
                        .refused,
                        "a push of the resolution of \(report.tenant) was refused; nothing after it was pushed")
                    : nil
            }
        ) { transaction in
            switch action {
            case .start(let tenant, let acceptMergedBack):
                try ResolveStarter(
                    workspace: workspace, git: git, fetch: fetch, console: console, transaction: transaction,
                    acceptMergedBack: acceptMergedBack
                ).run(tenant: tenant)
            case .continueResolution:
                try ResolveContinuer(workspace: workspace, git: git, console: console, transaction: transaction).run()
            case .abort:
                try ResolveAborter(workspace: workspace, git: git, console: console, transaction: transaction).run()
            }
        }
    }
}
