import Foundation
import TenantCLI
import TenantKit
import TenantTestSupport
import Testing

/// The result of running tenantctl in-process.
struct CLIResult: Sendable {
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
    /// stdout counts as a terminal (of `COLUMNS` columns, without colour unless the test asks for it). After a
    /// switch that exits 0, plain `git status` must work in every repository it can have touched
    /// (``PlainGitAfterSwitch``).
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
        CommandLog.record(arguments, status: status)
        PlainGitAfterSwitch.check(arguments, status: status, in: directory ?? root, sandbox: self)
        return CLIResult(status: status, stdout: out.text, stderr: err.text)
    }

    /// `tenantctl runs --json` in `workspace`, decoded: the runs, oldest first.
    func runs(in workspace: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> [[String: Any]] {
        let result = tenantctl(["runs", "--json"], in: workspace)
        try #require(result.status == 0, "\(result.stderr)", sourceLocation: sourceLocation)
        let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        return try #require(object?["runs"] as? [[String: Any]], "\(result.stdout)", sourceLocation: sourceLocation)
    }

    /// The last run of `command` (its words: `tenant add`) in `runs --json`, in `workspace`.
    func lastRun(_ command: String, in workspace: String, sourceLocation: SourceLocation = #_sourceLocation) throws
        -> [String: Any]
    {
        let runs = try runs(in: workspace, sourceLocation: sourceLocation)
        return try #require(runs.last(command: command), "no \(command) run: \(runs)", sourceLocation: sourceLocation)
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
        CommandLog.record(arguments, status: result.status)
        PlainGitAfterSwitch.check(arguments, status: result.status, in: directory ?? root, sandbox: self)
        return CLIResult(status: result.status, stdout: result.stdout, stderr: result.stderr)
    }
}

/// With `TENANTCTL_COMMAND_LOG=<file>`, every tenantctl run of a test appends one line to the file: the test, the
/// exit status and the arguments, tab-separated. `scripts/fast-set-commands` reads it to list which tests run each
/// command end to end.
enum CommandLog {
    static let path = ProcessInfo.processInfo.environment["TENANTCTL_COMMAND_LOG"]

    static func record(_ arguments: [String], status: Int32) {
        guard let path, let test = Test.current else { return }
        let words = arguments.map {
            $0.replacingOccurrences(of: "\t", with: " ").replacingOccurrences(of: "\n", with: " ")
        }
        let line = ([String(describing: test.id), String(status)] + words).joined(separator: "\t") + "\n"
        let descriptor = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { return }
        let bytes = Array(line.utf8)
        // One write of a line opened for appending: lines of parallel tests do not interleave.
        _ = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, bytes.count) }
        close(descriptor)
    }
}

extension [[String: Any]] {
    /// The last of these runs (`runs --json`) of `command` (its words: `tenant add`).
    func last(command: String) -> [String: Any]? { last { $0["command"] as? String == command } }
}
