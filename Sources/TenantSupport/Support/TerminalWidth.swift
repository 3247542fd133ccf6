import Foundation

/// How wide tables and prose may be: on a terminal `COLUMNS`, else the terminal's own width (`TIOCGWINSZ` on
/// stdout), else 80; off a terminal (a pipe, a file, a CI log) unlimited, so nothing is wrapped or cut (as git
/// and kubectl do).
public enum TerminalWidth {
    /// The width on a terminal whose width nothing says.
    public static let fallback = 80
    /// Tables never get narrower than this, whatever `COLUMNS` says.
    public static let minimum = 20
    /// No limit: off a terminal, in a report file and with `--wide`.
    public static let unlimited = Int.max

    /// The width for output to stdout: ``unlimited`` unless `isTerminal`; on a terminal `COLUMNS` when it is a
    /// positive number, else the terminal's width, else ``fallback``.
    public static func columns(variables: [String: String], isTerminal: Bool, descriptor: Int32 = STDOUT_FILENO)
        -> Int
    {
        guard isTerminal else { return unlimited }
        if let text = variables["COLUMNS"], let value = Int(text.trimmingCharacters(in: .whitespaces)), value > 0 {
            return max(value, minimum)
        }
        if let width = terminalWidth(descriptor) { return max(width, minimum) }
        return fallback
    }

    /// The window width of the terminal on `descriptor`, or nil when it is none.
    public static func terminalWidth(_ descriptor: Int32) -> Int? {
        var size = winsize()
        #if os(Linux)
            let request = UInt(TIOCGWINSZ)
        #else
            let request = TIOCGWINSZ
        #endif
        guard ioctl(descriptor, request, &size) == 0, size.ws_col > 0 else { return nil }
        return Int(size.ws_col)
    }
}
