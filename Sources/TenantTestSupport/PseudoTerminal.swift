import Foundation

/// Runs a program in a pseudo-terminal of a given size, as a person at a terminal would: util-linux's `script(1)`
/// makes the terminal, `stty` sets its size, and `COLUMNS`/`LINES` say the same. What the program printed comes back
/// with the terminal's `\r\n` turned into `\n`.
public enum PseudoTerminal {
    /// Whether `script(1)` is there to make a terminal.
    public static var available: Bool { FileManager.default.isExecutableFile(atPath: scriptPath) }

    static let scriptPath = "/usr/bin/script"

    /// Runs `executable arguments` in `directory` on a `columns` × `rows` terminal with the sandbox's environment and
    /// `environment`; returns its exit status and what the terminal showed (stdout and stderr together).
    public static func run(
        _ executable: String, _ arguments: [String], in directory: String, columns: Int, rows: Int,
        environment: [String: String] = [:], sandbox: GitSandbox
    ) throws -> (status: Int32, output: String) {
        let command =
            "stty cols \(columns) rows \(rows) && cd \(quoted(directory)) && exec "
            + ([executable] + arguments).map(quoted).joined(separator: " ")
        var variables = ["COLUMNS": "\(columns)", "LINES": "\(rows)", "TERM": "xterm", "NO_COLOR": "1"]
        variables.merge(environment) { $1 }
        // `-e`: the program's exit status is script's.
        let result = try sandbox.run(
            scriptPath, ["-qefc", command, "/dev/null"], input: "", extraEnvironment: variables)
        return (result.status, result.stdout.replacingOccurrences(of: "\r\n", with: "\n"))
    }

    /// `text` as one word for `sh`.
    static func quoted(_ text: String) -> String { "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'" }
}
