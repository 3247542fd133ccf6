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
    private var running: [ObjectIdentifier: Process] = [:]

    func add(_ process: Process) { lock.withLock { running[ObjectIdentifier(process)] = process } }
    func remove(_ process: Process) { _ = lock.withLock { running.removeValue(forKey: ObjectIdentifier(process)) } }

    /// Sends SIGTERM to every running child (git removes its lock files on SIGTERM).
    public func terminateAll() {
        let processes = lock.withLock { Array(running.values) }
        for process in processes where process.isRunning {
            kill(process.processIdentifier, SIGTERM)
        }
    }

    /// The number of children still running.
    public var count: Int { lock.withLock { running.count } }
}

/// `read(2)`, named so that it does not collide with ``GitProcess/read(count:)``.
private func systemRead(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    read(descriptor, buffer, count)
}

enum ChildProcess {
    /// Ignore SIGPIPE once: a child that exits early must give us EPIPE, not kill us.
    static let ignoreSigpipe: Void = { signal(SIGPIPE, SIG_IGN) }()

    /// Runs a process to completion, writing `input` and reading both output pipes concurrently.
    static func run(executable: String, arguments: [String], environment: [String: String], input: Data?) throws
        -> GitOutput
    {
        _ = ignoreSigpipe
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = environment
        let stdout = Pipe()
        let stderr = Pipe()
        let stdin = input.map { _ in Pipe() }
        process.standardOutput = stdout
        process.standardError = stderr
        process.standardInput = stdin ?? FileHandle.nullDevice
        try process.run()
        ChildProcesses.shared.add(process)
        defer { ChildProcesses.shared.remove(process) }

        let out = LockedData()
        let err = LockedData()
        let outReader = BackgroundWork { out.set(stdout.fileHandleForReading.readDataToEndOfFile()) }
        let errReader = BackgroundWork { err.set(stderr.fileHandleForReading.readDataToEndOfFile()) }
        if let input, let stdin {
            let handle = stdin.fileHandleForWriting
            let writer = BackgroundWork {
                try? handle.write(contentsOf: input)  // EPIPE: git stopped reading; its status tells why
                try? handle.close()
            }
            writer.wait()
        }
        outReader.wait()
        errReader.wait()
        process.waitUntilExit()
        try? stdout.fileHandleForReading.close()
        try? stderr.fileHandleForReading.close()
        let status: Int32 =
            process.terminationReason == .uncaughtSignal ? -process.terminationStatus : process.terminationStatus
        return GitOutput(status: status, stdout: out.value, stderr: String(decoding: err.value, as: UTF8.self))
    }
}

/// A long-lived git process spoken to through its standard input and output
/// (`cat-file --batch`, `update-ref --stdin`, `merge-tree --stdin`).
public final class GitProcess: @unchecked Sendable {
    /// What this process is for, used in error messages.
    public let context: String
    private let process: Process
    private let arguments: [String]
    private let directory: String?
    private let input: FileHandle
    private let outputDescriptor: Int32
    private let outputHandle: FileHandle
    private var buffer: [UInt8] = []
    private var position = 0
    private var atEnd = false
    private let errors = LockedData()
    private let errorReader: BackgroundWork
    private var inputClosed = false
    private var finished: GitOutput?

    init(executable: String, arguments: [String], environment: [String: String], directory: String?, context: String)
        throws
    {
        _ = ChildProcess.ignoreSigpipe
        self.context = context
        self.arguments = arguments
        self.directory = directory
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = environment
        let stdin = Pipe()
        let stdout = Pipe()
        let stderr = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = stderr
        try process.run()
        ChildProcesses.shared.add(process)
        self.process = process
        self.input = stdin.fileHandleForWriting
        self.outputHandle = stdout.fileHandleForReading
        self.outputDescriptor = stdout.fileHandleForReading.fileDescriptor
        let errors = self.errors
        let errorHandle = stderr.fileHandleForReading
        self.errorReader = BackgroundWork { errors.set(errorHandle.readDataToEndOfFile()) }
    }

    deinit {
        if finished == nil {
            if process.isRunning { process.terminate() }
            try? input.close()
            process.waitUntilExit()
            ChildProcesses.shared.remove(process)
        }
        try? outputHandle.close()
    }

    /// Writes bytes to git's standard input.
    public func write(_ data: Data) throws(GitError) {
        do {
            try input.write(contentsOf: data)
        } catch {
            throw failure(detail: "git stopped reading its input")
        }
    }

    /// Writes text to git's standard input.
    public func write(_ text: String) throws(GitError) { try write(Data(text.utf8)) }

    /// Closes git's standard input (git then finishes its work and exits).
    public func closeInput() {
        guard !inputClosed else { return }
        inputClosed = true
        try? input.close()
    }

    private func fill() -> Bool {
        if position > 0 && (position == buffer.count || position > 1 << 20) {
            buffer.removeFirst(position)
            position = 0
        }
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = chunk.withUnsafeMutableBytes { systemRead(outputDescriptor, $0.baseAddress, 65536) }
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
        while !atEnd && fill() {
            rest.append(contentsOf: buffer[position...])
            position = buffer.count
        }
        buffer = []
        position = 0
        process.waitUntilExit()
        errorReader.wait()
        ChildProcesses.shared.remove(process)
        let status: Int32 =
            process.terminationReason == .uncaughtSignal ? -process.terminationStatus : process.terminationStatus
        let output = GitOutput(status: status, stdout: rest, stderr: String(decoding: errors.value, as: UTF8.self))
        finished = output
        guard accepting.contains(status) else { throw error(for: output) }
        return output
    }

    /// Stops the process (used when a transaction must be aborted).
    public func terminate() {
        if process.isRunning { process.terminate() }
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
