import Foundation

/// The module dependency DAG: levels, a topological order, direct dependencies.
public struct DependencyGraph: Sendable {
    /// Levels: level 0 has no dependencies; a module sits one level above its highest dependency.
    /// Each level lists its modules in manifest order.
    public var levels: [[String]]
    /// Every module after all its dependencies (levels flattened).
    public var topologicalOrder: [String]
    private var directDependencies: [String: [String]]

    /// Builds the graph; unknown dependencies and cycles are errors, attributed to `modules.json`.
    public init(modules: [Module]) throws(ManifestError) {
        try self.init(modules: modules, file: "modules.json")
    }

    /// Builds the graph, naming `file` in problems.
    init(modules: [Module], file: String) throws(ManifestError) {
        let problems = DependencyGraph.problems(in: modules, file: file)
        if !problems.isEmpty { throw ManifestError(problems: problems) }
        var deps: [String: [String]] = [:]
        for module in modules where deps[module.name] == nil {
            deps[module.name] = module.dependsOn
        }
        var level: [String: Int] = [:]
        // Acyclic: iterate until every module has a level (at most modules.count rounds).
        var remaining = modules.map(\.name)
        while !remaining.isEmpty {
            var next: [String] = []
            for name in remaining {
                let dependencyLevels = (deps[name] ?? []).map { level[$0] }
                if dependencyLevels.allSatisfy({ $0 != nil }) {
                    level[name] = (dependencyLevels.compactMap { $0 }.max() ?? -1) + 1
                } else {
                    next.append(name)
                }
            }
            if next.count == remaining.count { break }  // unreachable for a validated DAG
            remaining = next
        }
        var levels: [[String]] = []
        for module in modules {
            guard let value = level[module.name] else { continue }
            while levels.count <= value { levels.append([]) }
            if !levels[value].contains(module.name) { levels[value].append(module.name) }
        }
        self.levels = levels
        self.topologicalOrder = levels.flatMap { $0 }
        self.directDependencies = deps
    }

    /// The direct dependencies of `module` as declared; empty for an unknown module.
    public func dependencies(of module: String) -> [String] {
        directDependencies[module] ?? []
    }

    /// Unknown dependencies and cycles of `modules`, as problems on `file`.
    static func problems(in modules: [Module], file: String) -> [ManifestProblem] {
        var problems: [ManifestProblem] = []
        var index: [String: Int] = [:]
        for (offset, module) in modules.enumerated() where index[module.name] == nil {
            index[module.name] = offset
        }
        for (offset, module) in modules.enumerated() {
            for (depOffset, dependency) in module.dependsOn.enumerated() where index[dependency] == nil {
                problems.append(
                    ManifestProblem(
                        file: file, field: "modules[\(offset)].dependsOn[\(depOffset)]",
                        message: "module \"\(module.name)\" depends on unknown module \"\(dependency)\""))
            }
        }
        for cycle in cycles(in: modules, index: index) {
            problems.append(
                ManifestProblem(
                    file: file, field: nil, message: "dependency cycle: " + cycle.joined(separator: " → ")))
        }
        return problems
    }

    /// Each distinct cycle found by a depth-first search in manifest order, printed starting and ending
    /// at the member declared last in the manifest (usually the highest-level module):
    /// `["Order", "Article", "Order"]`.
    static func cycles(in modules: [Module], index: [String: Int]) -> [[String]] {
        enum Mark { case visiting, done }
        var marks: [Int: Mark] = [:]
        var stack: [Int] = []
        var found: [[String]] = []
        var seen: Set<[Int]> = []

        func visit(_ node: Int) {
            marks[node] = .visiting
            stack.append(node)
            for dependency in modules[node].dependsOn {
                guard let next = index[dependency] else { continue }
                switch marks[next] {
                case .visiting:
                    guard let start = stack.lastIndex(of: next) else { continue }
                    var cycle = Array(stack[start...])
                    if let highest = cycle.indices.max(by: { cycle[$0] < cycle[$1] }) {
                        cycle = Array(cycle[highest...] + cycle[..<highest])
                    }
                    if seen.insert(cycle).inserted {
                        found.append((cycle + [cycle[0]]).map { modules[$0].name })
                    }
                case .done:
                    continue
                case nil:
                    visit(next)
                }
            }
            stack.removeLast()
            marks[node] = .done
        }

        for node in modules.indices where marks[node] == nil && index[modules[node].name] == node {
            visit(node)
        }
        return found
    }
}
