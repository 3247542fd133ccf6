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
    /// Tests read whole table cells: stdout is no terminal, so tables are as wide as they need; should a test run
    /// as a terminal, it is a wide one unless the test sets `COLUMNS` itself (OutputConventionTests checks that
    /// tables fit 60, 80 and 200 columns).
    static let wideTerminal = ["COLUMNS": "250"]

    /// Runs `tenantctl <arguments>` in-process (through `Tenantctl.run(arguments:environment:)`). With `terminal`
    /// stdout counts as a terminal (of `COLUMNS` columns, without colour unless the test asks for it).
    func tenantctl(
        _ arguments: [String], in directory: String? = nil, environment extra: [String: String] = [:],
        terminal: Bool = false
    )
        -> CLIResult
    {
        let out = BufferOutputSink()
        let err = BufferOutputSink()
        let base = terminal ? Self.wideTerminal.merging(["NO_COLOR": "1"]) { $1 } : Self.wideTerminal
        let environment = CommandEnvironment(
            variables: base.merging(self.environment) { $1 }.merging(extra) { $1 },
            currentDirectory: directory ?? root, stdout: out,
            stderr: err, stdoutIsTerminal: terminal)
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
