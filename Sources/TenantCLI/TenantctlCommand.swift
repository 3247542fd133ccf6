import ArgumentParser
import Foundation
import TenantKit

/// A tenantctl subcommand: runs in an injected ``CommandContext`` so tests can run it in-process.
public protocol TenantctlCommand: ParsableCommand {
    /// The options every command has.
    var global: GlobalOptions { get }
    /// Whether a report taller than the terminal goes through the pager (``PagedOutput``); false unless a command
    /// says so.
    var pagesOutput: Bool { get }
    /// Does the work; returns the exit status.
    func run(context: CommandContext) throws -> ExitStatus
}

extension TenantctlCommand {
    public var pagesOutput: Bool { false }

    public mutating func run() throws {
        let status = Tenantctl.execute(self, environment: .process())
        if status != 0 { throw ExitCode(status) }
    }
}
