import Foundation

/// `ModuleDescription.json` at a module's root: what the module needs from outside — the thesis'
/// ModuleDescription and combinepods input.
public struct ModuleDescription: Sendable, Equatable {
    /// The module's name; must equal its name in `modules.json` when given.
    public var name: String?
    /// The module's dependencies as the module sees them (informational; `modules.json` decides).
    public var dependsOn: [String]?
    /// SwiftPM packages the module needs.
    public var packages: [PackageRequirement]
    /// CocoaPods the module needs.
    public var pods: [PodRequirement]
    /// The module's minimum platform versions, platform (`iOS`) → version (`15.0`).
    public var platforms: [String: String]

    /// Creates a description.
    public init(
        name: String? = nil, dependsOn: [String]? = nil, packages: [PackageRequirement] = [],
        pods: [PodRequirement] = [], platforms: [String: String] = [:]
    ) {
        self.name = name
        self.dependsOn = dependsOn
        self.packages = packages
        self.pods = pods
        self.platforms = platforms
    }

    /// Decodes and validates a description of `module`; throws once with every problem, each naming `source`.
    public static func parse(_ data: Data, module: String, source: String) throws(ComposeError) -> ModuleDescription {
        var decoder = FieldDecoder(file: source)
        let description = decode(data, decoder: &decoder)
        if let description { validate(description, module: module, decoder: &decoder) }
        guard decoder.problems.isEmpty, let description else {
            throw ComposeError(
                problems: decoder.problems.map { ComposeProblem(.invalidModuleDescription, $0.description) })
        }
        return description
    }

    static func decode(_ data: Data, decoder: inout FieldDecoder) -> ModuleDescription? {
        guard let root = decoder.parse(data) else { return nil }
        guard
            let fields = decoder.object(
                root, at: nil, allowed: ["name", "dependsOn", "packages", "pods", "platforms"], required: [])
        else { return nil }
        let before = decoder.problems.count
        let name = fields["name"].flatMap { decoder.string($0, at: "name") }
        let dependsOn = fields["dependsOn"].flatMap { decoder.stringArray($0, at: "dependsOn") }
        var packages: [PackageRequirement] = []
        if let value = fields["packages"], let elements = decoder.array(value, at: "packages") {
            for (offset, element) in elements.enumerated() {
                let path = "packages[\(offset)]"
                guard
                    let entry = decoder.object(
                        element, at: path, allowed: ["url", "from", "exact", "branch", "revision", "products"],
                        required: ["url", "products"])
                else { continue }
                let url = entry["url"].flatMap { decoder.string($0, at: path + ".url") }
                let products = entry["products"].flatMap {
                    decodeProducts($0, at: path + ".products", decoder: &decoder)
                }
                var rules: [PackageRequirement.Rule] = []
                for kind in ["from", "exact", "branch", "revision"] {
                    guard let value = entry[kind], let text = decoder.string(value, at: "\(path).\(kind)") else {
                        continue
                    }
                    switch kind {
                    case "from": rules.append(.from(text))
                    case "exact": rules.append(.exact(text))
                    case "branch": rules.append(.branch(text))
                    default: rules.append(.revision(text))
                    }
                }
                if rules.count != 1 {
                    decoder.report(
                        path, element.position,
                        "needs exactly one of \"from\", \"exact\", \"branch\", \"revision\" (found \(rules.count))")
                    continue
                }
                if let url, let products {
                    packages.append(
                        PackageRequirement(
                            url: url, rule: rules[0], products: products.map(\.name),
                            modules: products.reduce(into: [:]) { $0[$1.name] = $1.modules }))
                }
            }
        }
        var pods: [PodRequirement] = []
        if let value = fields["pods"], let elements = decoder.array(value, at: "pods") {
            for (offset, element) in elements.enumerated() {
                let path = "pods[\(offset)]"
                if case .string(let name, _) = element {  // the thesis' form: the pod's name alone
                    pods.append(PodRequirement(name: name))
                    continue
                }
                guard let entry = decoder.object(element, at: path, allowed: ["name", "version"], required: ["name"])
                else { continue }
                let name = entry["name"].flatMap { decoder.string($0, at: path + ".name") }
                var version: String?
                if let value = entry["version"] { version = decoder.string(value, at: path + ".version") }
                if let name { pods.append(PodRequirement(name: name, version: version)) }
            }
        }
        let platforms =
            fields["platforms"].flatMap { PlatformVersions.decode($0, at: "platforms", decoder: &decoder) } ?? [:]
        guard decoder.problems.count == before else { return nil }
        return ModuleDescription(
            name: name, dependsOn: dependsOn, packages: packages, pods: pods, platforms: platforms)
    }

    /// `products`: each a product name (`"QRCode"`), or an object naming the modules the product brings
    /// (`{ "name": "GoogleSignIn", "modules": ["GoogleSignIn", "GoogleSignInSwift"] }`, `"modules": []` for none).
    static func decodeProducts(
        _ value: JSONValue, at field: String, decoder: inout FieldDecoder
    ) -> [(name: String, modules: [String]?)]? {
        guard let elements = decoder.array(value, at: field) else { return nil }
        var products: [(name: String, modules: [String]?)] = []
        var ok = true
        for (offset, element) in elements.enumerated() {
            let path = "\(field)[\(offset)]"
            if case .string(let name, _) = element {
                decoder.positions[path] = element.position
                products.append((name, nil))
                continue
            }
            guard
                let entry = decoder.object(
                    element, at: path, allowed: ["name", "modules"], required: ["name", "modules"])
            else {
                ok = false
                continue
            }
            let name = entry["name"].flatMap { decoder.string($0, at: path + ".name") }
            let modules = entry["modules"].flatMap { decoder.stringArray($0, at: path + ".modules") }
            guard let name, let modules else {
                ok = false
                continue
            }
            products.append((name, modules))
        }
        return ok ? products : nil
    }

    static func validate(_ description: ModuleDescription, module: String, decoder: inout FieldDecoder) {
        if let name = description.name, name != module {
            decoder.report("name", "names module \"\(name)\", but it belongs to module \"\(module)\"")
        }
        for (offset, package) in description.packages.enumerated() {
            let path = "packages[\(offset)]"
            if let reason = PackageRequirement.validateURL(package.url) {
                decoder.report(path + ".url", "invalid package URL \"\(package.url)\": \(reason)")
            }
            if let reason = package.rule.problem {
                decoder.report(path, reason)
            }
            if package.products.isEmpty {
                decoder.report(path + ".products", "lists no product (name the library products the module uses)")
            }
            for (index, product) in package.products.enumerated() {
                if let reason = PackageRequirement.validateName(product) {
                    decoder.report("\(path).products[\(index)]", "invalid product name \"\(product)\": \(reason)")
                }
                for (position, module) in (package.modules[product] ?? []).enumerated()
                where !PackageManifestWriter.isIdentifier(module) {
                    decoder.report(
                        "\(path).products[\(index)].modules[\(position)]",
                        "invalid module name \"\(module)\" of product \(product) (a Swift module name: ASCII letters, "
                            + "digits and '_', not starting with a digit)")
                }
            }
        }
        for (offset, pod) in description.pods.enumerated() {
            let path = "pods[\(offset)]"
            if let reason = PodRequirement.validateName(pod.name) {
                decoder.report(path + ".name", "invalid pod name \"\(pod.name)\": \(reason)")
            }
            if let version = pod.version, !PodRequirement.isValidVersion(version) {
                decoder.report(
                    path + ".version",
                    "invalid pod version \"\(version)\" (expected e.g. \"1.2.3\", \"~> 1.0\", \">= 2.0, < 3.0\")")
            }
        }
    }
}

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

/// A CocoaPods dependency: a pod name and, optionally, a version requirement.
public struct PodRequirement: Sendable, Equatable {
    /// The pod (subspecs as `Name/Sub`).
    public var name: String
    /// The requirement as the Podfile writes it (`~> 1.0`), if any.
    public var version: String?

    /// Creates a requirement.
    public init(name: String, version: String? = nil) {
        self.name = name
        self.version = version
    }

    static func validateName(_ name: String) -> String? {
        let parts = name.split(separator: "/", omittingEmptySubsequences: false)
        for part in parts {
            if let reason = PackageRequirement.validateName(String(part)) { return reason }
        }
        return nil
    }

    /// `1.2.3`, `~> 1.0`, `>= 2.0, < 3.0` — operators `=`, `!=`, `>`, `>=`, `<`, `<=`, `~>` and dotted versions.
    static func isValidVersion(_ text: String) -> Bool {
        let clauses = text.split(separator: ",", omittingEmptySubsequences: false)
        return !clauses.isEmpty
            && clauses.allSatisfy { clause in
                var rest = clause.trimmingCharacters(in: .whitespaces)
                for op in ["~>", ">=", "<=", "!=", ">", "<", "="] where rest.hasPrefix(op) {
                    rest = String(rest.dropFirst(op.count)).trimmingCharacters(in: .whitespaces)
                    break
                }
                let pieces = rest.split(separator: ".", omittingEmptySubsequences: false)
                return !rest.isEmpty
                    && pieces.allSatisfy { piece in
                        !piece.isEmpty
                            && piece.unicodeScalars.allSatisfy {
                                $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "-")
                            }
                    }
            }
    }
}

/// A `major.minor.patch` version (pre-release and build suffixes kept for ordering only as text).
struct SemanticVersion: Comparable, Sendable {
    var major: Int
    var minor: Int
    var patch: Int
    var suffix: String

    init?(_ text: String) {
        var core = Substring(text)
        var suffix = ""
        if let cut = core.firstIndex(where: { $0 == "-" || $0 == "+" }) {
            suffix = String(core[cut...])
            core = core[..<cut]
            if suffix.count < 2 { return nil }
        }
        let parts = core.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3,
            parts.allSatisfy({ !$0.isEmpty && $0.unicodeScalars.allSatisfy { ("0"..."9").contains($0) } }),
            let major = Int(parts[0]), let minor = Int(parts[1]), let patch = Int(parts[2])
        else { return nil }
        let suffixOK = suffix.unicodeScalars.allSatisfy {
            $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "-+.".unicodeScalars.contains($0))
        }
        guard suffixOK else { return nil }
        self.major = major
        self.minor = minor
        self.patch = patch
        self.suffix = suffix
    }

    static func < (lhs: SemanticVersion, rhs: SemanticVersion) -> Bool {
        if lhs.major != rhs.major { return lhs.major < rhs.major }
        if lhs.minor != rhs.minor { return lhs.minor < rhs.minor }
        if lhs.patch != rhs.patch { return lhs.patch < rhs.patch }
        // A pre-release sorts before its release.
        if lhs.suffix.isEmpty != rhs.suffix.isEmpty { return !lhs.suffix.isEmpty }
        return lhs.suffix < rhs.suffix
    }
}
