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
