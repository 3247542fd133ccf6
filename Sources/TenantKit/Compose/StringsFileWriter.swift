import Foundation

/// Writes `<lang>.lproj/Localizable.strings` files (UTF-8, `"key" = "value";` per line, keys sorted).
public enum StringsFileWriter {
    /// The `.strings` file of one language: every key that has a value in it. A key without a value in this
    /// language is left out (the composer reports it), never written as an empty string.
    public static func file(_ strings: ComposedStrings, language: String, header: String) -> Data {
        var out = "/* \(comment(header)) */\n\n"
        for key in strings.keys {
            guard let value = strings.values[key]?[language] else { continue }
            out += "\"\(escaped(key))\" = \"\(escaped(value))\";\n"
        }
        return Data(out.utf8)
    }

    /// Escapes a key or value for a double-quoted `.strings` token: `\"`, `\\`, `\n`, `\r`, `\t`, other control
    /// characters as `\UXXXX`; everything else (any Unicode) is written as is.
    public static func escaped(_ text: String) -> String {
        let quoted = Backslashed.quoted(text) { scalar in
            Backslashed.unicodeControl(scalar) { String(format: "\\U%04X", $0) }
        }
        return String(quoted.dropFirst().dropLast())
    }

    /// A comment body that cannot end the comment early.
    static func comment(_ text: String) -> String {
        text.replacingOccurrences(of: "*/", with: "* /").replacingOccurrences(of: "\n", with: " ")
    }
}

/// Writes one String Catalog (`Localizable.xcstrings`) in the shape Xcode writes: `sourceLanguage`, `strings` →
/// key → `localizations` → language → `stringUnit` {`state`, `value`}, `version` "1.0"; keys sorted, two-space
/// indentation and `" : "` separators as Xcode does, so regenerating it gives no diff.
public enum StringCatalogWriter {
    /// The catalog. Keys are marked `"extractionState" : "manual"` (they come from tables, not from source
    /// code, so Xcode must not mark them stale). A language without a value is left out of that key.
    public static func catalog(_ strings: ComposedStrings) -> Data {
        var out = "{\n"
        out += "  \"sourceLanguage\" : \(JSONText.quoted(strings.sourceLanguage)),\n"
        let keys = strings.keys
        if keys.isEmpty {
            out += "  \"strings\" : {\n\n  },\n"
        } else {
            out += "  \"strings\" : {\n"
            var entries: [String] = []
            for key in keys {
                let values = strings.values[key] ?? [:]
                var entry = "    \(JSONText.quoted(key)) : {\n"
                entry += "      \"extractionState\" : \"manual\",\n"
                entry += "      \"localizations\" : {\n"
                let localizations = values.keys.sorted().map { language in
                    "        \(JSONText.quoted(language)) : {\n"
                        + "          \"stringUnit\" : {\n"
                        + "            \"state\" : \"translated\",\n"
                        + "            \"value\" : \(JSONText.quoted(values[language] ?? ""))\n"
                        + "          }\n"
                        + "        }"
                }
                entry += localizations.joined(separator: ",\n") + "\n"
                entry += "      }\n"
                entry += "    }"
                entries.append(entry)
            }
            out += entries.joined(separator: ",\n") + "\n  },\n"
        }
        out += "  \"version\" : \"1.0\"\n}\n"
        return Data(out.utf8)
    }
}
