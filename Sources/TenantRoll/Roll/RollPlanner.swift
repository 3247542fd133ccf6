import Foundation

/// Turns an observed ``RollState`` into a ``RollPlan`` (pure).
public enum RollPlanner {
    /// Plans the roll. Throws for a filter naming an unknown tenant or module, or a module without a general branch.
    public static func plan(_ state: RollState, filter: RollFilter = RollFilter()) throws -> RollPlan {
        let project = state.project
        let general = state.generalBranch
        guard let generalTipText = state.superproject.branches[general] else {
            throw RollError("the superproject has no branch \(general) on its remote")
        }
        let generalTip = try commitID(generalTipText, "the tip of the superproject's \(general)")
        try check(filter, against: project)
        let fetched = project.manifest.modules.filter { state.unreachable[$0.name] == nil }
        let moving = fetched.filter { filter.modules.isEmpty || filter.modules.contains($0.name) }
        let accepted = Set(filter.acceptMergedBack)
        let generalTips = try moduleGeneralTips(state)
        // general_dev does not take a module whose general branch would bring it a tenant's commits.
        let repinning = moving.filter {
            accepted.contains($0.name) || (state.repositories[$0.name]?.mergedBack[general] ?? [:]).isEmpty
        }
        // A pin the module's remote does not have blocks the general branch (nothing of it changes), as it blocks a
        // tenant: re-pinning would move it back.
        let generalBlocked = generalBlockReasons(state, moving: repinning)
        let repin =
            generalBlocked.isEmpty
            ? try generalRepin(state, moving: repinning, generalTips: generalTips, generalTip: generalTip) : nil

        var merges: [ModuleMerge] = []
        var tenants: [TenantPlan] = []
        let named = Set(filter.tenants.compactMap { project.tenant(id: $0)?.id ?? project.invalidTenant(id: $0)?.id })
        let selected = project.tenants.filter { filter.tenants.isEmpty || named.contains($0.id) }
        let context = TenantContext(
            state: state, moving: Set(moving.map(\.name)), generalTips: generalTips, generalMoves: repin != nil,
            accepted: accepted, requested: Set(filter.modules),
            moduleNames: Dictionary(
                project.manifest.modules.map { ($0.path, $0.name) }, uniquingKeysWith: { _, last in last }))
        for tenant in selected {
            let planned = try planTenant(tenant, context)
            tenants.append(planned.plan)
            merges += planned.merges
        }
        for invalid in project.invalidTenants where filter.tenants.isEmpty || named.contains(invalid.id) {
            tenants.append(try invalidTenantPlan(invalid, state: state))
        }
        tenants.sort { $0.tenant.id < $1.tenant.id }
        let order = Dictionary(uniqueKeysWithValues: project.manifest.modules.enumerated().map { ($1.name, $0) })
        merges.sort { (order[$0.module] ?? 0, $0.tenant) < (order[$1.module] ?? 0, $1.tenant) }
        var plan = RollPlan(
            generalBranch: general, generalTip: generalTip, modules: project.manifest.modules, repin: repin,
            moduleMerges: merges, tenants: tenants, unreachable: state.unreachable,
            acceptedMergedBack: Array(Set(filter.acceptMergedBack)).sorted())
        plan.generalBlocked = generalBlocked
        return plan
    }

    /// Why the general branch cannot be re-pinned: the findings the ``FindingJudge`` says block it
    /// (``FindingJudge/generalRollBlocks(_:project:pin:facts:)``) among the modules that would move, each with the
    /// command that pushes the pinned commit to the module's general branch.
    static func generalBlockReasons(_ state: RollState, moving: [Module]) -> [BlockReason] {
        let pins = state.superproject.pins[state.generalBranch] ?? [:]
        return moving.flatMap { module -> [BlockReason] in
            guard let facts = state.repositories[module.name]?.facts, let pin = pins[module.path] else { return [] }
            let branch = state.project.generalBranch(of: module)
            return FindingJudge.generalRollBlocks(module, project: state.project, pin: pin, facts: facts).map {
                BlockReason(
                    $0,
                    rolling: "not pushed? re-pinning would move \(state.generalBranch)'s pin back to \(branch)'s tip "
                        + "and every tenant would lose it; push it first",
                    fix: "git -C \(module.path) push origin \(pin):refs/heads/\(branch)")
            }
        }
    }

    /// What every tenant's plan is computed against.
    struct TenantContext {
        var state: RollState
        /// Modules whose pins move.
        var moving: Set<String>
        var generalTips: [String: ObjectID]
        var generalMoves: Bool
        /// `--accept-merged-back` modules (and `superproject`).
        var accepted: Set<String>
        /// `--module` names (empty: all).
        var requested: Set<String>
        /// Module path → module name of the general manifest: one dictionary that every tenant's plan shares (a copy
        /// per tenant was 4 KB each, 40 MB at 10,000 tenants).
        var moduleNames: [String: String]
    }

    /// A tenant whose file is invalid: blocked, nothing of it changes.
    static func invalidTenantPlan(_ invalid: InvalidTenant, state: RollState) throws -> TenantPlan {
        let tenant = invalid.asTenant
        let reasons = FindingJudge.invalidTenantFindings([invalid], generalBranch: state.generalBranch).map {
            BlockReason($0, rolling: "nothing of \(invalid.id) changes until the file loads", fix: "tenantctl verify")
        }
        return TenantPlan(
            tenant: tenant, tip: try tipID(invalid.branch, of: invalid.id, state), problems: [], blocked: reasons,
            mergeGeneral: false, pins: [:], moduleNames: [:], removedPaths: [],
            oldPins: try pinIDs(invalid.branch, of: invalid.id, state))
    }

    /// Refuses a filter naming a tenant or module the project does not have.
    static func check(_ filter: RollFilter, against project: Project) throws {
        let general = project.manifest.generalBranch
        // A tenant is named by its id or its branch, as in audit and verify.
        let unknownTenants = filter.tenants.filter {
            project.tenant(id: $0) == nil && project.invalidTenant(id: $0) == nil
        }
        guard unknownTenants.isEmpty else {
            throw UnknownNameError(
                kind: "tenant", names: unknownTenants,
                known: project.tenants.map(\.id) + project.invalidTenants.map(\.id), place: "Tenants/ on \(general)")
        }
        // `--accept-merged-back superproject` accepts the superproject's general branch taking a tenant's commits.
        let accepting = filter.acceptMergedBack.filter { $0 != Finding.superproject }
        let unknownModules = (filter.modules + accepting).filter { project.module(named: $0) == nil }
        guard unknownModules.isEmpty else {
            // A mistyped `--accept-merged-back superproject` is offered the superproject too.
            let acceptable = accepting.contains { project.module(named: $0) == nil } ? [Finding.superproject] : []
            throw UnknownNameError(
                kind: "module", names: unknownModules, known: project.manifest.modules.map(\.name) + acceptable,
                place: "modules.json on \(general)")
        }
    }

    /// Module name → the tip of the module's general branch.
    static func moduleGeneralTips(_ state: RollState) throws -> [String: ObjectID] {
        var tips: [String: ObjectID] = [:]
        for module in state.project.manifest.modules where state.unreachable[module.name] == nil {
            let branch = state.project.generalBranch(of: module)
            guard let tip = state.repositories[module.name]?.branches[branch] else {
                throw RollError("module \(module.name) has no branch \(branch) on its remote")
            }
            tips[module.name] = try commitID(tip, "the tip of module \(module.name)'s branch \(branch)")
        }
        return tips
    }

    /// `text` as an object id; a value that is none (the observed state is damaged) throws naming `what` holds it.
    static func commitID(_ text: String, _ what: @autoclosure () -> String) throws -> ObjectID {
        guard let id = ObjectID(text) else {
            throw RollError("\(what()) is '\(text)', not a full commit id: run tenantctl roll again to observe it anew")
        }
        return id
    }

    /// The tip of tenant `id`'s superproject branch `branch` as an id (nil: the branch is missing).
    static func tipID(_ branch: String, of id: String, _ state: RollState) throws -> ObjectID? {
        try state.superproject.branches[branch].map {
            try commitID($0, "the tip of tenant \(id)'s superproject branch \(branch)")
        }
    }

    /// The pins (path → commit) of tenant `id`'s superproject branch `branch` as ids.
    static func pinIDs(_ branch: String, of id: String, _ state: RollState) throws -> [String: ObjectID] {
        var pins: [String: ObjectID] = [:]
        for (path, pin) in state.superproject.pins[branch] ?? [:] {
            pins[path] = try commitID(pin, "tenant \(id)'s pin of \(path) on the superproject's \(branch)")
        }
        return pins
    }

    /// The general branch's gitlinks that move to their module's general tip (nil when all are current).
    static func generalRepin(
        _ state: RollState, moving: [Module], generalTips: [String: ObjectID], generalTip: ObjectID
    ) throws -> GeneralRepin? {
        let generalPins = state.superproject.pins[state.generalBranch] ?? [:]
        let changes = try moving.compactMap { module -> PinChange? in
            guard let new = generalTips[module.name] else { return nil }
            let old = try generalPins[module.path].map {
                try commitID($0, "the pin of \(module.path) on the superproject's \(state.generalBranch)")
            }
            return old == new ? nil : PinChange(module: module.name, path: module.path, old: old, new: new)
        }
        return changes.isEmpty ? nil : GeneralRepin(base: generalTip, changes: changes)
    }

    /// One tenant: the pin rule for every module, the module merges it needs, what keeps it from rolling (problems)
    /// and what would drop or spread a customisation (blocked).
    static func planTenant(_ tenant: Tenant, _ context: TenantContext) throws -> (
        plan: TenantPlan, merges: [ModuleMerge]
    ) {
        let state = context.state
        let project = state.project
        let tip = try tipID(tenant.branch, of: tenant.id, state)
        let problems = tenant.customisedModules.filter { project.module(named: $0) == nil }.map { name in
            RollConflict(
                repository: name, paths: [],
                reason: "module \(name) is customised by \(tenant.id) but removed on \(state.generalBranch)")
        }
        let renamed = state.superproject.renamedPaths[tenant.branch] ?? [:]
        var modules = try planModules(tenant, context, renamed: renamed)
        if tip == nil {
            // Missing, not a conflict: there is nothing to resolve, only a branch to restore or a tenant to remove.
            modules.blocked.insert(
                BlockReason(
                    FindingJudge.missingSuperprojectBranch(tenant),
                    rolling: "push it again from a clone that still has it, or remove the tenant (its module branches "
                        + "are tagged archive/\(tenant.branch))",
                    fix: "tenantctl tenant remove \(tenant.id) --archive"),
                at: 0)
        } else {
            modules.blocked += superprojectBlockReasons(tenant, context: context)
        }
        guard modules.blocked.isEmpty else {
            // Nothing of a blocked tenant changes: no merge is planned for it.
            let plan = TenantPlan(
                tenant: tenant, tip: tip, problems: problems, blocked: modules.blocked, mergeGeneral: false,
                pins: [:], moduleNames: modules.names, removedPaths: [], oldPins: modules.oldPins)
            return (plan, [])
        }
        let currentPaths = Set(project.manifest.modules.map(\.path))
        let removed = (state.superproject.modulePaths[tenant.branch] ?? [])
            .filter { !currentPaths.contains($0) && renamed[$0] == nil }.sorted()
        let merge = context.generalMoves || !state.superproject.containGeneral.contains(tenant.branch)
        var plan = TenantPlan(
            tenant: tenant, tip: tip, problems: problems, mergeGeneral: merge, pins: modules.pins,
            moduleNames: modules.names, removedPaths: removed,
            renamedPaths: renamed.keys.filter { !currentPaths.contains($0) }.sorted(), oldPins: modules.oldPins)
        plan.renamedModules = renamed.filter { !currentPaths.contains($0.key) }
        plan.virtualGeneral =
            merge
            ? try state.superproject.squashed[tenant.branch].map {
                try commitID($0, "the general commit tenant \(tenant.id)'s \(tenant.branch) took by squash or rebase")
            } : nil
        return (plan, modules.merges)
    }

    /// What ``planTenant(_:_:)`` decides module by module.
    struct ModulesPlan {
        /// Module path → final pin rule.
        var pins: [String: PinTarget] = [:]
        /// Module path → module name.
        var names: [String: String] = [:]
        var merges: [ModuleMerge] = []
        var blocked: [BlockReason] = []
        /// The tenant's pins before the roll, a module at an old path (`renamed`) also under its path.
        var oldPins: [String: ObjectID] = [:]
    }

    /// Every module of the general manifest for `tenant`: its pin rule, the merge of its general branch into the
    /// tenant's module branch, and what blocks it (`renamed`: old path → module name on the tenant's branch).
    static func planModules(_ tenant: Tenant, _ context: TenantContext, renamed: [String: String]) throws
        -> ModulesPlan
    {
        let state = context.state
        let project = state.project
        var result = ModulesPlan(
            names: context.moduleNames, oldPins: try pinIDs(tenant.branch, of: tenant.id, state))
        for module in project.manifest.modules {
            if result.oldPins[module.path] == nil,
                let oldPath = renamed.first(where: { $0.value == module.name })?.key
            {
                result.oldPins[module.path] = result.oldPins[oldPath]
            }
            let oldPin = result.oldPins[module.path]
            if let error = state.unreachable[module.name] {
                if context.requested.isEmpty || context.requested.contains(module.name) {
                    result.blocked += FindingJudge.unreachableRollBlocks(module, tenant: tenant, error: error).map {
                        BlockReason(
                            $0, rolling: "\(tenant.id) customises it: roll it again once the remote answers",
                            fix: "tenantctl roll --tenant \(tenant.id)")
                    }
                }
                // Nothing that needs the module is written.
                if let oldPin { result.pins[module.path] = .commit(oldPin) }
                continue
            }
            guard context.moving.contains(module.name) else {
                if let oldPin { result.pins[module.path] = .commit(oldPin) }
                continue
            }
            // Not reached without a state: ``moduleGeneralTips(_:)`` has thrown for a fetched module without one.
            guard let repository = state.repositories[module.name] else { continue }
            result.blocked += blockReasons(
                tenant, module: module, pin: oldPin?.hex, repository: repository, context: context)
            let branch = project.branch(of: module, for: tenant)
            guard tenant.customises(module.name) else {
                if let generalTip = context.generalTips[module.name] {
                    result.pins[module.path] = .commit(generalTip)
                }
                continue
            }
            // A tenant branch the remote lacks is the judge's `missing-branch`, which blocks the tenant (above).
            guard let branchTipText = repository.branches[branch] else { continue }
            let what = "module \(module.name)'s branch \(branch) of tenant \(tenant.id)"
            let branchTip = try commitID(branchTipText, "the tip of \(what)")
            result.pins[module.path] = .tenantBranch(module: module.name, tip: branchTip)
            if !repository.containGeneral.contains(branch), let generalTip = context.generalTips[module.name] {
                var merge = ModuleMerge(
                    module: module.name, tenant: tenant.id, branch: branch, ours: branchTip, theirs: generalTip)
                merge.virtualGeneral = try repository.squashed[branch].map {
                    try commitID($0, "the general commit \(what) took by squash or rebase")
                }
                result.merges.append(merge)
            }
        }
        return result
    }

    /// What merging the superproject's general branch would spread to `tenant`: the `tenant-merged-back` findings
    /// the ``FindingJudge`` says block it
    /// (``FindingJudge/superprojectRollBlocks(_:project:mergedBack:contained:acceptMergedBack:)``), as one reason
    /// naming every tenant whose commits the general branch took, with the command that accepts them.
    static func superprojectBlockReasons(_ tenant: Tenant, context: TenantContext) -> [BlockReason] {
        let state = context.state
        let superproject = state.superproject
        let findings = FindingJudge.superprojectRollBlocks(
            tenant, project: state.project, mergedBack: superproject.mergedBack,
            contained: superproject.containsMergedBack[tenant.branch] ?? [],
            acceptMergedBack: context.accepted.contains(Finding.superproject))
        let taken = findings.compactMap(\.branch).sorted()
        guard !taken.isEmpty else { return [] }
        let contained = superproject.containsMergedBack[tenant.branch] ?? []
        let commits = taken.flatMap { (superproject.mergedBack[$0] ?? []).filter { !contained.contains($0) } }
        return [
            mergedBackReason(
                commits, of: taken, in: "the superproject's \(state.generalBranch)", to: tenant,
                general: state.generalBranch, module: nil)
        ]
    }

    /// One `tenant-merged-back` reason for every tenant branch (`taken`) whose `commits` the general branch of a
    /// repository (`place`, e.g. `Order's general_dev`) took and a roll would bring to `tenant`; `module` is nil for
    /// the superproject's general branch.
    static func mergedBackReason(
        _ commits: [String], of taken: [String], in place: String, to tenant: Tenant, general: String, module: String?
    ) -> BlockReason {
        let count = commits.count
        return BlockReason(
            code: .tenantMergedBack, module: module,
            message: "\(place) contains \(count) commit\(count == 1 ? "" : "s") of the tenant "
                + "branch\(taken.count == 1 ? "" : "es") \(taken.joined(separator: ", ")) (merged back: "
                + "\(FindingJudge.shortList(commits))); rolling would ship that customisation to \(tenant.id). If it "
                + "was not meant for every tenant, revert its changes on \(general) first (the commits stay in its "
                + "history); then, or if it was promoted to general on purpose, accept it",
            fix: "tenantctl roll --accept-merged-back \(module ?? Finding.superproject)")
    }

    /// What rolling `module` would drop or spread for `tenant`: the findings the ``FindingJudge`` says block it
    /// (``FindingJudge/rollBlocks(_:tenant:project:pin:facts:acceptMergedBack:)``), each in the judge's words with
    /// what rolling would do and the command that fixes it.
    static func blockReasons(
        _ tenant: Tenant, module: Module, pin: String?, repository: ModuleRepositoryState, context: TenantContext
    ) -> [BlockReason] {
        let facts = repository.facts
        let project = context.state.project
        let general = project.generalBranch(of: module)
        let findings = FindingJudge.rollBlocks(
            module, tenant: tenant, project: project, pin: pin, facts: facts,
            acceptMergedBack: context.accepted.contains(module.name))
        var reasons: [BlockReason] = []
        for finding in findings {
            switch finding.code {
            case .missingBranch:
                let branch = finding.branch ?? tenant.moduleBranch(for: module.name)
                reasons.append(
                    BlockReason(
                        finding,
                        rolling: "\(tenant.file) declares \(module.name) customised"
                            + (pin.map { "; push the branch again at the pin \(ObjectID.short($0))" } ?? ""),
                        fix: pin.map { "git -C \(module.path) push origin \($0):refs/heads/\(branch)" }
                            ?? "tenantctl uncustomize \(tenant.id) \(module.name)"))
            case .missingCommit:
                guard let pin else { continue }
                // The commit, not the local branch: the clone that shows the pin need not have a branch of that name.
                reasons.append(
                    BlockReason(
                        finding, rolling: "not pushed? rolling would move \(tenant.branch)'s pin back",
                        fix:
                            "git -C \(module.path) push origin \(pin):refs/heads/\(tenant.moduleBranch(for: module.name))"
                    ))
            case .undeclaredCustomisation:
                guard let pin else { continue }
                reasons.append(
                    BlockReason(
                        finding, rolling: "rolling would drop it",
                        fix: adoptionCommand(tenant, module: module, pin: pin, facts: facts, project: project)))
            default:
                continue  // tenant-merged-back: one reason for all of them, below
            }
        }
        let taken = findings.filter { $0.code == .tenantMergedBack }.compactMap(\.branch).sorted()
        if let pin, !taken.isEmpty {
            let commits = taken.flatMap { FindingJudge.mergedBackReaching(pin, from: $0, facts: facts) }
            reasons.append(
                mergedBackReason(
                    commits, of: taken, in: "\(module.name)'s \(general)", to: tenant, general: general,
                    module: module.name))
        }
        return reasons
    }

    /// The command that declares a pin off the module's general branch (`undeclared-customisation`): follow the one
    /// other branch of the module that has the pin (`customize --branch`), else fork a branch of the tenant's name
    /// at the pin (`customize --from`). A branch named after a tenant is that tenant's, never proposed. Uses the
    /// module's graph already read: no git.
    static func adoptionCommand(
        _ tenant: Tenant, module: Module, pin: String, facts: ModuleObservation, project: Project
    ) -> String {
        let commit = facts.commit(pin)
        let tenantBranches = Set(project.tenants.map(\.branch) + project.invalidTenants.map(\.branch))
        let having = facts.branches.filter {
            $0.key != facts.generalBranch && !tenantBranches.contains($0.key)
                && facts.graph.isAncestor(commit, of: $0.value)
        }
        if having.count == 1, let branch = having.first?.key {
            return "tenantctl customize \(tenant.id) \(module.name) --branch \(branch)"
        }
        return "tenantctl customize \(tenant.id) \(module.name) --from \(ObjectID.short(pin))"
    }
}
