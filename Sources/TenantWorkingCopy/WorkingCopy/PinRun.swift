import Foundation

/// One `pin`: the workspace lock, the run's journal, then ``WorkingCopyPin``. The command parses its options and
/// renders the ``PinReport``; a ``WorkingCopyRefusal`` (nothing changed) is its exit status 1.
public struct PinRun: Sendable {
    /// The modules to pin; all when empty.
    public var modules: [String]
    /// Push the module branches, then the superproject branch.
    public var push: Bool
    /// With `push` from a tenant view: a module's shared general branch may be pushed.
    public var toGeneral: Bool
    /// Fetch the superproject first.
    public var fetch: Bool
    /// Wait for the workspace lock instead of failing fast.
    public var wait: Bool
    /// The words that re-run the command (the journal's arguments).
    public var arguments: [String]

    public init(
        modules: [String] = [], push: Bool = false, toGeneral: Bool = false, fetch: Bool = true, wait: Bool = false,
        arguments: [String]
    ) {
        self.modules = modules
        self.push = push
        self.toGeneral = toGeneral
        self.fetch = fetch
        self.wait = wait
        self.arguments = arguments
    }

    /// Pins in `workspace` under its lock, journalled.
    public func run(workspace: Workspace, console: Console?) throws -> PinReport {
        let lock = try WorkspaceLock(gitDirectory: workspace.commonDirectory, wait: wait)
        defer { lock.release() }
        return try Transaction.journalled(workspace, command: "pin", arguments: arguments) { transaction in
            try WorkingCopyPin(
                workspace: workspace, fetch: fetch, push: push, toGeneral: toGeneral, console: console,
                transaction: transaction
            ).run(modules: modules)
        }
    }
}
