import Foundation

// One of the output conventions every command follows (docs/CLI.md "Output conventions"; docs/DESIGN.md lists
// the helpers): suggestions for a mistyped name and the usage error for an unknown tenant or module (exit 64).

/// Suggestions for a mistyped name: the known names ordered by edit distance.
public enum NameSuggestions {
    /// The edit distance between `left` and `right` (case-insensitive): insertions, deletions, substitutions and
    /// transpositions of two neighbouring characters (`audti` is one edit from `audit`) each count one.
    public static func distance(_ left: String, _ right: String) -> Int {
        let a = Array(left.lowercased())
        let b = Array(right.lowercased())
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var beforePrevious = Array(repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = Array(repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                current[j] = min(
                    previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    current[j] = min(current[j], beforePrevious[j - 2] + 1)
                }
            }
            (beforePrevious, previous, current) = (previous, current, beforePrevious)
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
        suggestions(for: name, among: known, limit: 1).first
    }

    /// At most `limit` known names close enough to `name` to be what the user meant, closest first: the ones that
    /// start with it when there are at most `limit`, else those within the edits ``closest(to:among:)`` allows.
    public static func suggestions(for name: String, among known: [String], limit: Int = 3) -> [String] {
        let prefixed = known.filter { $0.lowercased().hasPrefix(name.lowercased()) }
        if !prefixed.isEmpty, prefixed.count <= limit { return prefixed }
        return Array(
            ranked(name, among: known).prefix { candidate in
                let edits = distance(name, candidate)
                return edits <= max(1, name.count / 3) && edits * 2 < name.count
            }.prefix(limit))
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

    /// At most this many known names are listed when none is close (a workspace with a few tenants lists them all).
    public static let listedKnown = 8

    /// "unknown tenant t9999; did you mean t999, t99 or t9?; see: tenantctl tenant list": at most three close
    /// names, every known one only when there are a few, then where to see them all.
    public var description: String {
        var text = "unknown \(English.noun(names.count, kind)) \(names.joined(separator: ", "))"
        if let place { text += " (not in \(place))" }
        guard let first = names.first else { return text }
        let close = NameSuggestions.suggestions(for: first, among: known)
        if !close.isEmpty { text += "; did you mean \(English.or(close))?" }
        if known.isEmpty {
            text += "; there are no \(kind)s"
        } else if known.count <= Self.listedKnown {
            text += "; known \(kind)s: " + NameSuggestions.ranked(first, among: known).joined(separator: ", ")
        }
        return text + "; see: tenantctl tenant list"
    }
}
