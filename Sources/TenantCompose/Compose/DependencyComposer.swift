import Foundation

/// One package of the tenant's umbrella package: the merged requirement of every active module that needs it.
public struct ComposedPackage: Sendable, Equatable {
    /// The URL (as the first module in dependency order spells it).
    public var url: String
    /// SwiftPM's identity (`qrcode`).
    public var identity: String
    /// The merged rule.
    public var rule: PackageRequirement.Rule
    /// Every product any module uses, sorted.
    public var products: [String]
    /// The modules that need it, in dependency order.
    public var requiredBy: [String]
    /// Product → the Swift modules it brings, for the products a description says it of (united over the modules).
    public var modules: [String: [String]] = [:]

    /// The Swift modules to re-export: every module a product is declared to bring, sorted.
    public var imports: [String] { Array(Set(modules.values.joined())).sorted() }
}

/// The strictest minimum version of one platform over the active modules and the tenant.
public struct ComposedPlatform: Sendable, Equatable, Codable {
    /// The platform as `Package.swift` spells it (`iOS`).
    public var platform: String
    /// The highest minimum version required.
    public var version: String
    /// Who requires that version: modules in dependency order, then `tenant <id>`.
    public var requiredBy: [String]

    /// Creates a platform requirement.
    public init(platform: String, version: String, requiredBy: [String]) {
        self.platform = platform
        self.version = version
        self.requiredBy = requiredBy
    }
}

/// One pod of the tenant's Podfile.
public struct ComposedPod: Sendable, Equatable {
    /// The pod name.
    public var name: String
    /// The requirement, if any module gave one.
    public var version: String?
    /// The modules that need it, in dependency order.
    public var requiredBy: [String]
}

/// The union of the active modules' third-party dependencies (the thesis' combinepods).
public struct ComposedDependencies: Sendable, Equatable {
    /// Packages sorted by identity.
    public var packages: [ComposedPackage]
    /// Pods sorted by name.
    public var pods: [ComposedPod]
    /// The strictest minimum version of every platform named, in ``PlatformVersions/names`` order.
    public var platforms: [ComposedPlatform] = []
}

/// Merges the active modules' `packages` and `pods`; incompatible requirements are an error naming both modules.
public enum DependencyComposer {
    /// Merges `descriptions` (module name and description, active modules in dependency order). Inactive modules
    /// must not be passed: only what is given appears.
    /// The tenant's own `platforms` count too, when `tenant` is given.
    public static func compose(
        _ descriptions: [(module: String, description: ModuleDescription)], tenant: Tenant? = nil
    ) throws(ComposeError) -> ComposedDependencies {
        var problems: [ComposeProblem] = []
        var packages: [String: ComposedPackage] = [:]
        var locations: [String: String] = [:]  // identity → location of the first URL
        var firstRule: [String: (module: String, rule: PackageRequirement.Rule)] = [:]
        var pods: [String: ComposedPod] = [:]
        for (module, description) in descriptions {
            for package in description.packages {
                let identity = package.identity
                guard var merged = packages[identity], let first = firstRule[identity] else {
                    packages[identity] = ComposedPackage(
                        url: package.url, identity: identity, rule: package.rule,
                        products: Array(Set(package.products)).sorted(), requiredBy: [module],
                        modules: package.modules)
                    locations[identity] = package.location
                    firstRule[identity] = (module, package.rule)
                    continue
                }
                if locations[identity] != package.location {
                    problems.append(
                        ComposeProblem(
                            .incompatibleRequirements,
                            "modules \(merged.requiredBy.joined(separator: ", ")) and \(module) name two packages with "
                                + "the identity \"\(identity)\": \(merged.url) and \(package.url) (SwiftPM cannot "
                                + "build both)"))
                    continue
                }
                guard let rule = merge(merged.rule, package.rule) else {
                    let others = merged.requiredBy
                    problems.append(
                        ComposeProblem(
                            .incompatibleRequirements,
                            "incompatible requirements for package \(merged.url): module \(first.module) needs "
                                + "\(first.rule.summary)"
                                + (others.count > 1
                                    ? " (merged with \(others.dropFirst().joined(separator: ", ")) to "
                                        + "\(merged.rule.summary))" : "")
                                + ", module \(module) needs \(package.rule.summary)"))
                    continue
                }
                merged.rule = rule
                merged.products = Array(Set(merged.products + package.products)).sorted()
                for (product, modules) in package.modules {
                    merged.modules[product] = Array(Set((merged.modules[product] ?? []) + modules)).sorted()
                }
                if !merged.requiredBy.contains(module) { merged.requiredBy.append(module) }
                packages[identity] = merged
            }
            for pod in description.pods {
                guard var merged = pods[pod.name] else {
                    pods[pod.name] = ComposedPod(name: pod.name, version: pod.version, requiredBy: [module])
                    continue
                }
                if let version = pod.version, let existing = merged.version, normalised(version) != normalised(existing)
                {
                    problems.append(
                        ComposeProblem(
                            .incompatibleRequirements,
                            "incompatible requirements for pod \(pod.name): module "
                                + "\(merged.requiredBy.joined(separator: ", ")) needs \"\(existing)\", module \(module) "
                                + "needs \"\(version)\" (declare the same requirement in both modules)"))
                    continue
                }
                merged.version = merged.version ?? pod.version
                if !merged.requiredBy.contains(module) { merged.requiredBy.append(module) }
                pods[pod.name] = merged
            }
        }
        guard problems.isEmpty else { throw ComposeError(problems: problems) }
        var platforms = descriptions.map { (requirer: $0.module, platforms: $0.description.platforms) }
        if let tenant { platforms.append(("tenant \(tenant.id)", tenant.platforms)) }
        return ComposedDependencies(
            packages: packages.values.sorted { $0.identity < $1.identity },
            pods: pods.values.sorted { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) },
            platforms: strictest(platforms))
    }

    /// Per platform, the highest minimum version and who requires it.
    static func strictest(_ requirements: [(requirer: String, platforms: [String: String])]) -> [ComposedPlatform] {
        PlatformVersions.names.compactMap { name in
            var result: ComposedPlatform?
            for (requirer, platforms) in requirements {
                guard let version = platforms[name] else { continue }
                if let current = result, !PlatformVersions.precedes(current.version, version) {
                    if !PlatformVersions.precedes(version, current.version) { result?.requiredBy.append(requirer) }
                } else {
                    result = ComposedPlatform(platform: name, version: version, requiredBy: [requirer])
                }
            }
            return result
        }
    }

    /// The rule satisfying both, or nil when no version does. `from` means up to the next major version.
    static func merge(_ a: PackageRequirement.Rule, _ b: PackageRequirement.Rule) -> PackageRequirement.Rule? {
        switch (a, b) {
        case (.from(let x), .from(let y)):
            guard let vx = SemanticVersion(x), let vy = SemanticVersion(y), vx.major == vy.major else { return nil }
            return vx < vy ? b : a
        case (.exact(let x), .exact(let y)):
            guard let vx = SemanticVersion(x), let vy = SemanticVersion(y), vx == vy else { return nil }
            return a
        case (.exact(let e), .from(let f)), (.from(let f), .exact(let e)):
            guard let ve = SemanticVersion(e), let vf = SemanticVersion(f), ve.major == vf.major, !(ve < vf) else {
                return nil
            }
            return .exact(e)
        case (.branch(let x), .branch(let y)):
            return x == y ? a : nil
        case (.revision(let x), .revision(let y)):
            return x == y ? a : nil
        default:
            return nil
        }
    }

    static func normalised(_ version: String) -> String {
        version.split(separator: ",").map {
            $0.split(whereSeparator: { $0 == " " }).joined(separator: " ")
        }.joined(separator: ", ")
    }
}

/// Writes the umbrella package `TenantDependencies/Package.swift` and its one source file.
public enum PackageManifestWriter {
    /// The package and product name.
    public static let name = "TenantDependencies"

    /// `Package.swift`: one library product whose target depends on every required product.
    public static func manifest(_ dependencies: ComposedDependencies, tenant: String) -> Data {
        var out = "// swift-tools-version:5.9\n"
        out += "// Generated by `tenantctl compose` for tenant \(lineSafe(tenant)) from its active modules' "
        out += "ModuleDescription.json. Do not edit.\n"
        out += "import PackageDescription\n\n"
        out += "let package = Package(\n"
        out += "    name: \(literal(name)),\n"
        if !dependencies.platforms.isEmpty {
            out +=
                "    platforms: ["
                + dependencies.platforms.map { ".\($0.platform)(\(literal($0.version)))" }.joined(separator: ", ")
                + "],\n"
        }
        out += "    products: [\n"
        out += "        .library(name: \(literal(name)), targets: [\(literal(name))])\n"
        out += "    ],\n"
        if dependencies.packages.isEmpty {
            out += "    dependencies: [],\n"
        } else {
            out += "    dependencies: [\n"
            out +=
                dependencies.packages.map { package in
                    "        // \(package.requiredBy.map(lineSafe).joined(separator: ", "))\n"
                        + "        .package(url: \(literal(package.url)), \(argument(package.rule)))"
                }.joined(separator: ",\n") + ",\n"
            out += "    ],\n"
        }
        out += "    targets: [\n"
        out += "        .target(\n"
        out += "            name: \(literal(name)),\n"
        let products = dependencies.packages.flatMap { package in
            package.products.map {
                ".product(name: \(literal($0)), package: \(literal(PackageRequirement.repositoryName(of: package.url))))"
            }
        }
        if products.isEmpty {
            out += "            dependencies: []\n"
        } else {
            out += "            dependencies: [\n"
            out += products.map { "                " + $0 }.joined(separator: ",\n") + ",\n"
            out += "            ]\n"
        }
        out += "        )\n"
        out += "    ]\n"
        out += ")\n"
        return Data(out.utf8)
    }

    /// `Sources/TenantDependencies/Exports.swift`: re-exports the Swift modules the descriptions say their
    /// products bring. A product named without its modules is linked, not imported: a product's name is not always
    /// a module's, and a guessed import breaks the build.
    public static func exports(_ dependencies: ComposedDependencies) -> Data {
        var out = "// Generated by `tenantctl compose`. Do not edit.\n"
        let modules = Set(dependencies.packages.flatMap(\.imports)).filter(isIdentifier).sorted()
        if dependencies.packages.isEmpty {
            out += "// The tenant's active modules need no package.\n"
        } else if modules.isEmpty {
            out += "// No product declares the modules it brings, so nothing is re-exported: import them where used.\n"
        }
        for module in modules { out += "@_exported import \(module)\n" }
        return Data(out.utf8)
    }

    static func argument(_ rule: PackageRequirement.Rule) -> String {
        switch rule {
        case .from(let value): return "from: \(literal(value))"
        case .exact(let value): return "exact: \(literal(value))"
        case .branch(let value): return "branch: \(literal(value))"
        case .revision(let value): return "revision: \(literal(value))"
        }
    }

    /// A Swift string literal of `text` (validated input has no quotes or backslashes; escaped anyway).
    static func literal(_ text: String) -> String {
        Backslashed.quoted(text) { scalar in
            Backslashed.unicodeControl(scalar) { "\\u{\(String($0, radix: 16))}" }
        }
    }

    static func lineSafe(_ text: String) -> String {
        String(String.UnicodeScalarView(text.unicodeScalars.filter { $0.properties.generalCategory != .control }))
    }

    static func isIdentifier(_ text: String) -> Bool {
        guard let first = text.unicodeScalars.first, first.properties.isAlphabetic || first == "_" else {
            return false
        }
        return text.unicodeScalars.allSatisfy {
            $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "_")
        }
    }
}

/// Writes the `Podfile` for the pods of the active modules.
public enum PodfileWriter {
    /// The Podfile: the pods in a `tenant_pods` function, used by a target named by `TENANTCTL_POD_TARGET`
    /// (default `App`). A project with its own Podfile can instead `eval` this file and call `tenant_pods`.
    public static func podfile(_ pods: [ComposedPod], tenant: String) -> Data {
        var out = "# Generated by `tenantctl compose` for tenant \(PackageManifestWriter.lineSafe(tenant)) from its "
        out += "active modules' ModuleDescription.json. Do not edit.\n\n"
        out += "def tenant_pods\n"
        for pod in pods {
            var line = "  pod \(quoted(pod.name))"
            if let version = pod.version {
                line +=
                    ", "
                    + version.split(separator: ",").map { quoted($0.trimmingCharacters(in: .whitespaces)) }
                    .joined(separator: ", ")
            }
            out += line + "  # \(pod.requiredBy.joined(separator: ", "))\n"
        }
        out += "end\n\n"
        out += "target ENV.fetch('TENANTCTL_POD_TARGET', 'App') do\n"
        out += "  tenant_pods\n"
        out += "end\n"
        return Data(out.utf8)
    }

    /// A Ruby single-quoted string (validated input has no quotes or backslashes; escaped anyway).
    static func quoted(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "\\'") + "'"
    }
}
