import Foundation

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

    /// `a`, `a or b`, `a, b or c`.
    public static func or(_ words: [String]) -> String {
        guard let last = words.last, words.count > 1 else { return words.first ?? "" }
        return words.dropLast().joined(separator: ", ") + " or " + last
    }
}
