import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Runs a thread and lets the caller wait for it (a pipe reader or writer next to the caller's own reads).
struct BackgroundWork: Sendable {
    private let done = DispatchSemaphore(value: 0)

    init(_ body: @escaping @Sendable () -> Void) {
        let done = self.done
        let thread = Thread {
            body()
            done.signal()
        }
        thread.stackSize = 256 * 1024
        thread.start()
    }

    func wait() { done.wait() }
}

/// Runs any program to completion: the argument vector as given, `input` written while both output pipes are
/// read concurrently. The child registers with `cancellator` (the process-wide one unless a test passes its own).
public enum ExternalProgram {
    /// A process that could not be started.
    public struct NotStarted: Error, Sendable, CustomStringConvertible {
        /// Why.
        public var description: String
        /// True when it was refused because the run was interrupted.
        public var cancelled: Bool
    }

    /// Runs `executable` (an absolute path) and returns its status, stdout and stderr.
    public static func run(
        executable: String, arguments: [String], environment: [String: String], input: Data?,
        cancellator: Cancellator = .shared
    ) throws(NotStarted) -> GitOutput {
        do {
            return try ChildProcess.run(
                executable: executable, arguments: arguments, environment: environment, input: input,
                cancellator: cancellator)
        } catch {
            if case .cancelled = error { throw NotStarted(description: error.description, cancelled: true) }
            throw NotStarted(description: error.description, cancelled: false)
        }
    }
}

/// Runs a process to completion (the runner behind ``Git/run(_:in:input:context:accepting:)``).
enum ChildProcess {
    /// Seconds between SIGTERM and SIGKILL when a time limit ends a process.
    static let killGrace: Double = 2

    /// Runs a process to completion, writing `input` and reading both output pipes concurrently.
    static func run(
        executable: String, arguments: [String], environment: [String: String], input: Data?,
        cancellator: Cancellator = .shared
    ) throws(SpawnError) -> GitOutput {
        try run(
            executable: executable, arguments: arguments, environment: environment, input: input,
            cancellator: cancellator, timeLimit: nil, newSession: false
        ).output
    }

    /// Runs a process to completion. `newSession`: the process runs in a session and process group of its own (no
    /// controlling terminal) and is signalled as a group. `timeLimit` (seconds): when it passes, the process (its
    /// group) gets SIGTERM, then SIGKILL after ``killGrace`` seconds; `timedOut` tells whether the limit ended it.
    static func run(
        executable: String, arguments: [String], environment: [String: String], input: Data?,
        cancellator: Cancellator = .shared, timeLimit: Double?, newSession: Bool
    ) throws(SpawnError) -> (output: GitOutput, timedOut: Bool) {
        let child = try SpawnedProcess.spawn(
            executable: executable, arguments: arguments, environment: environment, cancellator: cancellator,
            newSession: newSession)
        let finished = DispatchSemaphore(value: 0)
        let timedOut = Locked(false)
        var watchdog: BackgroundWork?
        if let timeLimit, timeLimit.isFinite {
            watchdog = BackgroundWork {
                guard finished.wait(timeout: .now() + min(max(timeLimit, 0), 1e9)) == .timedOut else { return }
                timedOut.withLock { $0 = true }
                cancellator.signal(child.pid, SIGTERM)
                guard finished.wait(timeout: .now() + killGrace) == .timedOut else { return }
                cancellator.signal(child.pid, SIGKILL)
                finished.wait()
            }
        }
        let err = Locked(Data())
        let errReader = BackgroundWork {
            let data = SpawnedProcess.readAll(child.stderr)
            err.withLock { $0 = data }
        }
        var writer: BackgroundWork?
        if let input, !input.isEmpty {
            writer = BackgroundWork {
                _ = SpawnedProcess.writeAll(input, to: child.stdin)
                close(child.stdin)
            }
        } else {
            close(child.stdin)
        }
        let out = SpawnedProcess.readAll(child.stdout)
        writer?.wait()
        errReader.wait()
        let status = child.wait()
        finished.signal()
        watchdog?.wait()
        let output = GitOutput(status: status, stdout: out, stderr: String(decoding: err.current, as: UTF8.self))
        return (output, timedOut.current)
    }
}
