import Foundation

/// A loaded and fully validated superproject description.
public struct Project: Sendable {
    /// The module manifest.
    public var manifest: ModuleManifest
    /// The tenants, in file order (sorted by path).
    public var tenants: [Tenant]
    /// The module dependency graph.
    public var graph: DependencyGraph
    /// Tenant files that did not load (only with ``ValidationOptions/keepInvalidTenants``): these tenants are
    /// blocked by roll and reported by audit and verify as `invalid-tenant-file`; every other tenant works as usual.
    public var invalidTenants: [InvalidTenant] = []

    /// Creates a project from already validated parts.
    public init(manifest: ModuleManifest, tenants: [Tenant], graph: DependencyGraph) {
        self.manifest = manifest
        self.tenants = tenants
        self.graph = graph
    }

    /// Creates a project from a manifest and tenants, computing the dependency graph (throws for a cycle or an
    /// unknown dependency).
    public init(manifest: ModuleManifest, tenants: [Tenant]) throws(ManifestError) {
        self.init(manifest: manifest, tenants: tenants, graph: try DependencyGraph(modules: manifest.modules))
    }

    /// The module called `name`, if any.
    public func module(named name: String) -> Module? {
        manifest.modules.first { $0.name == name }
    }

    /// The tenant whose id is `id`, else the tenant whose branch is `id`.
    public func tenant(id: String) -> Tenant? {
        tenants.first { $0.id == id } ?? tenants.first { $0.branch == id }
    }

    /// The module whose gitlink is at `path`, if any.
    public func module(atPath path: String) -> Module? {
        manifest.modules.first { $0.path == path }
    }

    /// The invalid tenant whose file stem or branch is `id`.
    public func invalidTenant(id: String) -> InvalidTenant? {
        invalidTenants.first { $0.id == id } ?? invalidTenants.first { $0.branch == id }
    }

    /// The tenant whose superproject branch is `branch`.
    public func tenant(onBranch branch: String) -> Tenant? {
        tenants.first { $0.branch == branch }
    }

    /// The general branch of a module's repository: the module's own `generalBranch`, else the manifest's.
    public func generalBranch(of module: Module) -> String {
        manifest.generalBranch(of: module)
    }

    /// The branch rule: the module branch a tenant follows — its own module branch (``Tenant/moduleBranch(for:)``:
    /// the branch `branches` maps the module to, else the tenant's branch) where the tenant customises the module,
    /// else the module's general branch. `nil` (the general view) always follows the general branch.
    public func branch(of module: Module, for tenant: Tenant?) -> String {
        guard let tenant, tenant.customises(module.name) else { return generalBranch(of: module) }
        return tenant.moduleBranch(for: module.name)
    }

    /// The branches of `module` named for the tenants (valid or not), one per tenant: each tenant's own module branch
    /// (``Tenant/moduleBranch(for:)``), where merged-back commits are looked for.
    public func tenantModuleBranches(of module: Module) -> [String] {
        tenants.map { $0.moduleBranch(for: module.name) } + invalidTenants.map(\.branch)
    }

    /// The effective active set (thesis rule): drop every active module whose dependencies are not all
    /// active, and repeat until nothing changes. Names not in the manifest are ignored.
    public func activeSet(for tenant: Tenant) -> ActiveSet {
        Project.activeSet(declared: tenant.modules, modules: manifest.modules)
    }

    static func activeSet(declared: [String], modules: [Module]) -> ActiveSet {
        let declaredSet = Set(declared)
        var active = modules.filter { declaredSet.contains($0.name) }
        var dropped: [DroppedModule] = []
        while true {
            let names = Set(active.map(\.name))
            let round = active.compactMap { module -> DroppedModule? in
                let missing = module.dependsOn.filter { !names.contains($0) }
                return missing.isEmpty ? nil : DroppedModule(module: module.name, missing: missing)
            }
            if round.isEmpty { break }
            let droppedNames = Set(round.map(\.module))
            active.removeAll { droppedNames.contains($0.name) }
            dropped += round
        }
        var effective: [String] = []
        var seen: Set<String> = []  // a set, not a scan of `effective` per module (1000 tenants × 50 modules)
        for module in active where seen.insert(module.name).inserted { effective.append(module.name) }
        return ActiveSet(effective: effective, dropped: dropped)
    }
}

/// A tenant whose file is invalid: named by its file, with every problem of the file.
public struct InvalidTenant: Sendable, Equatable {
    /// The tenant id the file name gives (`Tenants/t2.json` → `t2`).
    public var id: String
    /// The display path of the file.
    public var file: String
    /// The tenant's superproject branch: the file's `branch` when it decoded, else the id.
    public var branch: String
    /// What is wrong with the file.
    public var problems: [ManifestProblem]

    public init(id: String, file: String, branch: String, problems: [ManifestProblem]) {
        self.id = id
        self.file = file
        self.branch = branch
        self.problems = problems
    }

    /// Every problem in one line.
    public var summary: String { problems.map(\.description).joined(separator: "; ") }

    /// The tenant as far as its file is known: its id, branch and file, no modules.
    public var asTenant: Tenant { Tenant(id: id, branch: branch, modules: [], customised: [], file: file) }
}
