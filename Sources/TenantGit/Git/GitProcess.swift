import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A long-lived git process spoken to through its standard input and output
/// (`cat-file --batch`, `update-ref --stdin`, `merge-tree --stdin`).
///
/// Sendable because every method holds the process's lock while it reads or changes the buffer and the pipes:
/// two threads never interleave inside one read or one write. A request/response exchange that spans several calls
/// needs the caller's own serialisation (``CatFileBatch`` holds its lock for a whole exchange).
public final class GitProcess: Sendable {
    /// What this process is for, used in error messages.
    public let context: String
    private let child: SpawnedProcess
    private let arguments: [String]
    private let directory: String?
    private let errors = Locked(Data())
    private let errorReader: BackgroundWork
    private let state = Locked(State())

    /// The output buffer and what has been closed; only touched under the lock.
    private struct State {
        var buffer: [UInt8] = []
        var position = 0
        var atEnd = false
        var inputClosed = false
        var outputClosed = false
        var finished: GitOutput?
    }

    init(
        executable: String, arguments: [String], environment: [String: String], directory: String?, context: String,
        cancellator: Cancellator = .shared
    ) throws(SpawnError) {
        self.context = context
        self.arguments = arguments
        self.directory = directory
        let child = try SpawnedProcess.spawn(
            executable: executable, arguments: arguments, environment: environment, cancellator: cancellator)
        self.child = child
        let errors = self.errors
        self.errorReader = BackgroundWork {
            let data = SpawnedProcess.readAll(child.stderr)
            errors.withLock { $0 = data }
        }
    }

    deinit {
        let child = self.child
        let running = state.withLock { state -> Bool in
            if state.finished == nil {
                kill(child.pid, SIGTERM)
                Self.closeInput(&state, child)
            }
            if !state.outputClosed {
                close(child.stdout)
                state.outputClosed = true
            }
            return state.finished == nil
        }
        if running {
            _ = child.wait()
            errorReader.wait()
        }
    }

    /// Writes bytes to git's standard input.
    public func write(_ data: Data) throws(GitError) {
        let written = state.withLock { state in
            !state.inputClosed && SpawnedProcess.writeAll(data, to: child.stdin)
        }
        guard written else { throw failure(detail: "git stopped reading its input") }
    }

    /// Writes text to git's standard input.
    public func write(_ text: String) throws(GitError) { try write(Data(text.utf8)) }

    /// Closes git's standard input (git then finishes its work and exits).
    public func closeInput() {
        state.withLock { Self.closeInput(&$0, child) }
    }

    private static func closeInput(_ state: inout State, _ child: SpawnedProcess) {
        guard !state.inputClosed else { return }
        state.inputClosed = true
        close(child.stdin)
    }

    /// Reads more output into the buffer; false at the end of the output.
    private static func fill(_ state: inout State, _ child: SpawnedProcess) -> Bool {
        guard !state.outputClosed else { return false }
        if state.position > 0 && (state.position == state.buffer.count || state.position > 1 << 20) {
            state.buffer.removeFirst(state.position)
            state.position = 0
        }
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = chunk.withUnsafeMutableBytes { systemRead(child.stdout, $0.baseAddress, 65536) }
            if count > 0 {
                state.buffer.append(contentsOf: chunk[0..<count])
                return true
            }
            if count < 0 && errno == EINTR { continue }
            state.atEnd = true
            return false
        }
    }

    /// Reads up to and without the next `delimiter`; nil when the output ended first.
    public func read(until delimiter: UInt8) -> [UInt8]? {
        state.withLock { state in
            var scanned = 0
            while true {
                let start = state.position + scanned
                if start < state.buffer.count, let index = state.buffer[start...].firstIndex(of: delimiter) {
                    let result = Array(state.buffer[state.position..<index])
                    state.position = index + 1
                    return result
                }
                scanned = state.buffer.count - state.position
                if state.atEnd || !Self.fill(&state, child) { return nil }
            }
        }
    }

    /// Reads one line (without its LF); nil at the end of the output.
    public func readLine() -> String? {
        read(until: UInt8(ascii: "\n")).map { String(decoding: $0, as: UTF8.self) }
    }

    /// Reads exactly `count` bytes; nil when the output ended first.
    public func read(count: Int) -> [UInt8]? {
        state.withLock { state in
            while state.buffer.count - state.position < count {
                if state.atEnd || !Self.fill(&state, child) { return nil }
            }
            let result = Array(state.buffer[state.position..<(state.position + count)])
            state.position += count
            return result
        }
    }

    /// Waits for git to exit; returns its output, or throws unless the status is accepted.
    @discardableResult
    public func finish(accepting: Set<Int32> = [0]) throws(GitError) -> GitOutput {
        let output = finished()
        guard accepting.contains(output.status) else { throw error(for: output) }
        return output
    }

    /// Closes the input, reads the rest of the output, waits for git and returns its result (once; later calls
    /// return the same result).
    private func finished() -> GitOutput {
        state.withLock { state in
            Self.closeInput(&state, child)
            if let finished = state.finished { return finished }
            var rest = Data(state.buffer[state.position...])
            state.position = state.buffer.count
            while !state.atEnd && Self.fill(&state, child) {
                rest.append(contentsOf: state.buffer[state.position...])
                state.position = state.buffer.count
            }
            state.buffer = []
            state.position = 0
            close(child.stdout)
            state.outputClosed = true
            let status = child.wait()
            errorReader.wait()
            let output = GitOutput(
                status: status, stdout: rest, stderr: String(decoding: errors.current, as: UTF8.self))
            state.finished = output
            return output
        }
    }

    /// Stops the process (used when a transaction must be aborted).
    public func terminate() {
        let child = self.child
        state.withLock { state in
            if state.finished == nil { kill(child.pid, SIGTERM) }
        }
        _ = finished()
    }

    /// The command line of this process, for errors.
    var command: [String] { ["git"] + arguments }

    private func error(for output: GitOutput) -> GitError {
        GitError(
            context: context,
            kind: output.status < 0 ? .killed(signal: -output.status) : .failed(status: output.status),
            command: command, directory: directory, output: output)
    }

    /// The error to throw when git's answer was missing or malformed: waits for git and includes its result.
    public func failure(detail: String) -> GitError {
        let output = finished()
        if output.status != 0 { return error(for: output) }
        return GitError(
            context: context, kind: .unparseableOutput(detail: detail), command: command, directory: directory,
            output: output)
    }

    /// The error for a request this process refuses to send (a value that would break its line protocol).
    func refused(_ detail: String) -> GitError {
        GitError(
            context: context, kind: .refusedArgument(detail: detail), command: command, directory: directory,
            stderr: "")
    }
}
