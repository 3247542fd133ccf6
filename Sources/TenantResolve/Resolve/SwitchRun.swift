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
    /// `target` `-` is the tenant this worktree was on before its last switch (``PreviousTenant``).
    public func run(workspace: Workspace, console: Console?) throws -> SwitchReport {
        let target = self.target == PreviousTenant.argument ? try PreviousTenant.read(workspace) : self.target
        let lock = try WorkspaceLock(gitDirectory: workspace.commonDirectory, wait: wait)
        defer { lock.release() }
        let before = try workspace.superproject.headBranch(context: "read the superproject's branch")
        func switched(_ transaction: Transaction?) throws -> SwitchReport {
            let switcher = WorkingCopySwitch(
                workspace: workspace, fetch: fetch, recursive: recursive, console: console,
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
                    throw transaction.fail(error)
                }
                throw error
            }
        }
        if dryRun { return try switched(nil) }
        let report = try Transaction.journalled(
            workspace, command: "switch", arguments: arguments, aborting: true,
            unfinished: { ($0 as? SwitchStoppedError).map { !$0.left.isEmpty } ?? false }, switched)
        if let before, before != report.branch {
            do {
                try PreviousTenant.record(before, in: workspace)
            } catch {
                // The switch is done; only `switch -` lacks its way back.
                console?.warn("could not record \(before) for `tenantctl switch -` (\(error))")
            }
        }
        return report
    }

    /// Whether the switch recorded that it started changing a repository.
    private static func startedAny(_ transaction: Transaction) -> Bool {
        (transaction.current.before ?? []).contains { $0.started == true }
    }
}

/// The branch a worktree's superproject was on before its last switch, for `tenantctl switch -` (as `git switch -`
/// goes back): `<worktree's git dir>/tenantctl/previous-tenant`, written by each switch that changed the branch.
public enum PreviousTenant {
    /// The argument that names it.
    public static let argument = "-"

    /// The file, in the worktree's own git directory (each worktree has its own).
    public static func path(_ workspace: Workspace) -> String {
        (workspace.gitDirectory as NSString).appendingPathComponent("tenantctl/previous-tenant")
    }

    /// The branch recorded; refused when no switch has recorded one in this worktree.
    public static func read(_ workspace: Workspace) throws -> String {
        let path = path(workspace)
        guard FileManager.default.fileExists(atPath: path) else {
            throw SwitchPreviousError(
                "no previous tenant: `tenantctl switch -` goes back to the tenant this worktree was on before its last switch, and it has not switched yet; name one (see: tenantctl tenant list)"
            )
        }
        let text = try String(contentsOfFile: path, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        guard !text.isEmpty, RefName.validateBranch(text) == nil else {
            throw SwitchPreviousError(
                "\(path) does not name a branch; name the tenant to switch to (see: tenantctl tenant list)")
        }
        return text
    }

    /// Records `branch` as the one to go back to.
    public static func record(_ branch: String, in workspace: Workspace) throws {
        let path = path(workspace)
        try FileManager.default.createDirectory(
            atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try Data((branch + "\n").utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
    }
}

/// `tenantctl switch -` with nothing to go back to: refused (exit 1), nothing changed.
public struct SwitchPreviousError: Error, CustomStringConvertible, Sendable {
    public var description: String
    public init(_ description: String) { self.description = description }
}
