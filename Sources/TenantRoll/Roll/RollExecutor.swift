import Foundation

/// Executes a ``RollPlan`` with plumbing: writes objects only, never a ref.
///
/// In two steps, so that a roll can publish the modules while the superproject's commits are written
/// (``RollRunner``): ``merge(_:batch:console:)`` runs every merge and settles which tenants roll, which is all the
/// module pushes need; ``finish(_:_:batch:)`` writes the superproject's tenant commits. ``execute(_:batch:console:)``
/// runs both.
public struct RollExecutor: Sendable {
    /// The superproject's repository (objects are written to its store).
    let repository: GitRepository
    /// Module name → its mirror, where its merges are written.
    let mirrors: [String: GitRepository]
    let identity: CommitIdentity
    let jobs: Int
    let commonDirectory: String?
    /// A review roll's run id: every commit it writes carries `Rolled-by: tenantctl <run-id> <general> <commit>`.
    var reviewRun: String?
    /// The repositories of a review roll whose commits carry a Gerrit `Change-Id` (`superproject`, module names).
    var changeIds: Set<String> = []
    /// The `Change-Id` of each review open in Gerrit (``ReviewChangeId/key(_:_:)`` → id): a proposal into the same
    /// target carries it, so it updates that change.
    var openChangeIds: [String: String] = [:]

    /// - Parameters:
    ///   - superproject: the superproject's repository (objects are written to its store), as the workspace hands
    ///     it out.
    ///   - mirrors: module name → its mirror, as the snapshot hands it out.
    ///   - commonDirectory: the superproject's common git directory: when given, its merges run where git sees
    ///     no submodule (``SubmoduleFreeMerge``).
    public init(
        superproject: GitRepository, mirrors: [String: GitRepository], identity: CommitIdentity, jobs: Int = 4,
        commonDirectory: String? = nil
    ) {
        self.commonDirectory = commonDirectory
        self.jobs = jobs
        self.repository = superproject
        self.mirrors = mirrors
        self.identity = identity
    }

    /// Runs every merge of the plan and writes every commit; returns what to publish.
    public func execute(_ plan: RollPlan, batch: CatFileBatch, console: Console? = nil) throws -> RollExecution {
        try finish(plan, try merge(plan, batch: batch, console: console), batch: batch)
    }

    /// Every merge done and every tenant's fate settled, before the superproject's tenant commits are written.
    public struct Merges: Sendable {
        /// Every module merge, in plan order.
        var outcomes: [ModuleMergeOutcome]
        /// The general branch's re-pin commit, if any.
        var generalCommit: ObjectID?
        /// Tenant id → its superproject merge.
        var merged: [String: MergeTreeResult]
        /// Module merge → the commit it wrote.
        var newTips: [MergeKey: String]
        /// Tenant id → what stops it (plan problems, module and superproject conflicts).
        var conflicts: [String: [RollConflict]]
        /// The tenants whose superproject commit is written next (a branch, not blocked, nothing in conflict), with
        /// modules their branch moved itself pinned where the branch keeps them.
        var writing: [TenantPlan]
        /// Module name → the branch updates of the tenants that roll: the module pushes, known before the
        /// superproject's commits are written.
        public var moduleUpdates: [String: [RefUpdate]]
    }

    /// Steps 1 to 3 (the module merges, the general branch's re-pin, the superproject merges) and the tenants that
    /// roll: each with a branch, not blocked, and no conflict in any repository. A tenant that rolls gets a
    /// superproject commit in ``finish(_:_:batch:)`` (it pins every module commit of its own), so its module
    /// branches can be published before that commit is written.
    public func merge(_ plan: RollPlan, batch: CatFileBatch, console: Console? = nil) throws -> Merges {
        let writer = repository.treeWriter(batch: batch)
        // The superproject's merges (after the general branch's re-pin) run as one more job next to the module
        // repositories' merges: all of them at once, `jobs` at a time, so every core merges.
        let (outcomes, superprojectMerges) = try mergeAll(plan, writer: writer, console: console)
        let merged = superprojectMerges.merged
        var conflicts: [String: [RollConflict]] = [:]
        var newTips: [MergeKey: String] = [:]
        for outcome in outcomes {
            if let commit = outcome.commit {
                newTips[outcome.merge.key] = commit
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
        let writing = try settle(plan, merged: merged, conflicts: &conflicts, batch: batch)
        let rolling = Set(writing.map(\.tenant.id))
        // Module branch updates only for tenants that roll.
        var moduleUpdates: [String: [RefUpdate]] = [:]
        for outcome in outcomes {
            guard let commit = outcome.commit, rolling.contains(outcome.merge.tenant) else { continue }
            moduleUpdates[outcome.merge.module, default: []].append(
                try RefUpdate(branch: outcome.merge.branch, new: commit, old: outcome.merge.ours.hex))
        }
        return Merges(
            outcomes: outcomes, generalCommit: superprojectMerges.generalCommit, merged: merged, newTips: newTips,
            conflicts: conflicts, writing: writing, moduleUpdates: moduleUpdates)
    }

    /// Step 4 and the execution: the superproject's tenant commits of the tenants that roll, and every tenant's
    /// outcome.
    public func finish(_ plan: RollPlan, _ merges: Merges, batch: CatFileBatch) throws -> RollExecution {
        let writer = repository.treeWriter(batch: batch)
        let generalCommit = merges.generalCommit
        let general = generalCommit?.hex ?? plan.generalTip.hex
        let rolled = try writeTenantCommits(
            plan, tenants: merges.writing, general: general, merged: merges.merged, newTips: merges.newTips,
            writer: writer, batch: batch)
        var tenants = rolled.outcomes
        for (tenant, list) in merges.conflicts where !list.isEmpty { tenants[tenant] = .conflict(list) }
        for tenant in plan.tenants where !tenant.blocked.isEmpty {
            tenants[tenant.tenant.id] = .blocked(tenant.blocked)
        }
        var superUpdates: [RefUpdate] = []
        if let generalCommit {
            superUpdates.append(
                try RefUpdate(branch: plan.generalBranch, new: generalCommit.hex, old: plan.generalTip.hex))
        }
        superUpdates += rolled.updates
        return RollExecution(
            moduleMerges: merges.outcomes, generalCommit: generalCommit?.hex, tenants: tenants,
            moduleUpdates: merges.moduleUpdates, superprojectUpdates: superUpdates, tenantNeeds: rolled.needs)
    }

    /// The superproject's part of the merges: the general branch's re-pin and the tenant branches' merges.
    struct SuperprojectMerges: Sendable {
        var generalCommit: ObjectID?
        var merged: [String: MergeTreeResult]
    }

    /// One repository's merges.
    enum MergeJob: Sendable {
        case superproject
        case module(name: String, merges: [ModuleMerge], mirror: GitRepository)
    }

    /// What one ``MergeJob`` produced.
    enum MergeJobResult: Sendable {
        case superproject(SuperprojectMerges)
        case module([ModuleMergeOutcome])
    }

    /// Steps 1 to 3 together: the module merges (one merge-tree and one hash-object process per module repository)
    /// and, as one more job, the superproject's re-pin and merges. Repositories are independent, so `jobs` of them
    /// run at a time; the superproject, the largest job, starts first.
    func mergeAll(_ plan: RollPlan, writer: TreeWriter, console: Console?) throws -> (
        [ModuleMergeOutcome], SuperprojectMerges
    ) {
        let byModule = Dictionary(grouping: plan.moduleMerges, by: \.module)
        let work: [MergeJob] =
            [.superproject]
            + plan.modules.compactMap { module in
                guard let merges = byModule[module.name], let mirror = mirrors[module.name] else { return nil }
                return .module(name: module.name, merges: merges, mirror: mirror)
            }
        let results = try Concurrent.map(work, jobs: jobs) { [self] job -> MergeJobResult in
            switch job {
            case .superproject:
                let generalCommit = try repinGeneral(plan, writer: writer)
                let merged = try mergeSuperproject(
                    plan, into: generalCommit?.hex ?? plan.generalTip.hex, console: console)
                return .superproject(SuperprojectMerges(generalCommit: generalCommit, merged: merged))
            case .module(let name, let merges, let mirror):
                return .module(try mergeModule(name, merges: merges, in: mirror, plan: plan, console: console))
            }
        }
        var outcomes: [ModuleMergeOutcome] = []
        var superprojectMerges = SuperprojectMerges(generalCommit: nil, merged: [:])
        for result in results {
            switch result {
            case .superproject(let merges): superprojectMerges = merges
            case .module(let list): outcomes += list
            }
        }
        return (outcomes, superprojectMerges)
    }

    /// Step 1, one module repository's merges: one merge-tree and one hash-object process.
    func mergeModule(
        _ name: String, merges: [ModuleMerge], in mirror: GitRepository, plan: RollPlan, console: Console?
    ) throws -> [ModuleMergeOutcome] {
        let job = (name: name, merges: merges, mirror: mirror)
        let identity = self.identity
        let generalBranch = plan.generalBranch
        do {
            let count = job.merges.count
            console?.progress(
                "merging \(generalBranch) into \(count) tenant branch\(count == 1 ? "" : "es") of \(job.name)")
            let results = try job.mirror.mergeTrees(
                try VirtualBase.pairs(job.merges, in: job.mirror, identity: identity),
                what: "module \(job.name)")
            var specs: [CommitSpec] = []
            var cleanIndices: [Int] = []
            for (index, (merge, result)) in zip(job.merges, results).enumerated() where result.clean {
                specs.append(
                    CommitSpec(
                        tree: result.tree, parents: [merge.ours.hex, merge.theirs.hex],
                        message: Self.moduleMergeMessage(
                            general: generalBranch, branch: merge.branch, module: job.name, theirs: merge.theirs.hex)
                            + trailer(generalBranch, merge.theirs.hex, job.name, merge.branch, merge.ours.hex)))
                cleanIndices.append(index)
            }
            let ids = try job.mirror.writeCommits(specs, identity: identity)
            let commitFor = Dictionary(uniqueKeysWithValues: zip(cleanIndices, ids))
            return zip(job.merges, results).enumerated().map { index, pair in
                ModuleMergeOutcome(
                    merge: pair.0, commit: commitFor[index]?.hex, conflicts: pair.1.clean ? [] : pair.1.paths)
            }
        }
    }

    /// Step 2, the general branch re-pin: one commit moving the gitlinks to the modules' general tips.
    func repinGeneral(_ plan: RollPlan, writer: TreeWriter) throws -> ObjectID? {
        guard let repin = plan.repin else { return nil }
        let tree = try writer.write(
            base: plan.generalTip.hex + "^{tree}",
            edits: repin.changes.map { PathEdit(path: $0.path, change: .gitlink($0.new.hex)) })
        return try repository.writeCommit(
            CommitSpec(
                tree: tree, parents: [plan.generalTip.hex],
                message: "Roll \(plan.generalBranch): " + Self.describe(repin.changes)
                    + trailer(
                        plan.generalBranch, plan.generalTip.hex, "superproject", plan.generalBranch, plan.generalTip.hex
                    )),
            identity: identity)
    }

    /// Step 3, superproject merges of every tenant that has its branch (conflicted ones too, to report their paths).
    func mergeSuperproject(_ plan: RollPlan, into general: String, console: Console?) throws
        -> [String: MergeTreeResult]
    {
        let merging = plan.tenants.filter { $0.mergeGeneral && $0.tip != nil }
        guard !merging.isEmpty else { return [:] }
        console?.progress(
            "merging \(plan.generalBranch) into \(merging.count) superproject tenant branch"
                + (merging.count == 1 ? "" : "es"))
        let mergingRepository =
            try commonDirectory.map {
                try SubmoduleFreeMerge.repository(merging: repository, commonDirectory: $0, objectID: general)
            } ?? repository
        let results = try mergingRepository.mergeTrees(
            try VirtualBase.pairs(merging, general: general, in: repository, identity: identity),
            what: "the superproject")
        return Dictionary(uniqueKeysWithValues: zip(merging.map(\.tenant.id), results))
    }

    /// The tenants whose superproject commit is written: each with a branch, not blocked and, after the superproject
    /// conflicts the pin rule does not resolve are added to `conflicts`, with nothing in conflict. A module the
    /// tenant's tree keeps at its old path (``movedModulesStaying(_:merged:batch:)``) is pinned there.
    func settle(
        _ plan: RollPlan, merged: [String: MergeTreeResult], conflicts: inout [String: [RollConflict]],
        batch: CatFileBatch
    ) throws -> [TenantPlan] {
        let staying = try movedModulesStaying(plan, merged: merged, batch: batch)
        var writing: [TenantPlan] = []
        for var tenant in plan.tenants {
            guard tenant.tip != nil, tenant.blocked.isEmpty else { continue }
            for (oldPath, module) in staying[tenant.tenant.id] ?? [:] {
                // The tree's .gitmodules keeps the module at its old path: it is pinned there, not moved.
                guard let path = plan.modules.first(where: { $0.name == module })?.path else { continue }
                if let target = tenant.pins.removeValue(forKey: path) { tenant.pins[oldPath] = target }
                tenant.moduleNames[oldPath] = module
                tenant.oldPins[oldPath] = tenant.oldPins.removeValue(forKey: path)
                tenant.renamedPaths.removeAll { $0 == oldPath }
            }
            if let result = merged[tenant.tenant.id], !result.clean {
                conflicts[tenant.tenant.id, default: []] += superprojectConflicts(result, tenant: tenant, plan: plan)
            }
            if !(conflicts[tenant.tenant.id] ?? []).isEmpty { continue }
            writing.append(tenant)
        }
        return writing
    }

    /// Step 4, one superproject commit per tenant of `tenants` (``settle(_:merged:conflicts:batch:)``): the merged
    /// tree (or the branch's own) with every gitlink set by the pin rule. A tenant whose tree would not change, that
    /// merges nothing and pins no new module commit gets none.
    func writeTenantCommits(
        _ plan: RollPlan, tenants: [TenantPlan], general: String, merged: [String: MergeTreeResult],
        newTips: [MergeKey: String], writer: TreeWriter, batch: CatFileBatch
    ) throws -> (outcomes: [String: TenantOutcome], updates: [RefUpdate], needs: [String: Set<String>]) {
        var jobs: [TreeWriter.Job] = []
        var jobTenants: [(plan: TenantPlan, tip: String, changes: [PinChange], merged: Bool)] = []
        var needs: [String: Set<String>] = [:]
        let order = Dictionary(plan.modules.enumerated().map { ($1.path, $0) }, uniquingKeysWith: { first, _ in first })
        for tenant in tenants {
            guard let tip = tenant.tip?.hex else { continue }
            let result = merged[tenant.tenant.id]
            var edits: [PathEdit] = []
            var changes: [PinChange] = []
            var needed: Set<String> = []
            // The module order looked up once per pin, not twice per comparison of the sort.
            let ordered = tenant.pins.map { (rank: order[$0.key] ?? 0, path: $0.key, target: $0.value) }
                .sorted { ($0.rank, $0.path) < ($1.rank, $1.path) }
            for (_, path, target) in ordered {
                let commit: ObjectID
                switch target {
                case .commit(let id): commit = id
                case .tenantBranch(let module, let tip):
                    let merge = newTips[MergeKey(module: module, tenant: tenant.tenant.id)]
                    commit =
                        try merge.map {
                            try RollPlanner.commitID($0, "the merge commit of \(module) for \(tenant.tenant.id)")
                        } ?? tip
                    if merge != nil { needed.insert(module) }
                }
                edits.append(PathEdit(path: path, change: .gitlink(commit.hex)))
                if tenant.oldPins[path] != commit {
                    changes.append(
                        PinChange(
                            module: tenant.moduleNames[path] ?? path, path: path, old: tenant.oldPins[path],
                            new: commit))
                }
            }
            edits += (tenant.removedPaths + tenant.renamedPaths).map { PathEdit(path: $0, change: .remove) }
            needs[tenant.tenant.id] = needed
            jobs.append(TreeWriter.Job(base: result?.tree ?? tip + "^{tree}", edits: edits))
            jobTenants.append((tenant, tip, changes, result != nil))
        }
        let trees = try writer.write(jobs)
        // Current tenant trees, to skip commits that would change nothing.
        let currentTrees = try batch.objects(jobTenants.map { $0.tip + "^{tree}" }).map { $0?.id }
        var specs: [CommitSpec] = []
        var specTenants: [(plan: TenantPlan, tip: String, changes: [PinChange])] = []
        var outcomes: [String: TenantOutcome] = [:]
        for (job, (tree, current)) in zip(jobTenants, zip(trees, currentTrees)) {
            // A tenant whose module branches roll always gets its commit: they were published for it.
            if !job.merged && tree == current && (needs[job.plan.tenant.id] ?? []).isEmpty {
                outcomes[job.plan.tenant.id] = .upToDate
                continue
            }
            let message =
                Self.tenantMessage(
                    general: plan.generalBranch, branch: job.plan.tenant.branch, changes: job.changes)
                + trailer(plan.generalBranch, general, "superproject", job.plan.tenant.branch, job.tip)
            specs.append(
                CommitSpec(tree: tree, parents: job.merged ? [job.tip, general] : [job.tip], message: message))
            specTenants.append((job.plan, job.tip, job.changes))
        }
        let ids = try repository.writeCommits(specs, identity: identity)
        var updates: [RefUpdate] = []
        for (job, id) in zip(specTenants, ids) {
            outcomes[job.plan.tenant.id] = .rolled(commit: id.hex, pins: job.changes)
            updates.append(try RefUpdate(branch: job.plan.tenant.branch, new: id.hex, old: job.tip))
        }
        return (outcomes, updates, needs)
    }

    /// Tenant id → old path → module, for the moved modules (``TenantPlan/renamedModules``) that the tenant's tree
    /// after the merge (or its own, without one) still has at the old path in `.gitmodules`, and not at the new one:
    /// the tenant branch moved the module itself, so the gitlink goes where its `.gitmodules` says. One request per
    /// such tenant on `batch`, one `config --blob` per distinct `.gitmodules`.
    func movedModulesStaying(_ plan: RollPlan, merged: [String: MergeTreeResult], batch: CatFileBatch) throws
        -> [String: [String: String]]
    {
        let tenants = plan.tenants.filter { !$0.renamedModules.isEmpty && $0.tip != nil && $0.blocked.isEmpty }
        guard !tenants.isEmpty else { return [:] }
        let trees = tenants.map { merged[$0.tenant.id]?.tree ?? ($0.tip?.hex ?? "") + "^{tree}" }
        let files = try repository.gitmodules(at: trees, batch: batch)
        var staying: [String: [String: String]] = [:]
        for (tenant, file) in zip(tenants, files) {
            let paths = Set((file?.entries ?? []).compactMap(\.path))
            for (oldPath, module) in tenant.renamedModules {
                guard let path = plan.modules.first(where: { $0.name == module })?.path else { continue }
                if paths.contains(oldPath) && !paths.contains(path) {
                    staying[tenant.tenant.id, default: [:]][oldPath] = module
                }
            }
        }
        return staying
    }

    /// The conflicts of a tenant's superproject merge that the pin rule does not resolve.
    func superprojectConflicts(_ result: MergeTreeResult, tenant: TenantPlan, plan: RollPlan) -> [RollConflict] {
        // Only gitlinks of modules that exist on the general branch are resolved by the pin rule.
        let gitlinkPaths = Set(tenant.pins.keys).union(plan.modules.map(\.path)).union(tenant.renamedPaths)
        let removed = result.paths.filter { tenant.removedPaths.contains($0) }
        let real = result.paths.filter { !gitlinkPaths.contains($0) && !tenant.removedPaths.contains($0) }
        var conflicts: [RollConflict] = []
        if !removed.isEmpty {
            // The tenant pins its own commit of a module that the general branch removed: it customised it.
            conflicts.append(
                RollConflict(
                    repository: "superproject", paths: removed,
                    reason: "module removed on \(plan.generalBranch) but pinned to its own commit by "
                        + tenant.tenant.branch))
        }
        if !real.isEmpty {
            conflicts.append(
                RollConflict(
                    repository: "superproject", paths: real,
                    reason: "merging \(plan.generalBranch) into \(tenant.tenant.branch) conflicts"))
        }
        return conflicts
    }

    /// The message of a module merge: `Roll general_dev into t2: merge Infrastructure general_dev 8c1e2aa`
    /// (also `tenantctl resolve`'s).
    package static func moduleMergeMessage(general: String, branch: String, module: String, theirs: String) -> String {
        "Roll \(general) into \(branch): merge \(module) \(general) \(ObjectID.short(theirs))"
    }

    /// The message of a tenant's superproject commit: `Roll general_dev into t2: Infrastructure 40d609f → 8c1e2aa`
    /// (also `tenantctl resolve`'s).
    package static func tenantMessage(general: String, branch: String, changes: [PinChange]) -> String {
        "Roll \(general) into \(branch)" + (changes.isEmpty ? "" : ": " + describe(changes))
    }

    /// A review roll's trailer (`\n\nRolled-by: tenantctl <run-id> general_dev <commit>`, and a `Change-Id` where
    /// `repository` is proposed to Gerrit); empty in a plain roll.
    func trailer(_ general: String, _ commit: String, _ repository: String, _ target: String, _ base: String) -> String
    {
        guard let reviewRun else { return "" }
        let changeId =
            changeIds.contains(repository)
            ? "\nChange-Id: "
                + (openChangeIds[ReviewChangeId.key(repository, target)]
                    ?? ReviewChangeId.make(repository: repository, target: target, base: base)) : ""
        return "\n\nRolled-by: tenantctl \(reviewRun) \(general) \(commit)" + changeId
    }

    /// `Infrastructure 40d609f → 8c1e2aa, Article …`
    static func describe(_ changes: [PinChange]) -> String {
        changes.map { "\($0.module) \(ObjectID.short($0.old, none: "none")) → \(ObjectID.short($0.new, none: "none"))" }
            .joined(separator: ", ")
    }
}
