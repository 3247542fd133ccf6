import Foundation

/// One `switch`: the workspace lock, the run's journal (not for a dry run), the refusal while a resolution is in
/// progress, then ``WorkingCopySwitch``. The command parses its options and renders the ``SwitchReport``; a
/// ``WorkingCopyRefusal`` (nothing changed) is its exit status 1.
public struct SwitchRun: Sendable {
    /// The tenant (id or branch), or the general branch.
    public var target: String
    /// Print the plan, change nothing (and journal nothing).
    public var dryRun: Bool
    /// Fetch the superproject first.
    public var fetch: Bool
    /// Initialise and update the modules' own submodules.
    public var recursive: Bool
    /// Wait for the workspace lock instead of failing fast.
    public var wait: Bool
    /// The words that re-run the command (the journal's arguments).
    public var arguments: [String]

    public init(
        target: String, dryRun: Bool = false, fetch: Bool = true, recursive: Bool = true, wait: Bool = false,
        arguments: [String]
    ) {
        self.target = target
        self.dryRun = dryRun
        self.fetch = fetch
        self.recursive = recursive
        self.wait = wait
        self.arguments = arguments
    }

    /// Switches `workspace` under its lock. A stopped switch this one goes on from ends aborted (this run puts back
    /// what it moved); a switch stopped with repositories left stays unfinished for its re-run.
    public func run(workspace: Workspace, git: Git, console: Console?) throws -> SwitchReport {
        let lock = try WorkspaceLock(gitDirectory: workspace.commonDirectory, wait: wait)
        defer { lock.release() }
        func switched(_ transaction: Transaction?) throws -> SwitchReport {
            let switcher = WorkingCopySwitch(
                workspace: workspace, git: git, fetch: fetch, recursive: recursive, console: console,
                transaction: transaction)
            try switcher.refuseDuringResolution(target: target)
            do {
                return try switcher.run(target: target, dryRun: dryRun)
            } catch {
                // Interrupted with nothing left changed (put back before the exit, or stopped before the first
                // change): the run ends failed and blocks nothing; the re-run is a plain switch.
                if let transaction, Cancellator.shared.isCancelled,
                    (error as? SwitchStoppedError).map({ $0.left.isEmpty }) ?? !Self.startedAny(transaction)
                {
                    transaction.fail(error)
                }
                throw error
            }
        }
        if dryRun { return try switched(nil) }
        return try Transaction.journalled(
            workspace, command: "switch", arguments: arguments, aborting: true,
            unfinished: { ($0 as? SwitchStoppedError).map { !$0.left.isEmpty } ?? false }, switched)
    }

    /// Whether the switch recorded that it started changing a repository.
    private static func startedAny(_ transaction: Transaction) -> Bool {
        (transaction.current.before ?? []).contains { $0.started == true }
    }
}
