import Foundation

/// A module dropped from a tenant's effective active set, and why.
public struct DroppedModule: Sendable, Equatable {
    /// The dropped module.
    public var module: String
    /// Its dependencies that were not in the active set when it was dropped.
    public var missing: [String]

    /// Creates a dropped-module record.
    public init(module: String, missing: [String]) {
        self.module = module
        self.missing = missing
    }
}

/// A tenant's effective active modules after the thesis' drop rule.
public struct ActiveSet: Sendable, Equatable {
    /// The effective active modules in manifest order.
    public var effective: [String]
    /// The modules dropped, in the order they were dropped.
    public var dropped: [DroppedModule]

    /// Creates an active set.
    public init(effective: [String], dropped: [DroppedModule]) {
        self.effective = effective
        self.dropped = dropped
    }
}

/// ``Project/activeSet(for:)`` for many tenants of one manifest (the tenant files' loader): the modules' names and
/// dependencies are looked up once, and each tenant's set is worked out on flags by module position instead of sets
/// of names made in every round. The same result as `Project.activeSet(declared:modules:)`.
package struct ActiveSetRule: Sendable {
    let modules: [Module]
    /// Module name → position; nil when two modules share a name (an invalid manifest: the rule by names is used).
    let positions: [String: Int]?
    /// Each module's dependencies with their positions (nil: not a module of the manifest, never active).
    let dependencies: [[(name: String, position: Int?)]]

    package init(modules: [Module]) {
        self.modules = modules
        var positions: [String: Int] = [:]
        var unique = true
        for (position, module) in modules.enumerated() where positions.updateValue(position, forKey: module.name) != nil
        {
            unique = false
        }
        self.positions = unique ? positions : nil
        dependencies = modules.map { module in module.dependsOn.map { ($0, positions[$0]) } }
    }

    package func activeSet(declared: [String]) -> ActiveSet {
        guard let positions else { return Project.activeSet(declared: declared, modules: modules) }
        var active = [Bool](repeating: false, count: modules.count)
        for name in declared { if let position = positions[name] { active[position] = true } }
        var dropped: [DroppedModule] = []
        while true {
            var round: [(position: Int, missing: [String])] = []
            for position in modules.indices where active[position] {
                let missing = dependencies[position].filter { dependency in
                    dependency.position.map { !active[$0] } ?? true
                }.map(\.name)
                if !missing.isEmpty { round.append((position, missing)) }
            }
            if round.isEmpty { break }
            for (position, missing) in round {
                active[position] = false
                dropped.append(DroppedModule(module: modules[position].name, missing: missing))
            }
        }
        let effective = modules.indices.filter { active[$0] }.map { modules[$0].name }
        return ActiveSet(effective: effective, dropped: dropped)
    }
}
