import Foundation

/// Which tenants and modules a roll covers (empty = all).
public struct RollFilter: Sendable, Equatable {
    /// Tenant ids; empty means every tenant.
    public var tenants: [String]
    /// Module names that move; empty means every module.
    public var modules: [String]

    public init(tenants: [String] = [], modules: [String] = []) {
        self.tenants = tenants
        self.modules = modules
    }
}

/// A content conflict (or another reason a tenant cannot roll) in one repository.
public struct RollConflict: Sendable, Equatable, Codable {
    /// `superproject` or a module name.
    public var repository: String
    /// Conflicting paths (may be empty when `reason` says why).
    public var paths: [String]
    /// Why, in words.
    public var reason: String

    public init(repository: String, paths: [String], reason: String) {
        self.repository = repository
        self.paths = paths
        self.reason = reason
    }
}

/// Merge the general branch of a module into its tenant branch.
public struct ModuleMerge: Sendable, Equatable, Codable {
    /// Module name.
    public var module: String
    /// Tenant id.
    public var tenant: String
    /// The module branch merged into (the tenant's branch).
    public var branch: String
    /// Tip of the tenant branch before the merge (first parent).
    public var ours: String
    /// Tip of the module's general branch (second parent).
    public var theirs: String

    /// The key of this merge among all of a roll.
    var key: MergeKey { MergeKey(module: module, tenant: tenant) }
}

/// A module merge of one tenant.
struct MergeKey: Hashable, Sendable {
    var module: String
    var tenant: String
}

/// Where a module's final pin on a tenant branch comes from.
public enum PinTarget: Sendable, Equatable {
    /// A known commit.
    case commit(String)
    /// The tip of the module's tenant branch after its merge (a merge commit, or `tip` when no merge is needed).
    case tenantBranch(module: String, tip: String)
}

/// One module pin that changes.
public struct PinChange: Sendable, Equatable, Codable {
    /// Module name.
    public var module: String
    /// Gitlink path.
    public var path: String
    /// The pin before (nil: the module was not pinned).
    public var old: String?
    /// The pin after.
    public var new: String

    public init(module: String, path: String, old: String?, new: String) {
        self.module = module
        self.path = path
        self.old = old
        self.new = new
    }
}

/// The re-pin commit on the superproject's general branch.
public struct GeneralRepin: Sendable, Equatable {
    /// The general branch tip it is based on (its parent).
    public var base: String
    /// The gitlinks that move to the modules' general tips.
    public var changes: [PinChange]
}

/// What roll does for one tenant.
public struct TenantPlan: Sendable, Equatable {
    /// The tenant.
    public var tenant: Tenant
    /// Tip of the tenant's superproject branch (nil when it is missing).
    public var tip: String?
    /// Reasons the tenant cannot roll, known before any merge.
    public var problems: [RollConflict]
    /// Whether the superproject general branch must be merged into the tenant branch.
    public var mergeGeneral: Bool
    /// Module path → final pin rule.
    public var pins: [String: PinTarget]
    /// Module name for every path in ``pins``.
    public var moduleNames: [String: String]
    /// Gitlink paths of modules removed on the general branch (resolved by deleting them).
    public var removedPaths: [String]
    /// The tenant's pins before the roll.
    public var oldPins: [String: String]
}

/// The whole roll, computed from a ``RollState`` without touching git.
public struct RollPlan: Sendable, Equatable {
    /// The superproject's general branch.
    public var generalBranch: String
    /// Superproject general tip before the roll.
    public var generalTip: String
    /// Modules of the general manifest.
    public var modules: [Module]
    /// The general branch re-pin (nil when the pins are current).
    public var repin: GeneralRepin?
    /// Every module merge needed, in module then tenant order.
    public var moduleMerges: [ModuleMerge]
    /// Selected tenants, in id order.
    public var tenants: [TenantPlan]
}

/// Turns an observed ``RollState`` into a ``RollPlan`` (pure).
public enum RollPlanner {
    /// Plans the roll. Throws for a filter naming an unknown tenant or module, or a module without a general branch.
    public static func plan(_ state: RollState, filter: RollFilter = RollFilter()) throws -> RollPlan {
        let project = state.project
        let general = state.generalBranch
        guard let generalTip = state.superproject.branches[general] else {
            throw RollError("the superproject has no branch \(general) on its remote")
        }
        try check(filter, against: project)
        let moving = project.manifest.modules.filter { filter.modules.isEmpty || filter.modules.contains($0.name) }
        let generalTips = try moduleGeneralTips(state)
        let repin = generalRepin(state, moving: moving, generalTips: generalTips, generalTip: generalTip)

        var merges: [ModuleMerge] = []
        var tenants: [TenantPlan] = []
        let selected = project.tenants.filter { filter.tenants.isEmpty || filter.tenants.contains($0.id) }
            .sorted { $0.id < $1.id }
        for tenant in selected {
            let planned = planTenant(
                tenant, state: state, moving: Set(moving.map(\.name)), generalTips: generalTips,
                generalMoves: repin != nil)
            tenants.append(planned.plan)
            merges += planned.merges
        }
        let order = Dictionary(uniqueKeysWithValues: project.manifest.modules.enumerated().map { ($1.name, $0) })
        merges.sort { (order[$0.module] ?? 0, $0.tenant) < (order[$1.module] ?? 0, $1.tenant) }
        return RollPlan(
            generalBranch: general, generalTip: generalTip, modules: project.manifest.modules, repin: repin,
            moduleMerges: merges, tenants: tenants)
    }

    /// Refuses a filter naming a tenant or module the project does not have.
    static func check(_ filter: RollFilter, against project: Project) throws {
        let general = project.manifest.generalBranch
        let unknownTenants = filter.tenants.filter { id in !project.tenants.contains { $0.id == id } }
        guard unknownTenants.isEmpty else {
            throw RollError("unknown tenant \(unknownTenants.joined(separator: ", ")) (not in Tenants/ on \(general))")
        }
        let unknownModules = filter.modules.filter { project.module(named: $0) == nil }
        guard unknownModules.isEmpty else {
            throw RollError(
                "unknown module \(unknownModules.joined(separator: ", ")) (not in modules.json on \(general))")
        }
    }

    /// Module name → the tip of the module's general branch.
    static func moduleGeneralTips(_ state: RollState) throws -> [String: String] {
        var tips: [String: String] = [:]
        for module in state.project.manifest.modules {
            let branch = state.project.generalBranch(of: module)
            guard let tip = state.repositories[module.name]?.branches[branch] else {
                throw RollError("module \(module.name) has no branch \(branch) on its remote")
            }
            tips[module.name] = tip
        }
        return tips
    }

    /// The general branch's gitlinks that move to their module's general tip (nil when all are current).
    static func generalRepin(
        _ state: RollState, moving: [Module], generalTips: [String: String], generalTip: String
    ) -> GeneralRepin? {
        let generalPins = state.superproject.pins[state.generalBranch] ?? [:]
        let changes = moving.compactMap { module -> PinChange? in
            guard let new = generalTips[module.name] else { return nil }
            let old = generalPins[module.path]
            return old == new ? nil : PinChange(module: module.name, path: module.path, old: old, new: new)
        }
        return changes.isEmpty ? nil : GeneralRepin(base: generalTip, changes: changes)
    }

    /// One tenant: the pin rule for every module, the module merges it needs, and what keeps it from rolling.
    static func planTenant(
        _ tenant: Tenant, state: RollState, moving: Set<String>, generalTips: [String: String], generalMoves: Bool
    ) -> (plan: TenantPlan, merges: [ModuleMerge]) {
        let project = state.project
        var problems: [RollConflict] = []
        let tip = state.superproject.branches[tenant.branch]
        if tip == nil {
            problems.append(
                RollConflict(
                    repository: "superproject", paths: [],
                    reason: "branch \(tenant.branch) is missing on the superproject's remote"))
        }
        for name in tenant.customised where project.module(named: name) == nil {
            problems.append(
                RollConflict(
                    repository: name, paths: [],
                    reason: "module \(name) is customised by \(tenant.id) but removed on \(state.generalBranch)"))
        }
        var pins: [String: PinTarget] = [:]
        var names: [String: String] = [:]
        var merges: [ModuleMerge] = []
        let oldPins = state.superproject.pins[tenant.branch] ?? [:]
        for module in project.manifest.modules {
            names[module.path] = module.name
            guard moving.contains(module.name) else {
                if let old = oldPins[module.path] { pins[module.path] = .commit(old) }
                continue
            }
            let branch = project.branch(of: module, for: tenant)
            guard branch == tenant.branch else {
                if let generalTip = generalTips[module.name] { pins[module.path] = .commit(generalTip) }
                continue
            }
            let repository = state.repositories[module.name]
            guard let branchTip = repository?.branches[branch] else {
                problems.append(
                    RollConflict(
                        repository: module.name, paths: [],
                        reason: "module \(module.name) has no branch \(branch) on its remote"))
                continue
            }
            pins[module.path] = .tenantBranch(module: module.name, tip: branchTip)
            if repository?.containGeneral.contains(branch) != true, let generalTip = generalTips[module.name] {
                merges.append(
                    ModuleMerge(
                        module: module.name, tenant: tenant.id, branch: branch, ours: branchTip, theirs: generalTip))
            }
        }
        let currentPaths = Set(project.manifest.modules.map(\.path))
        let removed = (state.superproject.modulePaths[tenant.branch] ?? []).filter { !currentPaths.contains($0) }
            .sorted()
        let merge = generalMoves || !state.superproject.containGeneral.contains(tenant.branch)
        let plan = TenantPlan(
            tenant: tenant, tip: tip, problems: problems, mergeGeneral: merge, pins: pins, moduleNames: names,
            removedPaths: removed, oldPins: oldPins)
        return (plan, merges)
    }
}
