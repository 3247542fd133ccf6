import Foundation

/// The merged strings of a tenant: every key with its value per language.
public struct ComposedStrings: Sendable, Equatable {
    /// The development language: the first language column of the first table.
    public var sourceLanguage: String
    /// Every language of any table, sorted (the source language included).
    public var languages: [String]
    /// Key → language → value, after overrides.
    public var values: [String: [String: String]]
    /// Keys sorted by their UTF-8 bytes (the output order).
    public var keys: [String] {
        values.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    }
    /// Keys a later table overrode, in the order the overrides happened.
    public var overrides: [StringOverride]
    /// Keys without a value in some language, sorted by key, then language.
    public var missing: [MissingTranslation]
}
