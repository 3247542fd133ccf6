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

/// Merge `general_dev` of a module into its tenant branch.
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
    public var tenant: RollTenant
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
    /// `general_dev`.
    public var generalBranch: String
    /// Superproject general tip before the roll.
    public var generalTip: String
    /// Modules of the general manifest.
    public var modules: [RollModule]
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
        let general = state.generalBranch
        guard let generalTip = state.superproject.branches[general] else {
            throw RollError("the superproject has no branch \(general) on origin")
        }
        let knownTenants = Set(state.tenants.map(\.id))
        let unknownTenants = filter.tenants.filter { !knownTenants.contains($0) }
        guard unknownTenants.isEmpty else {
            throw RollError("unknown tenant \(unknownTenants.joined(separator: ", ")) (not in Tenants/ on \(general))")
        }
        let knownModules = Set(state.modules.map(\.name))
        let unknownModules = filter.modules.filter { !knownModules.contains($0) }
        guard unknownModules.isEmpty else {
            throw RollError(
                "unknown module \(unknownModules.joined(separator: ", ")) (not in modules.json on \(general))")
        }
        let moving = state.modules.filter { filter.modules.isEmpty || filter.modules.contains($0.name) }
        var generalTips: [String: String] = [:]
        for module in state.modules {
            guard let tip = state.repositories[module.name]?.branches[general] else {
                throw RollError("module \(module.name) has no branch \(general) on its remote")
            }
            generalTips[module.name] = tip
        }
        let generalPins = state.superproject.pins[general] ?? [:]
        let changes = moving.compactMap { module -> PinChange? in
            let new = generalTips[module.name] ?? ""
            let old = generalPins[module.path]
            return old == new ? nil : PinChange(module: module.name, path: module.path, old: old, new: new)
        }
        let repin = changes.isEmpty ? nil : GeneralRepin(base: generalTip, changes: changes)
        let currentPaths = Set(state.modules.map(\.path))

        var merges: [ModuleMerge] = []
        var tenants: [TenantPlan] = []
        let selected = state.tenants.filter { filter.tenants.isEmpty || filter.tenants.contains($0.id) }
            .sorted { $0.id < $1.id }
        for tenant in selected {
            var problems: [RollConflict] = []
            let tip = state.superproject.branches[tenant.branch]
            if tip == nil {
                problems.append(
                    RollConflict(
                        repository: "superproject", paths: [],
                        reason: "branch \(tenant.branch) is missing on the superproject's remote"))
            }
            var pins: [String: PinTarget] = [:]
            var names: [String: String] = [:]
            let oldPins = state.superproject.pins[tenant.branch] ?? [:]
            for name in tenant.customised where !knownModules.contains(name) {
                problems.append(
                    RollConflict(
                        repository: name, paths: [],
                        reason: "module \(name) is customised by \(tenant.id) but removed on \(general)"))
            }
            for module in state.modules {
                names[module.path] = module.name
                let isMoving = moving.contains(module)
                let customised = tenant.customised.contains(module.name)
                if !isMoving {
                    if let old = oldPins[module.path] { pins[module.path] = .commit(old) }
                    continue
                }
                guard customised else {
                    pins[module.path] = .commit(generalTips[module.name] ?? "")
                    continue
                }
                let repository = state.repositories[module.name]
                guard let branchTip = repository?.branches[tenant.branch] else {
                    problems.append(
                        RollConflict(
                            repository: module.name, paths: [],
                            reason: "module \(module.name) has no branch \(tenant.branch) on its remote"))
                    continue
                }
                pins[module.path] = .tenantBranch(module: module.name, tip: branchTip)
                if repository?.containGeneral.contains(tenant.branch) != true {
                    merges.append(
                        ModuleMerge(
                            module: module.name, tenant: tenant.id, branch: tenant.branch, ours: branchTip,
                            theirs: generalTips[module.name] ?? ""))
                }
            }
            let ownPaths = state.superproject.modulePaths[tenant.branch] ?? []
            let removed = ownPaths.filter { !currentPaths.contains($0) }.sorted()
            let merge = repin != nil || !state.superproject.containGeneral.contains(tenant.branch)
            tenants.append(
                TenantPlan(
                    tenant: tenant, tip: tip, problems: problems, mergeGeneral: merge, pins: pins, moduleNames: names,
                    removedPaths: removed, oldPins: oldPins))
        }
        let order = Dictionary(uniqueKeysWithValues: state.modules.enumerated().map { ($1.name, $0) })
        merges.sort { (order[$0.module] ?? 0, $0.tenant) < (order[$1.module] ?? 0, $1.tenant) }
        return RollPlan(
            generalBranch: general, generalTip: generalTip, modules: state.modules, repin: repin,
            moduleMerges: merges, tenants: tenants)
    }
}
