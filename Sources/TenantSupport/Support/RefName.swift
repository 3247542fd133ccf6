import Foundation

/// A full git ref name (`refs/heads/t2`, `refs/tags/v1`, `refs/remotes/origin/t2`, tenantctl's own
/// `refs/tenantctl/remotes/origin/t2`), checked the way `git check-ref-format` checks one.
///
/// A value can only hold a name git accepts for a ref; it prints, encodes and orders as the plain name.
public struct RefName: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The full name, `refs/…`.
    public let name: String

    /// The ref `name` (a full name under `refs/`); nil when git would refuse it as a ref name.
    public init?(_ name: String) {
        guard name.hasPrefix("refs/"), Self.isWellFormed(name) else { return nil }
        self.name = name
    }

    /// The branch `branch` (`refs/heads/<branch>`); nil for a name `git check-ref-format --branch` refuses.
    public static func branch(_ branch: String) -> RefName? {
        guard Self.isBranchName(branch) else { return nil }
        return RefName("refs/heads/" + branch)
    }

    /// The tag `tag` (`refs/tags/<tag>`); nil for a name git refuses.
    public static func tag(_ tag: String) -> RefName? {
        guard !tag.hasPrefix("-") else { return nil }
        return RefName("refs/tags/" + tag)
    }

    /// The remote-tracking branch `branch` of `remote` (`refs/remotes/<remote>/<branch>`); nil for names git refuses.
    public static func remoteTracking(_ branch: String, remote: String) -> RefName? {
        guard Self.isBranchName(branch), !remote.contains("/"), !remote.hasPrefix("-") else { return nil }
        return RefName("refs/remotes/\(remote)/\(branch)")
    }

    /// The name a person reads: a branch's, a tag's or a remote-tracking branch's short name (`t2`, `v1`,
    /// `origin/t2`), as `git rev-parse --abbrev-ref` gives it; any other ref's full name.
    public var shortName: String {
        for prefix in ["refs/heads/", "refs/tags/", "refs/remotes/"] where name.hasPrefix(prefix) {
            return String(name.dropFirst(prefix.count))
        }
        return name
    }

    /// True when the ref is a local branch (`refs/heads/…`).
    public var isBranch: Bool { name.hasPrefix("refs/heads/") }

    public var description: String { name }

    public static func < (lhs: RefName, rhs: RefName) -> Bool { lhs.name < rhs.name }
}

extension RefName: Codable {
    /// Decodes the plain name; a name git would refuse is a data-corrupted error naming it.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let ref = RefName(text) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "\(text) is not a full ref name")
        }
        self = ref
    }

    /// Encodes the plain name.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(name)
    }
}

extension RefName {
    /// Whether `branch` is a branch name `git check-ref-format --branch` accepts (``validateBranch(_:)``).
    public static func isBranchName(_ branch: String) -> Bool { validateBranch(branch) == nil }

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

    /// git's rules for a ref name (`git check-ref-format`): components separated by single slashes, none empty,
    /// starting with `.` or ending with `.lock`; no `..`, `@{`, control character, space or any of `~^:?*[\`; not
    /// `@` alone, not ending with `/` or `.`.
    public static func isWellFormed(_ name: String) -> Bool {
        guard !name.isEmpty, name != "@", !name.hasSuffix("."), !name.contains(".."), !name.contains("@{") else {
            return false
        }
        let forbidden: Set<Unicode.Scalar> = [" ", "~", "^", ":", "?", "*", "[", "\\"]
        for scalar in name.unicodeScalars
        where scalar.value < 0x20 || scalar.value == 0x7f || forbidden.contains(scalar) {
            return false
        }
        let components = name.split(separator: "/", omittingEmptySubsequences: false)
        return components.allSatisfy { !$0.isEmpty && !$0.hasPrefix(".") && !$0.hasSuffix(".lock") }
    }
}
