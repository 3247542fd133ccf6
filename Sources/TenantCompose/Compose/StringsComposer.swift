import Foundation

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
