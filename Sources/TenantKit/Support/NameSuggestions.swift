import Foundation

// One of the output conventions every command follows (docs/CLI.md "Output conventions"; docs/DESIGN.md lists
// the helpers): suggestions for a mistyped name and the usage error for an unknown tenant or module (exit 64).

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
