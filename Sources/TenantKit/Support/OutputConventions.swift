import Foundation

// The output conventions every command follows (docs/CLI.md "Output conventions"; docs/DESIGN.md lists them):
// short commit ids (`ObjectID.short`, in ObjectID.swift), counted nouns (`English.count`), the table width (`TerminalWidth`),
// suggestions for a mistyped name (`NameSuggestions`) and the usage error for an unknown tenant or module
// (`UnknownNameError`, exit 64).

/// Counted nouns written out: "1 branch", "2 branches" (never "branch(es)").
public enum English {
    /// `count` and the noun in the right number: `count(2, "branch", "branches")` is "2 branches". Without
    /// `plural` an "s" is added.
    public static func count(_ count: Int, _ singular: String, _ plural: String? = nil) -> String {
        "\(count) \(noun(count, singular, plural))"
    }

    /// The noun alone in the right number for `count`.
    public static func noun(_ count: Int, _ singular: String, _ plural: String? = nil) -> String {
        count == 1 ? singular : plural ?? singular + "s"
    }

    /// "is" or "are" for `count` things.
    public static func isAre(_ count: Int) -> String { count == 1 ? "is" : "are" }
}

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

/// Suggestions for a mistyped name: the known names ordered by edit distance.
public enum NameSuggestions {
    /// The Levenshtein distance between `left` and `right` (case-insensitive).
    public static func distance(_ left: String, _ right: String) -> Int {
        let a = Array(left.lowercased())
        let b = Array(right.lowercased())
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous = Array(0...b.count)
        var current = Array(repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                current[j] = min(
                    previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            swap(&previous, &current)
        }
        return previous[b.count]
    }

    /// `known`, closest to `name` first (ties in the given order).
    public static func ranked(_ name: String, among known: [String]) -> [String] {
        known.enumerated().map { (distance(name, $0.element), $0.offset, $0.element) }
            .sorted { ($0.0, $0.1) < ($1.0, $1.1) }.map(\.2)
    }

    /// The known name close enough to `name` to be what the user meant, or nil: the only one that starts with
    /// it, else the closest when at most a third of `name` differs (one edit at least) and less than half of it
    /// (so `t9` suggests none of `t1`, `t2`, `t3`).
    public static func closest(to name: String, among known: [String]) -> String? {
        let prefixed = known.filter { $0.lowercased().hasPrefix(name.lowercased()) }
        if prefixed.count == 1 { return prefixed[0] }
        guard let best = ranked(name, among: known).first else { return nil }
        let edits = distance(name, best)
        return edits <= max(1, name.count / 3) && edits * 2 < name.count ? best : nil
    }
}

/// A tenant or module name that the workspace does not have: a usage error (exit 64) listing the known names,
/// the closest first.
public struct UnknownNameError: Error, CustomStringConvertible, Sendable {
    /// "tenant" or "module".
    public var kind: String
    /// The names given.
    public var names: [String]
    /// Every known name.
    public var known: [String]
    /// Where the names were looked up (e.g. "Tenants/ on origin/general_dev"), or nil.
    public var place: String?

    /// Creates the error for the unknown `names` of `kind`.
    public init(kind: String, names: [String], known: [String], place: String? = nil) {
        self.kind = kind
        self.names = names
        self.known = known
        self.place = place
    }

    public var description: String {
        var text = "unknown \(English.noun(names.count, kind)) \(names.joined(separator: ", "))"
        if let place { text += " (not in \(place))" }
        guard let first = names.first else { return text }
        if let guess = NameSuggestions.closest(to: first, among: known) { text += "; did you mean \(guess)?" }
        if known.isEmpty {
            text += "; there are no \(kind)s"
        } else {
            text += "; known \(kind)s: " + NameSuggestions.ranked(first, among: known).joined(separator: ", ")
        }
        return text
    }
}
