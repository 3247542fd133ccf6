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
/// indentation and `" : "` separators as Xcode does (the layout of `JSONEncoder`, written with ``JSONBytes``), so
/// regenerating it gives no diff.
public enum StringCatalogWriter {
    /// The catalog. Keys are marked `"extractionState" : "manual"` (they come from tables, not from source
    /// code, so Xcode must not mark them stale). A language without a value is left out of that key.
    public static func catalog(_ strings: ComposedStrings) -> Data {
        var json = JSONBytes(strings: .file)
        json.object { json in
            json.member("sourceLanguage", strings.sourceLanguage)
            json.key("strings")
            json.object { json in
                for key in strings.keys {
                    let values = strings.values[key] ?? [:]
                    json.key(string: key)
                    json.object { json in
                        json.member("extractionState", "manual")
                        json.key("localizations")
                        json.object { json in
                            for language in values.keys.sorted() {
                                json.key(string: language)
                                json.object { json in
                                    json.key("stringUnit")
                                    json.object { json in
                                        json.member("state", "translated")
                                        json.member("value", values[language] ?? "")
                                    }
                                }
                            }
                        }
                    }
                }
            }
            json.member("version", "1.0")
        }
        return Data(json.bytes + [UInt8(ascii: "\n")])
    }
}
