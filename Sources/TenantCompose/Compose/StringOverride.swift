import Foundation

/// A key that a later table gave a new value (the thesis' MyStrings.csv overriding a module's Strings.csv).
public struct StringOverride: Sendable, Equatable, Codable {
    /// The key.
    public var key: String
    /// The languages whose value changed, sorted.
    public var languages: [String]
    /// The table that had the key before.
    public var from: String
    /// The table whose value wins.
    public var to: String

    /// Creates an override record.
    public init(key: String, languages: [String], from: String, to: String) {
        self.key = key
        self.languages = languages
        self.from = from
        self.to = to
    }
}
