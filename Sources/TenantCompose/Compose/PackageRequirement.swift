import Foundation

/// A SwiftPM dependency: where the package lives, which versions, which library products.
public struct PackageRequirement: Sendable, Equatable {
    /// The version rule, as SwiftPM's `.package(url:…)` spells it.
    public enum Rule: Sendable, Equatable {
        /// `from: "x.y.z"`: up to the next major version.
        case from(String)
        /// `exact: "x.y.z"`.
        case exact(String)
        /// `branch: "name"`.
        case branch(String)
        /// `revision: "commit"`.
        case revision(String)

        /// What is wrong with the rule's value, if anything.
        var problem: String? {
            switch self {
            case .from(let version), .exact(let version):
                return SemanticVersion(version) == nil
                    ? "invalid version \"\(version)\" (expected major.minor.patch, e.g. \"2.1.0\")" : nil
            case .branch(let name):
                return RefName.validateBranch(name).map { "invalid branch \"\(name)\": \($0)" }
            case .revision(let id):
                let hex = id.unicodeScalars.allSatisfy { ("0"..."9").contains($0) || ("a"..."f").contains($0) }
                return hex && (id.count == 40 || id.count == 64)
                    ? nil : "invalid revision \"\(id)\" (expected a full lowercase commit id)"
            }
        }

        /// The rule as JSON report text (`from 2.1.0`).
        public var summary: String {
            switch self {
            case .from(let value): return "from \(value)"
            case .exact(let value): return "exact \(value)"
            case .branch(let value): return "branch \(value)"
            case .revision(let value): return "revision \(value)"
            }
        }
    }

    /// The package URL, as given.
    public var url: String
    /// The version rule.
    public var rule: Rule
    /// The library products used.
    public var products: [String]
    /// The modules a product brings, for the products whose description says so (an empty list: nothing to
    /// import). A product without an entry is linked but not imported.
    public var modules: [String: [String]]

    /// Creates a requirement.
    public init(url: String, rule: Rule, products: [String], modules: [String: [String]] = [:]) {
        self.url = url
        self.rule = rule
        self.products = products
        self.modules = modules
    }

    /// SwiftPM's identity of the package: the last path component of the URL without `.git`, lowercased.
    public var identity: String {
        PackageRequirement.identity(of: url)
    }

    static func identity(of url: String) -> String {
        repositoryName(of: url).lowercased()
    }

    /// The last path component of the URL without `.git`, as spelled (`QRCode`).
    static func repositoryName(of url: String) -> String {
        var text = Substring(url)
        while text.hasSuffix("/") { text = text.dropLast() }
        if let cut = text.lastIndex(where: { $0 == "/" || $0 == ":" }) { text = text[text.index(after: cut)...] }
        if text.lowercased().hasSuffix(".git") { text = text.dropLast(4) }
        return String(text)
    }

    /// The URL compared without scheme, `.git`, trailing `/` and case: two spellings of one repository are one
    /// package.
    var location: String {
        var text = url.lowercased()
        if let range = text.range(of: "://") { text = String(text[range.upperBound...]) }
        if text.hasPrefix("git@") { text = String(text.dropFirst(4)).replacingOccurrences(of: ":", with: "/") }
        while text.hasSuffix("/") { text.removeLast() }
        if text.hasSuffix(".git") { text.removeLast(4) }
        return text
    }

    /// nil when `url` can go into a `Package.swift` string literal and names a repository.
    static func validateURL(_ url: String) -> String? {
        if url.isEmpty { return "is empty" }
        if url.unicodeScalars.contains(where: { $0.properties.generalCategory == .control || $0 == " " }) {
            return "contains a space or a control character"
        }
        if url.contains("\"") || url.contains("\\") { return "contains a quote or a backslash" }
        if identity(of: url).isEmpty { return "has no repository name" }
        return nil
    }

    /// nil when `name` is a usable product (or pod) name.
    static func validateName(_ name: String) -> String? {
        if name.isEmpty { return "is empty" }
        let allowed = name.unicodeScalars.allSatisfy {
            $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "-_.+".unicodeScalars.contains($0))
        }
        return allowed ? nil : "only ASCII letters, digits, '-', '_', '.' and '+' are allowed"
    }
}
