import Foundation

/// Branch-name rules of `git check-ref-format --branch`, implemented without calling git.
public enum RefName {
    /// Returns nil when `name` is a valid branch name, otherwise the reason it is not.
    ///
    /// Follows git's `check_refname_format` for `refs/heads/<name>` plus the `--branch` rules (no leading
    /// `-`, not `HEAD`). Deliberately stricter than git 2.39 in one case: `@` alone is refused, because
    /// git also reads it as a shorthand for `HEAD`.
    public static func validateBranch(_ name: String) -> String? {
        if name.isEmpty { return "is empty" }
        if name.hasPrefix("-") { return "starts with '-'" }
        if name == "HEAD" { return "is \"HEAD\"" }
        if name == "@" { return "is \"@\" (a shorthand for HEAD)" }
        for scalar in name.unicodeScalars {
            if scalar.value < 0x20 || scalar.value == 0x7F { return "contains a control character" }
            if scalar == " " { return "contains a space" }
            if "~^:?*[\\".unicodeScalars.contains(scalar) { return "contains '\(scalar)'" }
        }
        if name.contains("..") { return "contains '..'" }
        if name.contains("@{") { return "contains '@{'" }
        if name.hasSuffix(".") { return "ends with '.'" }
        for component in name.split(separator: "/", omittingEmptySubsequences: false) {
            if component.isEmpty {
                return name.hasSuffix("/") ? "ends with '/'" : "contains an empty component ('//' or a leading '/')"
            }
            if component.hasPrefix(".") { return "has a component starting with '.'" }
            if component.hasSuffix(".lock") { return "has a component ending with '.lock'" }
        }
        return nil
    }
}
