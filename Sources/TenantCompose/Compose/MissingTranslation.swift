import Foundation

/// A key without a value in one language.
public struct MissingTranslation: Sendable, Equatable, Codable {
    /// The key.
    public var key: String
    /// The language it lacks.
    public var language: String
    /// The table that defines the key (the last one that has it).
    public var source: String

    /// Creates a missing-translation record.
    public init(key: String, language: String, source: String) {
        self.key = key
        self.language = language
        self.source = source
    }
}
