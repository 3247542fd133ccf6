import Foundation

/// Whether the terminal shows UTF-8, read from the locale as the C library reads it: the first of `LC_ALL`, `LC_CTYPE`
/// and `LANG` that is set and not empty names it. A UTF-8 codeset (`C.UTF-8`, `en_US.utf8`) shows the table's glyphs;
/// any other locale (`C`, `POSIX`, or none set, which is the C locale) gets their ASCII stand-ins (``ascii(_:)``).
public enum TerminalLocale {
    /// Whether the locale of `variables` is a UTF-8 one.
    public static func isUTF8(_ variables: [String: String]) -> Bool {
        let name = ["LC_ALL", "LC_CTYPE", "LANG"].lazy.compactMap { variables[$0] }.first { !$0.isEmpty } ?? ""
        let codeset = name.lowercased()
        return codeset.contains("utf-8") || codeset.contains("utf8")
    }

    /// The glyphs tenantctl prints and their ASCII stand-ins. The table's are one column wide, as the glyphs, so the
    /// columns stay aligned: `+3-1` customised by 3 commits and behind by 1, `.` up to date, `x` in
    /// `3 tenants x 4 modules`.
    public static let standIns: [Character: String] = [
        "✎": "+", "↓": "-", "·": ".", "×": "x", "✗": "x", "✓": "+", "…": "...", "—": "-", "–": "-", "→": "->",
        "←": "<-", "’": "'", "‘": "'", "“": "\"", "”": "\"",
    ]

    /// `text` with every glyph of ``standIns`` replaced by its ASCII stand-in (other text as it is).
    public static func ascii(_ text: String) -> String {
        if text.utf8.allSatisfy({ $0 < 0x80 }) { return text }
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for character in text {
            if let standIn = standIns[character] {
                result += standIn
            } else {
                result.append(character)
            }
        }
        return result
    }
}
