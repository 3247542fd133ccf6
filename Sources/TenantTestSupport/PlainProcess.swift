import Foundation
import TenantKit

/// The test oracles' own spawner: runs a program with Foundation's `Process`, independent of tenantctl's runner
/// (`ExternalProgram` / `ChildProcess` in TenantKit), so a defect of the runner cannot hide in what the tests check.
public enum PlainProcess {
    /// The result of a finished process.
    public struct Output: Sendable {
        /// Exit status (negative: killed by that signal).
        public var status: Int32
        /// Raw standard output.
        public var stdout: Data
        /// Standard error as text.
        public var stderr: String
    }

    /// Runs `executable` with `arguments`, writes `input` while reading both output pipes, and waits for its exit.
    public static func run(
        _ executable: String, _ arguments: [String], environment: [String: String], input: Data? = nil,
        directory: String? = nil
    ) throws -> Output {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = environment
        if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
        let output = Pipe()
        let errors = Pipe()
        // A pipe is made only when there is input: Foundation's Pipe does not give its descriptors back when it is
        // never handed to a process.
        let feed = input == nil ? nil : Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = feed ?? FileHandle.nullDevice
        let exited = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in exited.signal() }
        try process.run()
        let group = DispatchGroup()
        let stdout = Locked(Data())
        let stderr = Locked(Data())
        let out = output.fileHandleForReading
        let err = errors.fileHandleForReading
        DispatchQueue.global().async(group: group) {
            stdout.withLock { $0 = out.readDataToEndOfFile() }
            try? out.close()
        }
        DispatchQueue.global().async(group: group) {
            stderr.withLock { $0 = err.readDataToEndOfFile() }
            try? err.close()
        }
        if let input, let feed {
            let writer = feed.fileHandleForWriting
            DispatchQueue.global().async(group: group) {
                // A child that stops reading early gives EPIPE here; its status tells why.
                try? writer.write(contentsOf: input)
                try? writer.close()
            }
        }
        group.wait()
        exited.wait()
        let status =
            process.terminationReason == .uncaughtSignal ? -process.terminationStatus : process.terminationStatus
        return Output(status: status, stdout: stdout.current, stderr: String(decoding: stderr.current, as: UTF8.self))
    }
}
