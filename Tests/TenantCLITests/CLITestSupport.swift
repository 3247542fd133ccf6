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
    /// Runs `tenantctl <arguments>` in-process (through `Tenantctl.run(arguments:environment:)`).
    func tenantctl(_ arguments: [String], in directory: String? = nil, environment extra: [String: String] = [:])
        -> CLIResult
    {
        let out = BufferOutputSink()
        let err = BufferOutputSink()
        let environment = CommandEnvironment(
            variables: self.environment.merging(extra) { $1 }, currentDirectory: directory ?? root, stdout: out,
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
            extraEnvironment: extra)
        return CLIResult(status: result.status, stdout: result.stdout, stderr: result.stderr)
    }
}
