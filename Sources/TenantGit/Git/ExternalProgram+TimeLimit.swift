import Foundation

extension ExternalProgram {
    /// What a program run with a time limit did: its status and output, and whether the limit stopped it.
    public struct Limited: Sendable {
        /// Exit status, stdout and stderr.
        public var output: GitOutput
        /// True when the time limit ended it (SIGTERM to its process group, SIGKILL after a grace period).
        public var timedOut: Bool
    }

    /// Runs `executable` (an absolute path) in a process group of its own, stopped after `timeLimit` seconds.
    public static func run(
        executable: String, arguments: [String], environment: [String: String], timeLimit: Double,
        cancellator: Cancellator = .shared
    ) throws(NotStarted) -> Limited {
        do {
            let (output, timedOut) = try ChildProcess.run(
                executable: executable, arguments: arguments, environment: environment, input: nil,
                cancellator: cancellator, timeLimit: timeLimit, newSession: true)
            return Limited(output: output, timedOut: timedOut)
        } catch {
            if case .cancelled = error { throw NotStarted(description: error.description, cancelled: true) }
            throw NotStarted(description: error.description, cancelled: false)
        }
    }

    /// The absolute path of `program`: itself when it names a path, else the first executable of that name in
    /// `path` (a `PATH` value); nil when there is none.
    public static func find(_ program: String, path: String) -> String? {
        if program.contains("/") {
            let url = URL(fileURLWithPath: program)
            return FileManager.default.isExecutableFile(atPath: url.path) ? url.path : nil
        }
        for directory in path.split(separator: ":") where !directory.isEmpty {
            let candidate = "\(directory)/\(program)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }
}
