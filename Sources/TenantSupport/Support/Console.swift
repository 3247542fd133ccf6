import Foundation

/// Reports to stdout, progress and diagnostics to stderr, with the user's verbosity and colour choices.
public struct Console: Sendable {
    /// Data (reports) go here.
    public var out: any OutputSink
    /// Progress, warnings and errors go here.
    public var err: any OutputSink
    /// Nothing but errors (and `--json` data).
    public var quiet: Bool
    /// Extra detail (every git command) on stderr.
    public var verbose: Bool
    /// ANSI colour allowed on stdout.
    public var color: Bool
    /// The width tables are fitted to (``TerminalWidth``).
    public var width: Int
    /// Where the errors printed are kept too (for `--json`'s error object), or nil.
    public var errorLog: ErrorLog?
    /// The locale shows no UTF-8 (``TerminalLocale``): report lines, progress and diagnostics get the ASCII stand-ins
    /// of the glyphs; ``data(_:)`` (JSON, HTML) is written as it is.
    public var ascii = false

    public init(
        out: any OutputSink, err: any OutputSink, quiet: Bool = false, verbose: Bool = false, color: Bool = false,
        width: Int = TerminalWidth.fallback
    ) {
        self.out = out
        self.err = err
        self.quiet = quiet
        self.verbose = verbose
        self.color = color
        self.width = width
    }

    /// `table` rendered to fit ``width``, its columns measured as the terminal shows them (ASCII stand-ins when
    /// ``ascii``).
    public func table(_ table: TextTable, overflow: TextTable.Overflow = .records) -> String {
        table.render(width: width, overflow: overflow, ascii: ascii)
    }

    /// A report line on stdout (silent with `--quiet`: the exit status then says everything).
    public func print(_ line: String = "") {
        if !quiet { out.write(shown(line) + "\n") }
    }

    /// `text` as the terminal shows it: with ASCII stand-ins for the glyphs when ``ascii``.
    public func shown(_ text: String) -> String { ascii ? TerminalLocale.ascii(text) : text }

    /// Data the user asked for explicitly (`--json`) on stdout: printed even with `--quiet`.
    public func data(_ text: String) { out.write(text + "\n") }

    /// ``data(_:)`` for a report rendered as UTF-8 bytes (the 19 MB JSON audit of 1000 tenants × 50 modules).
    public func data(bytes: [UInt8]) {
        out.write(bytes: bytes)
        out.write("\n")
    }

    /// ``data(bytes:)`` for a report written in parts: `write` hands each part, in order, to the function it is
    /// given, which writes it out; the newline follows the last.
    public func data(parts write: (([UInt8]) -> Void) -> Void) {
        write { out.write(bytes: $0) }
        out.write("\n")
    }

    /// A progress line on stderr (silent with `--quiet`).
    public func progress(_ line: String) {
        if !quiet { err.write(shown(TerminalText.escaped(line, keepingLayout: true)) + "\n") }
    }

    /// A warning on stderr (silent with `--quiet`); control characters (from repositories) escaped.
    public func warn(_ line: String) {
        if !quiet { err.write("warning: " + shown(TerminalText.escaped(line, keepingLayout: true)) + "\n") }
    }

    /// An error on stderr (always shown); control characters (from repositories, git, a remote) escaped.
    public func error(_ line: String) {
        errorLog?.append(line)
        err.write("error: " + shown(TerminalText.escaped(line, keepingLayout: true)) + "\n")
    }

    /// Detail on stderr, only with `--verbose`; control characters escaped.
    public func debug(_ line: String) {
        if verbose && !quiet { err.write(shown(TerminalText.escaped(line, keepingLayout: true)) + "\n") }
    }

    /// Text wrapped in an ANSI style when colour is on.
    public func styled(_ text: String, _ style: Style) -> String {
        color ? "\u{1B}[\(style.rawValue)m\(text)\u{1B}[0m" : text
    }

    /// ANSI styles used in reports.
    public enum Style: String, Sendable {
        case bold = "1"
        case dim = "2"
        case red = "31"
        case green = "32"
        case yellow = "33"
        case blue = "34"
        case cyan = "36"
    }
}
