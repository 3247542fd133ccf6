import Foundation
import TenantKit

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A server program started by a test (nginx, fcgiwrap, sshd) in the foreground, its output in a log file, stopped
/// with SIGTERM (SIGKILL after 5 s) by ``stop()`` or when released: no daemon outlives its test.
///
/// Started with `posix_spawn` in a process group of its own (``stop()`` signals the group: sshd's sessions,
/// fcgiwrap's CGI children), not with Foundation's `Process`: a daemon closes the descriptors it inherited, which
/// Foundation on Linux takes for the child's exit, and its blocking wait then stalls every other `Process` of the
/// test run.
public final class TestDaemon: Sendable {
    /// The command line, for messages.
    public let command: [String]
    /// Where its standard output and error go.
    public let log: String
    /// Its process id (and process group id); nil once stopped.
    private let pid: Locked<pid_t?>

    /// Starts `executable` with `arguments`; output appended to `log`.
    public init(_ executable: String, _ arguments: [String], environment: [String: String], log: String) throws {
        command = [executable] + arguments
        self.log = log
        Self.closeOnExec()
        let started = PosixSpawn.prepared(
            executable, arguments, environment: environment,
            defaultSignals: [SIGPIPE, SIGINT, SIGTERM, SIGCHLD, SIGHUP], flags: Int32(POSIX_SPAWN_SETPGROUP),
            fileActions: { actions in
                posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
                posix_spawn_file_actions_addopen(&actions, 1, log, O_WRONLY | O_CREAT | O_APPEND, 0o644)
                posix_spawn_file_actions_adddup2(&actions, 1, 2)
            }
        ) { spawn in spawn() }
        switch started {
        case .success(let child): pid = Locked(child)
        case .failure(let failure):
            throw SandboxError(description: "cannot start \(executable): \(failure.reason)")
        }
    }

    deinit { stop() }

    /// Marks every descriptor of the test process above standard error close-on-exec, so that nothing else it has
    /// open reaches a daemon: a pipe another test is reading a process's output from would otherwise stay open in
    /// the daemon, and that test would wait for its end for as long as the daemon runs. (A child's standard
    /// descriptors are set by `dup2`, which leaves them open across `exec`.)
    static func closeOnExec() {
        #if os(Linux)
            guard let names = try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd") else { return }
            for name in names {
                guard let descriptor = Int32(name), descriptor > 2 else { continue }
                let flags = fcntl(descriptor, F_GETFD)
                if flags >= 0 { _ = fcntl(descriptor, F_SETFD, flags | FD_CLOEXEC) }
            }
        #endif
    }

    /// Whether the program is still running.
    public var isRunning: Bool {
        pid.withLock { pid in
            guard let running = pid else { return false }
            var status: Int32 = 0
            if waitpid(running, &status, WNOHANG) == running {
                pid = nil
                return false
            }
            return true
        }
    }

    /// What the program wrote so far.
    public var output: String { (try? String(contentsOfFile: log, encoding: .utf8)) ?? "" }

    /// Stops the program and its process group (SIGTERM, then SIGKILL after 5 s) and reaps it. Idempotent.
    public func stop() {
        pid.withLock { pid in
            guard let running = pid else { return }
            pid = nil
            kill(-running, SIGTERM)
            var status: Int32 = 0
            let deadline = Date().addingTimeInterval(5)
            while waitpid(running, &status, WNOHANG) == 0 {
                if Date() > deadline {
                    kill(-running, SIGKILL)
                    _ = waitpid(running, &status, 0)
                    break
                }
                usleep(20_000)
            }
            // Whatever of the group outlived its leader (a CGI child, an ssh session) goes too.
            kill(-running, SIGKILL)
        }
    }

    /// Waits until something accepts TCP connections on 127.0.0.1:`port`; throws with the log when the program
    /// exited or `seconds` passed first.
    public func waitForPort(_ port: Int, seconds: Double = 10) throws {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if TCPPort.accepts(port) { return }
            guard isRunning else { break }
            usleep(20_000)
        }
        throw SandboxError(
            description: "\(command.joined(separator: " ")) did not listen on 127.0.0.1:\(port): \(output)")
    }

    /// Starts a server on a free port of 127.0.0.1 and waits until it listens there: `start` writes the server's
    /// configuration for the port and starts it. Another program may take the free port first, so up to three ports
    /// are tried (a server that does not listen is stopped); the last error is thrown when none works.
    public static func startListening(_ name: String, _ start: (Int) throws -> TestDaemon) throws -> (
        port: Int, daemon: TestDaemon
    ) {
        var lastError: Error?
        for _ in 0..<3 {
            do {
                let port = try TCPPort.free()
                let daemon = try start(port)
                do {
                    try daemon.waitForPort(port)
                    return (port, daemon)
                } catch {
                    daemon.stop()
                    throw error
                }
            } catch {
                lastError = error
            }
        }
        throw lastError ?? SandboxError(description: "\(name) did not start")
    }

    /// The first of `names` found in `PATH` or the usual sbin directories (server programs live there), or nil.
    public static func find(_ names: [String], path: String? = ProcessInfo.processInfo.environment["PATH"]) -> String? {
        let directories =
            (path ?? "").split(separator: ":").map(String.init) + ["/usr/sbin", "/usr/local/sbin", "/sbin"]
        for name in names {
            for directory in directories where !directory.isEmpty {
                let candidate = "\(directory)/\(name)"
                if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
            }
        }
        return nil
    }
}

/// TCP ports on 127.0.0.1.
public enum TCPPort {
    /// A port nobody listens on now (bound to port 0 and released; a server started right after gets it).
    public static func free() throws -> Int {
        let descriptor = socket(AF_INET, Int32(streamSocketType), 0)
        guard descriptor >= 0 else { throw SandboxError(description: "socket: \(String(cString: strerror(errno)))") }
        defer { close(descriptor) }
        var address = loopback(port: 0)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0 else { throw SandboxError(description: "bind: \(String(cString: strerror(errno)))") }
        return try port(of: descriptor)
    }

    /// Whether a TCP connection to 127.0.0.1:`port` is accepted.
    public static func accepts(_ port: Int) -> Bool {
        let descriptor = socket(AF_INET, Int32(streamSocketType), 0)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        var address = loopback(port: port)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        return connected == 0
    }

    static func loopback(port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        #if canImport(Darwin)
            address.sin_len = UInt8(MemoryLayout<sockaddr_in>.size)
        #endif
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = in_addr_t(UInt32(0x7f00_0001).bigEndian)
        return address
    }

    static func port(of descriptor: Int32) throws -> Int {
        var address = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        guard named == 0 else { throw SandboxError(description: "getsockname: \(String(cString: strerror(errno)))") }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    #if canImport(Darwin)
        static let streamSocketType = SOCK_STREAM
    #else
        static let streamSocketType = Int32(SOCK_STREAM.rawValue)
    #endif
}

/// A TCP server on 127.0.0.1 that accepts every connection and then says nothing (a hung remote), for the network
/// timeout tests: http:// and ssh:// clients both wait forever for its first byte.
public final class SilentServer: Sendable {
    /// The port it listens on.
    public let port: Int
    /// Connections accepted so far.
    public var connections: Int { state.withLock { $0.accepted.count } }

    private struct State {
        var stopped = false
        var accepted: [Int32] = []
    }

    private let listener: Int32
    private let state = Locked(State())
    private let done = DispatchSemaphore(value: 0)

    public init() throws {
        let descriptor = socket(AF_INET, Int32(TCPPort.streamSocketType), 0)
        guard descriptor >= 0 else { throw SandboxError(description: "socket: \(String(cString: strerror(errno)))") }
        var address = TCPPort.loopback(port: 0)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0, listen(descriptor, 16) == 0 else {
            close(descriptor)
            throw SandboxError(description: "bind/listen: \(String(cString: strerror(errno)))")
        }
        listener = descriptor
        port = try TCPPort.port(of: descriptor)
        let state = self.state
        let done = self.done
        Thread.detachNewThread {
            while !state.withLock({ $0.stopped }) {
                var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
                guard poll(&poller, 1, 100) > 0 else { continue }
                let connection = accept(descriptor, nil, nil)
                if connection >= 0 { state.withLock { $0.accepted.append(connection) } }
            }
            done.signal()
        }
    }

    deinit { stop() }

    /// Stops accepting and closes every connection. Idempotent.
    public func stop() {
        let first = state.withLock { state -> Bool in
            guard !state.stopped else { return false }
            state.stopped = true
            return true
        }
        guard first else { return }
        done.wait()
        close(listener)
        state.withLock { state in
            for connection in state.accepted { close(connection) }
        }
    }
}
