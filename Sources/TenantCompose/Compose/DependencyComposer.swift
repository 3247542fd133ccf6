import Foundation

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
