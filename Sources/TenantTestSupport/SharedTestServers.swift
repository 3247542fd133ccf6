import Foundation
import TenantKit
import Testing

/// The test servers one suite shares: a suite with the `.sharedServers` trait starts at most one smart-HTTP server
/// and one sshd, when its first test asks for it, and stops them when its last test has ended. Every test still
/// serves repositories of its own: ``GitHTTPServer/init(serving:in:user:password:)`` links the test's directory of
/// bare repositories under a name of its own below the shared server's root (its URLs carry that name), and
/// ``GitSSHServer/init(in:)`` authorises a client key of the test's own (ssh URLs are absolute paths anyway). So
/// tests of the suite stay independent and may run in parallel. Outside such a suite each of them starts its own
/// server, as before.
public final class TestServers: Sendable {
    /// The servers of the suite the current test belongs to, if that suite shares them.
    @TaskLocal public static var current: TestServers?

    /// Everything of the servers (configuration, logs, the HTTP root, the ssh keys) lives here.
    let directory: String
    /// The environment the servers run with: no user or system git configuration.
    let environment: [String: String]
    private let started = Locked(Started())

    private struct Started: Sendable {
        var http: GitHTTPServer.Processes?
        var ssh: GitSSHServer.Processes?
        var stopped = false
    }

    init() throws {
        let name = "tenantctl-servers-\(getpid())-\(UUID().uuidString.prefix(8))"
        let url = URL(fileURLWithPath: TestDirectories.base, isDirectory: true).appendingPathComponent(name)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        directory = try GitSandbox.realPath(url.path)
        try "".write(toFile: directory + "/gitconfig", atomically: true, encoding: .utf8)
        let process = ProcessInfo.processInfo.environment
        environment = [
            "PATH": process["PATH"] ?? "/usr/local/bin:/usr/bin:/bin", "HOME": directory,
            "GIT_CONFIG_GLOBAL": directory + "/gitconfig", "GIT_CONFIG_NOSYSTEM": "1", "LC_ALL": "C",
            "TMPDIR": TestDirectories.base,
        ]
    }

    /// The shared HTTP server's processes, started by the first caller.
    func http(user: String, password: String) throws -> GitHTTPServer.Processes {
        try started.withLock { started in
            guard !started.stopped else { throw SandboxError(description: "the suite's servers were stopped") }
            if let running = started.http { return running }
            let root = directory + "/http/root"
            try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
            let processes = try GitHTTPServer.Processes(
                serving: root, directory: directory + "/http", home: directory, environment: environment, user: user,
                password: password)
            started.http = processes
            return processes
        }
    }

    /// The shared sshd's processes, started by the first caller.
    func ssh(in sandbox: GitSandbox) throws -> GitSSHServer.Processes {
        try started.withLock { started in
            guard !started.stopped else { throw SandboxError(description: "the suite's servers were stopped") }
            if let running = started.ssh { return running }
            let processes = try GitSSHServer.Processes(
                directory: directory + "/ssh", environment: environment, sandbox: sandbox)
            started.ssh = processes
            return processes
        }
    }

    /// Stops the servers and removes their directory (kept with `TENANTCTL_KEEP_SANDBOX=1`). Idempotent.
    func stop() {
        let running = started.withLock { started -> Started in
            let running = started
            started = Started(http: nil, ssh: nil, stopped: true)
            return running
        }
        running.http?.stop()
        running.ssh?.stop()
        if ProcessInfo.processInfo.environment["TENANTCTL_KEEP_SANDBOX"] != "1" {
            try? FileManager.default.removeItem(atPath: directory)
        }
    }
}

/// The trait of a suite whose tests share its servers (``TestServers``): once around the whole suite.
public struct SharedTestServers: SuiteTrait, TestScoping {
    public var isRecursive: Bool { false }

    public func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        let servers = try TestServers()
        defer { servers.stop() }
        try await TestServers.$current.withValue(servers) { try await function() }
    }
}

extension Trait where Self == SharedTestServers {
    /// The suite's tests share one smart-HTTP server and one sshd, each started when a test first needs it.
    public static var sharedServers: Self { Self() }
}
