import Foundation

/// Rules for module paths inside the superproject.
public enum RepoPath {
    /// Returns nil when `path` is a safe, canonical relative path, otherwise the reason it is not.
    ///
    /// Refused: empty, absolute (`/x`, `C:\x`, `C:x`, `\\srv\x`), backslashes, `:` (pathspec magic and
    /// NTFS streams), a trailing `/`, empty, `.` or `..` components, `.git` and `.gitmodules` in any case,
    /// NTFS short names `git~N`, components ending in a space or `.`, control characters (CR, LF, …),
    /// zero-width and bidirectional-control characters.
    public static func validate(_ path: String) -> String? {
        if path.isEmpty { return "is empty" }
        for scalar in path.unicodeScalars {
            if scalar.properties.generalCategory == .control { return "contains a control character" }
            if isInvisibleOrBidi(scalar) { return "contains the invisible character \(codePoint(scalar))" }
        }
        if path.hasPrefix("\\\\") { return "is a network (UNC) path" }
        if path.hasPrefix("/") { return "is absolute" }
        let scalars = Array(path.unicodeScalars)
        if scalars.count >= 2, scalars[1] == ":", scalars[0].isASCII, scalars[0].properties.isAlphabetic {
            return "starts with a drive letter"
        }
        if path.contains("\\") { return "contains a backslash" }
        if path.contains(":") { return "contains ':'" }
        if path.hasSuffix("/") { return "ends with '/'" }
        for component in path.split(separator: "/", omittingEmptySubsequences: false) {
            let lower = component.lowercased()
            if component.isEmpty { return "contains an empty component ('//')" }
            if component == "." { return "contains a '.' component" }
            if component == ".." { return "contains a '..' component" }
            if lower == ".git" { return "contains a '\(component)' component" }
            if lower == ".gitmodules" { return "contains a '\(component)' component" }
            if lower.hasPrefix("git~"), lower.count > 4, lower.dropFirst(4).allSatisfy(\.isNumber) {
                return "contains '\(component)' (an NTFS short name for .git)"
            }
            if component.hasSuffix(" ") || component.hasSuffix(".") {
                return "has a component ending with a space or '.' ('\(component)')"
            }
        }
        return nil
    }

    /// Zero-width and bidirectional-control characters (U+200B–U+200F, U+202A–U+202E, U+2060–U+206F,
    /// U+FEFF), which some file systems ignore and which can disguise names.
    package static func isInvisibleOrBidi(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x200B...0x200F, 0x202A...0x202E, 0x2060...0x206F, 0xFEFF: return true
        default: return false
        }
    }

    static func codePoint(_ scalar: Unicode.Scalar) -> String {
        String(format: "U+%04X", scalar.value)
    }
}
