import Foundation

/// The outcome of one module merge.
public struct ModuleMergeOutcome: Sendable, Equatable {
    /// The planned merge.
    public var merge: ModuleMerge
    /// The merge commit (nil when conflicted).
    public var commit: String?
    /// Conflicting paths (empty when clean).
    public var conflicts: [String]
}

/// What happened to one tenant.
public enum TenantOutcome: Sendable, Equatable {
    /// Nothing to do.
    case upToDate
    /// A new superproject commit for the tenant branch.
    case rolled(commit: String, pins: [PinChange])
    /// Nothing of the tenant changes; why.
    case conflict([RollConflict])
}

/// The objects roll wrote and the ref changes it wants to publish, per repository.
public struct RollExecution: Sendable {
    /// Every module merge, in plan order.
    public var moduleMerges: [ModuleMergeOutcome]
    /// The new general branch commit of the superproject, if any.
    public var generalCommit: String?
    /// Tenant id → outcome.
    public var tenants: [String: TenantOutcome]
    /// Module name → branch updates (old → new) for tenants that roll.
    public var moduleUpdates: [String: [RefUpdate]]
    /// Superproject branch updates (`refs/heads/<branch>`, old → new).
    public var superprojectUpdates: [RefUpdate]
    /// Tenant id → the modules its superproject commit needs on the module remotes.
    public var tenantNeeds: [String: Set<String>]
}

/// Executes a ``RollPlan`` with plumbing: writes objects only, never a ref.
public struct RollExecutor {
    let git: Git
    let superproject: String
    let modulePaths: [String: String]
    let identity: (author: String, committer: String)
    let jobs: Int

    /// - Parameters:
    ///   - superproject: the superproject repository (objects are written to its store).
    ///   - modulePaths: module name → its repository (mirror) path.
    public init(
        git: Git, superproject: String, modulePaths: [String: String], identity: (author: String, committer: String),
        jobs: Int = 4
    ) {
        self.jobs = jobs
        self.git = git
        self.superproject = superproject
        self.modulePaths = modulePaths
        self.identity = identity
    }

    static func short(_ id: String?) -> String { id.map { String($0.prefix(7)) } ?? "none" }

    /// Runs every merge of the plan and writes every commit; returns what to publish.
    public func execute(_ plan: RollPlan, batch: CatFileBatch, console: Console? = nil) throws -> RollExecution {
        // 1. Module merges: one merge-tree and one hash-object process per module repository; repositories are
        //    independent, so `jobs` of them run at a time.
        let byModule = Dictionary(grouping: plan.moduleMerges, by: \.module)
        let work: [(name: String, merges: [ModuleMerge], path: String)] = plan.modules.compactMap { module in
            guard let merges = byModule[module.name], let path = modulePaths[module.name] else { return nil }
            return (module.name, merges, path)
        }
        let git = self.git
        let identity = self.identity
        let generalBranch = plan.generalBranch
        let perModule = try Concurrent.map(work, jobs: jobs) { job -> [ModuleMergeOutcome] in
            console?.progress("merging \(generalBranch) into \(job.merges.count) tenant branch(es) of \(job.name)")
            let results = try RollPlumbing.mergeTrees(job.merges.map { ($0.ours, $0.theirs) }, in: job.path, git: git)
            var specs: [CommitSpec] = []
            var cleanIndices: [Int] = []
            for (index, (merge, result)) in zip(job.merges, results).enumerated() where result.clean {
                specs.append(
                    CommitSpec(
                        tree: result.tree, parents: [merge.ours, merge.theirs],
                        message:
                            "Roll \(generalBranch) into \(merge.branch): merge \(job.name) "
                            + "\(generalBranch) \(Self.short(merge.theirs))"))
                cleanIndices.append(index)
            }
            let ids = try RollPlumbing.writeCommits(specs, in: job.path, identity: identity, git: git)
            let commitFor = Dictionary(uniqueKeysWithValues: zip(cleanIndices, ids))
            return zip(job.merges, results).enumerated().map { index, pair in
                ModuleMergeOutcome(
                    merge: pair.0, commit: commitFor[index], conflicts: pair.1.clean ? [] : pair.1.paths)
            }
        }
        let outcomes = perModule.flatMap { $0 }
        var conflicts: [String: [RollConflict]] = [:]
        var newTips: [String: String] = [:]  // "module\u{0}tenant" → merge commit
        for outcome in outcomes {
            if let commit = outcome.commit {
                newTips[outcome.merge.module + "\u{0}" + outcome.merge.tenant] = commit
            } else {
                conflicts[outcome.merge.tenant, default: []].append(
                    RollConflict(
                        repository: outcome.merge.module, paths: outcome.conflicts,
                        reason: "merging \(plan.generalBranch) into \(outcome.merge.branch) conflicts"))
            }
        }
        for tenant in plan.tenants {
            conflicts[tenant.tenant.id, default: []].insert(contentsOf: tenant.problems, at: 0)
        }

        // 2. The general branch re-pin.
        let rewriter = TreeRewriter(batch: batch, repository: superproject, git: git)
        var generalCommit: String?
        var general = plan.generalTip
        if let repin = plan.repin {
            let edits = Dictionary(uniqueKeysWithValues: repin.changes.map { ($0.path, TreeEdit.gitlink($0.new)) })
            let tree = try rewriter.rewrite([(plan.generalTip + "^{tree}", edits)])[0]
            let message = "Roll \(plan.generalBranch): " + Self.describe(repin.changes)
            generalCommit = try RollPlumbing.writeCommits(
                [CommitSpec(tree: tree, parents: [plan.generalTip], message: message)], in: superproject,
                identity: identity, git: git)[0]
            general = generalCommit ?? general
        }

        // 3. Superproject merges of every tenant that has its branch (conflicted ones too, to report their paths).
        let merging = plan.tenants.filter { $0.mergeGeneral && $0.tip != nil }
        if !merging.isEmpty {
            console?.progress("merging \(plan.generalBranch) into \(merging.count) superproject tenant branch(es)")
        }
        let mergeResults = try RollPlumbing.mergeTrees(
            merging.compactMap { plan in plan.tip.map { ($0, general) } }, in: superproject, git: git)
        let mergeByTenant = Dictionary(uniqueKeysWithValues: zip(merging.map(\.tenant.id), mergeResults))

        var jobs: [(root: String, edits: [String: TreeEdit])] = []
        var jobTenants: [(TenantPlan, [PinChange], Bool)] = []
        var tenantNeeds: [String: Set<String>] = [:]
        for tenant in plan.tenants {
            guard let tip = tenant.tip else { continue }
            let result = mergeByTenant[tenant.tenant.id]
            // Only gitlinks of modules that exist on the general branch are resolved by the pin rule.
            let gitlinkPaths = Set(tenant.pins.keys).union(plan.modules.map(\.path))
            if let result, !result.clean {
                let removed = result.paths.filter { tenant.removedPaths.contains($0) }
                let real = result.paths.filter { !gitlinkPaths.contains($0) && !tenant.removedPaths.contains($0) }
                if !removed.isEmpty {
                    // The tenant pins its own commit of a module that general_dev removed: it customised it.
                    conflicts[tenant.tenant.id, default: []].append(
                        RollConflict(
                            repository: "superproject", paths: removed,
                            reason:
                                "module removed on \(plan.generalBranch) but pinned to its own commit by "
                                + tenant.tenant.branch))
                }
                if !real.isEmpty {
                    conflicts[tenant.tenant.id, default: []].append(
                        RollConflict(
                            repository: "superproject", paths: real,
                            reason: "merging \(plan.generalBranch) into \(tenant.tenant.branch) conflicts"))
                }
            }
            if !(conflicts[tenant.tenant.id] ?? []).isEmpty { continue }
            var edits: [String: TreeEdit] = [:]
            var changes: [PinChange] = []
            var needs: Set<String> = []
            let order = Dictionary(
                plan.modules.enumerated().map { ($1.path, $0) }, uniquingKeysWith: { first, _ in first })
            for (path, target) in tenant.pins.sorted(by: { (order[$0.key] ?? 0, $0.key) < (order[$1.key] ?? 0, $1.key) }
            ) {
                let name = tenant.moduleNames[path] ?? path
                let commit: String
                switch target {
                case .commit(let id): commit = id
                case .tenantBranch(let module, let tip):
                    commit = newTips[module + "\u{0}" + tenant.tenant.id] ?? tip
                    if newTips[module + "\u{0}" + tenant.tenant.id] != nil { needs.insert(module) }
                }
                edits[path] = .gitlink(commit)
                if tenant.oldPins[path] != commit {
                    changes.append(PinChange(module: name, path: path, old: tenant.oldPins[path], new: commit))
                }
            }
            for path in tenant.removedPaths { edits[path] = .remove }
            tenantNeeds[tenant.tenant.id] = needs
            jobs.append((result?.tree ?? tip + "^{tree}", edits))
            jobTenants.append((tenant, changes, result != nil))
        }
        let trees = try rewriter.rewrite(jobs)
        // Current tenant trees, to skip commits that would change nothing.
        let currentTrees = try batch.objects(jobTenants.map { ($0.0.tip ?? "") + "^{tree}" }).map { $0?.id }

        var specs: [CommitSpec] = []
        var specTenants: [(TenantPlan, [PinChange])] = []
        var tenants: [String: TenantOutcome] = [:]
        for ((tenant, changes, merged), (tree, current)) in zip(jobTenants, zip(trees, currentTrees)) {
            guard let tip = tenant.tip else { continue }
            if !merged && tree == current {
                tenants[tenant.tenant.id] = .upToDate
                continue
            }
            var message = "Roll \(plan.generalBranch) into \(tenant.tenant.branch)"
            if !changes.isEmpty { message += ": " + Self.describe(changes) }
            specs.append(CommitSpec(tree: tree, parents: merged ? [tip, general] : [tip], message: message))
            specTenants.append((tenant, changes))
        }
        let ids = try RollPlumbing.writeCommits(specs, in: superproject, identity: identity, git: git)
        var superUpdates: [RefUpdate] = []
        if let generalCommit {
            superUpdates.append(
                RefUpdate(ref: "refs/heads/" + plan.generalBranch, new: generalCommit, old: plan.generalTip))
        }
        for ((tenant, changes), id) in zip(specTenants, ids) {
            tenants[tenant.tenant.id] = .rolled(commit: id, pins: changes)
            superUpdates.append(RefUpdate(ref: "refs/heads/" + tenant.tenant.branch, new: id, old: tenant.tip))
        }
        for (tenant, list) in conflicts where !list.isEmpty { tenants[tenant] = .conflict(list) }

        // Module branch updates only for tenants that roll.
        var moduleUpdates: [String: [RefUpdate]] = [:]
        for outcome in outcomes {
            guard let commit = outcome.commit, case .rolled = tenants[outcome.merge.tenant] else { continue }
            moduleUpdates[outcome.merge.module, default: []].append(
                RefUpdate(ref: "refs/heads/" + outcome.merge.branch, new: commit, old: outcome.merge.ours))
        }
        return RollExecution(
            moduleMerges: outcomes, generalCommit: generalCommit, tenants: tenants, moduleUpdates: moduleUpdates,
            superprojectUpdates: superUpdates, tenantNeeds: tenantNeeds)
    }

    /// `Infrastructure 40d609f → 8c1e2aa, Article …`
    static func describe(_ changes: [PinChange]) -> String {
        changes.map { "\($0.module) \(short($0.old)) → \(short($0.new))" }.joined(separator: ", ")
    }
}
