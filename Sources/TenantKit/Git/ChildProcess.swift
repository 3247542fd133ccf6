import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A lock-protected byte buffer filled by a reader thread.
final class LockedData: @unchecked Sendable {
    private let lock = NSLock()
    private var data = Data()

    func set(_ value: Data) { lock.withLock { data = value } }
    var value: Data { lock.withLock { data } }
}

/// Runs a thread and lets the caller wait for it.
final class BackgroundWork: @unchecked Sendable {
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

/// The child processes this tool has started and not yet reaped, so that SIGINT/SIGTERM can stop them.
public final class ChildProcesses: @unchecked Sendable {
    /// The process-wide registry.
    public static let shared = ChildProcesses()
    private let lock = NSLock()
    private var running: Set<pid_t> = []

    func add(_ pid: pid_t) { _ = lock.withLock { running.insert(pid) } }
    func remove(_ pid: pid_t) { _ = lock.withLock { running.remove(pid) } }

    /// Sends SIGTERM to every running child (git removes its lock files on SIGTERM).
    public func terminateAll() {
        for pid in lock.withLock({ Array(running) }) { kill(pid, SIGTERM) }
    }

    /// The number of children still running.
    public var count: Int { lock.withLock { running.count } }
}

/// `read(2)` and `write(2)`, named so that they do not collide with methods of the same name.
private func systemRead(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    read(descriptor, buffer, count)
}

private func systemWrite(_ descriptor: Int32, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int {
    write(descriptor, buffer, count)
}

/// A failure to start a process.
struct SpawnError: Error, CustomStringConvertible {
    var description: String
}

/// A started child process: its pid and the parent's ends of its three pipes.
///
/// Started with `posix_spawn` and reaped with a blocking `waitpid` (Foundation's `Process.waitUntilExit` polls a
/// run loop, which cost ~35 ms per git call). The child gets default handlers for SIGPIPE, SIGINT and SIGTERM
/// (this process ignores them) and an empty signal mask; every pipe end is close-on-exec in the parent.
struct SpawnedProcess {
    let pid: pid_t
    let stdin: Int32
    let stdout: Int32
    let stderr: Int32

    /// Ignore SIGPIPE once: a child that exits early must give us EPIPE, not kill us.
    static let ignoreSigpipe: Void = { signal(SIGPIPE, SIG_IGN) }()

    static func pipePair() throws -> (read: Int32, write: Int32) {
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else { throw SpawnError(description: "pipe: \(String(cString: strerror(errno)))") }
        // Close-on-exec in the parent: only the dup2'ed copies reach the child (a concurrent spawn in another
        // thread may inherit them for the instant between pipe and fcntl; its exec then closes them).
        _ = fcntl(fds[0], F_SETFD, FD_CLOEXEC)
        _ = fcntl(fds[1], F_SETFD, FD_CLOEXEC)
        return (fds[0], fds[1])
    }

    static func spawn(executable: String, arguments: [String], environment: [String: String]) throws -> SpawnedProcess {
        _ = ignoreSigpipe
        let input = try pipePair()
        let output = try pipePair()
        let errors = try pipePair()
        defer {
            close(input.read)
            close(output.write)
            close(errors.write)
        }
        #if canImport(Darwin)
            var actions: posix_spawn_file_actions_t?
            var attributes: posix_spawnattr_t?
        #else
            var actions = posix_spawn_file_actions_t()
            var attributes = posix_spawnattr_t()
        #endif
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, input.read, 0)
        posix_spawn_file_actions_adddup2(&actions, output.write, 1)
        posix_spawn_file_actions_adddup2(&actions, errors.write, 2)
        closeInheritedDescriptors(&actions)
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signalNumber in [SIGPIPE, SIGINT, SIGTERM, SIGCHLD] { sigaddset(&defaults, signalNumber) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        var empty = sigset_t()
        sigemptyset(&empty)
        posix_spawnattr_setsigmask(&attributes, &empty)
        #if canImport(Darwin)
            // Apple's extension: every descriptor not named in the file actions is closed in the child.
            posix_spawnattr_setflags(
                &attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_CLOEXEC_DEFAULT))
        #else
            posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))
        #endif

        let argv = ([executable] + arguments).map { strdup($0) }
        let envp = environment.map { strdup("\($0.key)=\($0.value)") }
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var pid: pid_t = 0
        let result = (argv + [nil]).withUnsafeBufferPointer { argvBuffer -> Int32 in
            (envp + [nil]).withUnsafeBufferPointer { envpBuffer -> Int32 in
                guard let argvBase = argvBuffer.baseAddress, let envpBase = envpBuffer.baseAddress else {
                    return EINVAL
                }
                return posix_spawn(&pid, executable, &actions, &attributes, argvBase, envpBase)
            }
        }
        guard result == 0 else {
            close(input.write)
            close(output.read)
            close(errors.read)
            throw SpawnError(description: "\(executable): \(String(cString: strerror(result)))")
        }
        ChildProcesses.shared.add(pid)
        return SpawnedProcess(pid: pid, stdin: input.write, stdout: output.read, stderr: errors.read)
    }

    #if canImport(Glibc)
        private typealias AddCloseFrom =
            @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32)
            -> Int32
        /// glibc 2.34+'s `posix_spawn_file_actions_addclosefrom_np`, looked up at run time (older glibc lacks it).
        private static let addCloseFrom: AddCloseFrom? = {
            guard let handle = dlopen(nil, RTLD_NOW),
                let symbol = dlsym(handle, "posix_spawn_file_actions_addclosefrom_np")
            else { return nil }
            return unsafeBitCast(symbol, to: AddCloseFrom.self)
        }()

        /// Only 0, 1 and 2 reach the child: a descriptor this process inherited without close-on-exec (a parent's
        /// pipe or socket) must not be held open by git, or by what git leaves running, after tenantctl exits.
        static func closeInheritedDescriptors(_ actions: inout posix_spawn_file_actions_t) {
            if let addCloseFrom {
                _ = addCloseFrom(&actions, 3)
                return
            }
            let open = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
            for descriptor in open.compactMap({ Int32($0) }) where descriptor > 2 {
                posix_spawn_file_actions_addclose(&actions, descriptor)
            }
        }
    #else
        static func closeInheritedDescriptors(_ actions: inout posix_spawn_file_actions_t?) {}
    #endif

    /// Waits for the child and returns its exit status (negative: killed by that signal).
    func wait() -> Int32 {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 {
            if errno != EINTR {
                ChildProcesses.shared.remove(pid)
                return -SIGKILL
            }
        }
        ChildProcesses.shared.remove(pid)
        let signal = status & 0x7f
        return signal == 0 ? (status >> 8) & 0xff : -signal
    }

    /// Reads a descriptor to its end, then closes it.
    static func readAll(_ descriptor: Int32) -> Data {
        var data = Data()
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = chunk.withUnsafeMutableBytes { systemRead(descriptor, $0.baseAddress, 65536) }
            if count > 0 {
                data.append(contentsOf: chunk[0..<count])
            } else if count < 0 && errno == EINTR {
                continue
            } else {
                break
            }
        }
        close(descriptor)
        return data
    }

    /// Writes all bytes (stops quietly at EPIPE: the child stopped reading; its status tells why).
    static func writeAll(_ data: Data, to descriptor: Int32) -> Bool {
        data.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let written = systemWrite(descriptor, raw.baseAddress?.advanced(by: offset), raw.count - offset)
                if written > 0 {
                    offset += written
                } else if written < 0 && errno == EINTR {
                    continue
                } else {
                    return false
                }
            }
            return true
        }
    }
}

/// Runs any program to completion: the argument vector as given, `input` written while both output pipes are
/// read concurrently. Public for the test support's plain-git helpers.
public enum Subprocess {
    /// Runs `executable` (an absolute path) and returns its status, stdout and stderr.
    public static func run(executable: String, arguments: [String], environment: [String: String], input: Data?)
        throws -> GitOutput
    {
        try ChildProcess.run(executable: executable, arguments: arguments, environment: environment, input: input)
    }
}

enum ChildProcess {
    /// Runs a process to completion, writing `input` and reading both output pipes concurrently.
    static func run(executable: String, arguments: [String], environment: [String: String], input: Data?) throws
        -> GitOutput
    {
        let child = try SpawnedProcess.spawn(executable: executable, arguments: arguments, environment: environment)
        let err = LockedData()
        let errReader = BackgroundWork { err.set(SpawnedProcess.readAll(child.stderr)) }
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
        return GitOutput(status: status, stdout: out, stderr: String(decoding: err.value, as: UTF8.self))
    }
}

/// A long-lived git process spoken to through its standard input and output
/// (`cat-file --batch`, `update-ref --stdin`, `merge-tree --stdin`).
public final class GitProcess: @unchecked Sendable {
    /// What this process is for, used in error messages.
    public let context: String
    private let child: SpawnedProcess
    private let arguments: [String]
    private let directory: String?
    private var buffer: [UInt8] = []
    private var position = 0
    private var atEnd = false
    private let errors = LockedData()
    private let errorReader: BackgroundWork
    private var inputClosed = false
    private var outputClosed = false
    private var finished: GitOutput?

    init(executable: String, arguments: [String], environment: [String: String], directory: String?, context: String)
        throws
    {
        self.context = context
        self.arguments = arguments
        self.directory = directory
        let child = try SpawnedProcess.spawn(executable: executable, arguments: arguments, environment: environment)
        self.child = child
        let errors = self.errors
        self.errorReader = BackgroundWork { errors.set(SpawnedProcess.readAll(child.stderr)) }
    }

    deinit {
        if finished == nil {
            kill(child.pid, SIGTERM)
            closeInput()
            _ = child.wait()
            errorReader.wait()
        }
        if !outputClosed { close(child.stdout) }
    }

    /// Writes bytes to git's standard input.
    public func write(_ data: Data) throws(GitError) {
        guard !inputClosed, SpawnedProcess.writeAll(data, to: child.stdin) else {
            throw failure(detail: "git stopped reading its input")
        }
    }

    /// Writes text to git's standard input.
    public func write(_ text: String) throws(GitError) { try write(Data(text.utf8)) }

    /// Closes git's standard input (git then finishes its work and exits).
    public func closeInput() {
        guard !inputClosed else { return }
        inputClosed = true
        close(child.stdin)
    }

    private func fill() -> Bool {
        guard !outputClosed else { return false }
        if position > 0 && (position == buffer.count || position > 1 << 20) {
            buffer.removeFirst(position)
            position = 0
        }
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = chunk.withUnsafeMutableBytes { systemRead(child.stdout, $0.baseAddress, 65536) }
            if count > 0 {
                buffer.append(contentsOf: chunk[0..<count])
                return true
            }
            if count < 0 && errno == EINTR { continue }
            atEnd = true
            return false
        }
    }

    /// Reads up to and without the next `delimiter`; nil when the output ended first.
    public func read(until delimiter: UInt8) -> [UInt8]? {
        var scanned = 0
        while true {
            let start = position + scanned
            if start < buffer.count, let index = buffer[start...].firstIndex(of: delimiter) {
                let result = Array(buffer[position..<index])
                position = index + 1
                return result
            }
            scanned = buffer.count - position
            if atEnd || !fill() { return nil }
        }
    }

    /// Reads one line (without its LF); nil at the end of the output.
    public func readLine() -> String? {
        read(until: UInt8(ascii: "\n")).map { String(decoding: $0, as: UTF8.self) }
    }

    /// Reads exactly `count` bytes; nil when the output ended first.
    public func read(count: Int) -> [UInt8]? {
        while buffer.count - position < count {
            if atEnd || !fill() { return nil }
        }
        let result = Array(buffer[position..<(position + count)])
        position += count
        return result
    }

    /// Waits for git to exit; returns its output, or throws unless the status is accepted.
    @discardableResult
    public func finish(accepting: Set<Int32> = [0]) throws(GitError) -> GitOutput {
        closeInput()
        if let finished {
            guard accepting.contains(finished.status) else { throw error(for: finished) }
            return finished
        }
        var rest = Data(buffer[position...])
        position = buffer.count
        while !atEnd && fill() {
            rest.append(contentsOf: buffer[position...])
            position = buffer.count
        }
        buffer = []
        position = 0
        close(child.stdout)
        outputClosed = true
        let status = child.wait()
        errorReader.wait()
        let output = GitOutput(status: status, stdout: rest, stderr: String(decoding: errors.value, as: UTF8.self))
        finished = output
        guard accepting.contains(status) else { throw error(for: output) }
        return output
    }

    /// Stops the process (used when a transaction must be aborted).
    public func terminate() {
        if finished == nil { kill(child.pid, SIGTERM) }
        _ = try? finish(accepting: [])
    }

    private func error(for output: GitOutput) -> GitError {
        GitError(
            context: context,
            kind: output.status < 0 ? .killed(signal: -output.status) : .failed(status: output.status),
            command: ["git"] + arguments, directory: directory, stderr: output.stderr)
    }

    /// The error to throw when git's answer was missing or malformed: waits for git and includes its stderr.
    public func failure(detail: String) -> GitError {
        closeInput()
        let output = (try? finish(accepting: [])) ?? finished
        if let output, output.status != 0 {
            return error(for: output)
        }
        return GitError(
            context: context, kind: .unparseableOutput(detail: detail), command: ["git"] + arguments,
            directory: directory, stderr: output?.stderr ?? "")
    }
}
