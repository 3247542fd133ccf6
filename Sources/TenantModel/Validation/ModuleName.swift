import Foundation

/// Rules for module names.
public enum ModuleName {
    /// Returns nil when `name` is a valid module name, otherwise the reason it is not.
    ///
    /// Refused: empty, `/`, `\`, `..`, whitespace, control characters, a leading `-` or `.`, and the
    /// invisible or bidirectional-control characters refused in paths.
    public static func validate(_ name: String) -> String? {
        if name.isEmpty { return "is empty" }
        if name.hasPrefix("-") { return "starts with '-'" }
        if name.hasPrefix(".") { return "starts with '.'" }
        if name.contains("..") { return "contains '..'" }
        for scalar in name.unicodeScalars {
            if scalar == "/" { return "contains '/'" }
            if scalar == "\\" { return "contains '\\'" }
            if scalar.properties.generalCategory == .control { return "contains a control character" }
            if scalar.properties.isWhitespace { return "contains whitespace" }
            if RepoPath.isInvisibleOrBidi(scalar) {
                return "contains the invisible character \(RepoPath.codePoint(scalar))"
            }
        }
        return nil
    }
}
