import Foundation

/// Language codes as used for `.lproj` folders and String Catalog localizations (`en`, `de`, `pt-BR`, `zh-Hans`).
enum LanguageCode {
    /// nil when `code` is usable, else why not.
    static func validate(_ code: String) -> String? {
        if code.isEmpty { return "is empty" }
        if code.utf8.count > 35 { return "is longer than 35 characters" }
        guard
            code.unicodeScalars.allSatisfy({
                $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "-" || $0 == "_")
            })
        else { return "only ASCII letters, digits, '-' and '_' are allowed" }
        guard let first = code.unicodeScalars.first, first.properties.isAlphabetic else {
            return "must start with a letter"
        }
        return nil
    }
}
