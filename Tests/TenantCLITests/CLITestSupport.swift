import Foundation
import TenantCLI
import TenantKit
import TenantTestSupport
import Testing

/// The result of running tenantctl in-process.
struct CLIResult {
    var status: Int32
    var stdout: String
    var stderr: String
}

extension GitSandbox {
    /// Tests read whole table cells: tables are as wide as they need (`COLUMNS`), unless a test sets `COLUMNS`
    /// itself (OutputConventionTests checks that tables fit 60 and 200 columns).
    static let wideTerminal = ["COLUMNS": "250"]

    /// Runs `tenantctl <arguments>` in-process (through `Tenantctl.run(arguments:environment:)`).
    func tenantctl(_ arguments: [String], in directory: String? = nil, environment extra: [String: String] = [:])
        -> CLIResult
    {
        let out = BufferOutputSink()
        let err = BufferOutputSink()
        let environment = CommandEnvironment(
            variables: Self.wideTerminal.merging(self.environment) { $1 }.merging(extra) { $1 },
            currentDirectory: directory ?? root, stdout: out,
            stderr: err)
        let status = Tenantctl.run(arguments: arguments, environment: environment)
        return CLIResult(status: status, stdout: out.text, stderr: err.text)
    }

    /// Runs the built tenantctl executable as a separate process.
    func tenantctlProcess(_ arguments: [String], in directory: String? = nil, environment extra: [String: String] = [:])
        throws -> CLIResult
    {
        let binary = try #require(TenantctlBinary.path(), "the tenantctl executable is not built")
        let result = try run(
            "/usr/bin/env",
            ["sh", "-c", "cd \"$1\" && shift && exec \"$@\"", "sh", directory ?? root, binary] + arguments,
            extraEnvironment: Self.wideTerminal.merging(extra) { $1 })
        return CLIResult(status: result.status, stdout: result.stdout, stderr: result.stderr)
    }
}
