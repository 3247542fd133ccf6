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

/// Merges string tables the way the thesis' stringsbuilder did: in order, a later table overriding a key of an
/// earlier one (per language: a later table's value replaces the earlier value; a language the later table leaves
/// empty keeps the earlier value).
public enum StringsComposer {
    /// Merges `tables` in order (modules in dependency order, then the tenant's files).
    public static func compose(_ tables: [StringsTable]) -> ComposedStrings {
        var values: [String: [String: String]] = [:]
        var owner: [String: String] = [:]
        var overrides: [StringOverride] = []
        var languages: Set<String> = []
        for table in tables {
            languages.formUnion(table.languages)
            for row in table.rows {
                if let existing = values[row.key] {
                    let changed = row.values.filter { existing[$0.key] != nil && existing[$0.key] != $0.value }
                        .map(\.key).sorted()
                    if !changed.isEmpty, let previous = owner[row.key] {
                        overrides.append(
                            StringOverride(key: row.key, languages: changed, from: previous, to: table.source))
                    }
                    values[row.key] = existing.merging(row.values) { _, new in new }
                } else {
                    values[row.key] = row.values
                }
                owner[row.key] = table.source
            }
        }
        let sourceLanguage = tables.first { !$0.languages.isEmpty }?.languages.first ?? "en"
        languages.insert(sourceLanguage)
        let sortedLanguages = languages.sorted()
        var missing: [MissingTranslation] = []
        for key in values.keys.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }) {
            for language in sortedLanguages where values[key]?[language] == nil {
                missing.append(MissingTranslation(key: key, language: language, source: owner[key] ?? ""))
            }
        }
        return ComposedStrings(
            sourceLanguage: sourceLanguage, languages: sortedLanguages, values: values, overrides: overrides,
            missing: missing)
    }
}
