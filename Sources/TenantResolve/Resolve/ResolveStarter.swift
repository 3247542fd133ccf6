import Foundation

/// `tenantctl resolve <tenant>`: plans the tenant's roll exactly as roll does, refuses unless the working copy is
/// clean (switch's pre-flight), records every start point, switches to the tenant and starts a real `git merge` in
/// every repository that needs one. Gitlinks are set by the pin rule; content conflicts are left for the user.
public struct ResolveStarter {
    let workspace: Workspace
    let fetch: Bool
    let jobs: Int
    let console: Console?
    /// The run's journal: its before-state and the resolution are recorded before the first change, and the
    /// resolution again after every step.
    let transaction: Transaction
    /// `--accept-merged-back` names: the merge-backs the tenant's roll accepts, as roll's.
    let acceptMergedBack: [String]
    /// `--review`: `--continue` proposes the result as the tenant's review instead of pushing to its branches.
    let review: Bool
    /// With `review`, the forge kind `--forge` asked for (nil: as `modules.json` says).
    let forge: ReviewForge?

    public init(
        workspace: Workspace, fetch: Bool = true, jobs: Int = 4, console: Console? = nil,
        transaction: Transaction, acceptMergedBack: [String] = [], review: Bool = false, forge: ReviewForge? = nil
    ) {
        self.acceptMergedBack = acceptMergedBack
        self.review = review
        self.forge = forge
        self.workspace = workspace
        self.fetch = fetch
        self.jobs = jobs
        self.console = console
        self.transaction = transaction
    }

    /// Starts the resolution of `tenantName`.
    public func run(tenant tenantName: String) throws -> ResolveReport {
        let recordedBefore = try putBackStoppedStart(of: tenantName)
        // The merges and --continue commit with git itself: without the identity git commit needs, refuse now
        // (git's hint), not halfway through the repositories.
        _ = try workspace.superproject.commitIdentity()
        var options = Snapshot.Options(
            purpose: .strict, fetch: fetch, jobs: jobs, allowLocalRemotes: workspace.git.allowLocalRemotes)
        options.keepBatch = true  // one `cat-file --batch` on the superproject: the project files, then the state
        let snapshot = try Snapshot.load(workspace: workspace, options: options, console: console)
        let project = snapshot.project
        let (tenant, rollState) = try load(tenantName, snapshot: snapshot)
        let plan: RollPlan
        do {
            plan = try RollPlanner.plan(
                rollState, filter: RollFilter(tenants: [tenant.id], acceptMergedBack: acceptMergedBack))
        } catch let unknown as UnknownNameError {
            throw ResolveError(.unknownTenant, unknown.description)
        }
        guard let tenantPlan = plan.tenants.first(where: { $0.tenant.id == tenant.id }) else {
            throw ResolveError(.refused, "roll has no plan for \(tenant.id)")
        }
        try Self.checkPlan(plan, tenantPlan, repinStep: try repinNextStep(plan, tenant: tenant.id))
        guard let superOurs = tenantPlan.tip?.hex else {
            throw ResolveError(.refused, "branch \(tenant.branch) is missing on the superproject's remote")
        }
        if Self.isUpToDate(plan, tenantPlan) { return Self.upToDate(tenant, at: superOurs) }

        // Switch's pre-flight and plan (refuses, changing nothing, unless the working copy is clean).
        let switcher = WorkingCopySwitch(workspace: workspace, fetch: fetch, console: console)
        let switchPlan = try switcher.makePlan(target: tenant.id)
        let modulePlans = try self.modulePlans(
            switchPlan, plan: plan, tenant: tenant, superOurs: superOurs, snapshot: snapshot)

        try checkUntracked(plan: plan, tenantPlan: tenantPlan, project: project)

        // Record where everything stands before anything changes.
        let workingTree = try ProjectReader.workingTree(workspace, options: options.validation)
        var startPoints = [
            try ResolveCheckouts.startPoint(
                repository: ResolveState.superproject, in: workspace.superproject, relativePath: "")
        ]
        startPoints[0].resolutionBranch = switchPlan.superproject.branch
        var seen: Set<String> = []
        for module in workingTree.manifest.modules + project.manifest.modules where seen.insert(module.path).inserted {
            var start = try ResolveCheckouts.startPoint(
                repository: module.name, in: workspace.checkout(at: module.path), relativePath: module.path)
            start.resolutionBranch = modulePlans[module.name]?.branch
            startPoints.append(start)
        }
        var state = Self.makeState(
            tenant: tenant, plan: plan, tenantPlan: tenantPlan, snapshot: snapshot, superOurs: superOurs,
            startPoints: startPoints)
        state.worktree = workspace.root
        state.gitDirectory = workspace.gitDirectory
        try markForReview(&state, snapshot: snapshot, generalTip: plan.generalTip.hex)
        // Clean before the start (switch's pre-flight): each step's result is recorded as it lands, so that a later
        // abort tells what the user changed since from what the resolution left.
        state.left = Dictionary(startPoints.map { ($0.path, [:]) }, uniquingKeysWith: { first, _ in first })
        if !recordedBefore { try transaction.recordBefore(startPoints.map(\.before)) }
        try state.record(in: transaction, commonDirectory: workspace.commonDirectory)

        do {
            try merge(
                &state, switchPlan: switchPlan, switcher: switcher, renamedModules: tenantPlan.renamedModules)
        } catch let error where !Cancellator.shared.isCancelled {
            throw ResolveError(
                .refused,
                "\(error)\nthe resolution of \(tenant.id) stopped half-way; `tenantctl resolve --abort` puts every "
                    + "repository back as it was")
        }
        return Self.report(state, tenant: tenant, project: project, superOurs: superOurs)
    }

    /// The report of a start for a tenant that has nothing to resolve (its branch pins `superOurs`).
    static func upToDate(_ tenant: Tenant, at superOurs: String) -> ResolveReport {
        ResolveReport(
            action: "start", tenant: tenant.id, branch: tenant.branch,
            repositories: [
                ResolveReport.Repository(
                    repository: ResolveState.superproject, path: "", branch: tenant.branch, status: "up-to-date",
                    from: superOurs, to: superOurs)
            ],
            notes: ["\(tenant.id) is up to date: nothing to resolve, nothing was changed"])
    }

    /// Puts back what a stopped start of the same tenant's resolution did (killed: its state says `starting`), as
    /// --abort does, recording the repositories' state before in this run's journal; refuses while another
    /// resolution is in progress. Whether it recorded that state.
    func putBackStoppedStart(of tenantName: String) throws -> Bool {
        if let state = try ResolveState.read(commonDirectory: workspace.commonDirectory) {
            // A start of the same tenant that stopped before it finished (killed): its re-run puts back what it did,
            // as --abort does (never dropping a commit it did not make), then starts again.
            guard state.phase == .starting, tenantName == state.tenant || tenantName == state.branch,
                !state.startedElsewhere(than: workspace)
            else { throw state.inProgressError(in: workspace) }
            try transaction.recordBefore(try ResolveCheckouts.before(state, workspace: workspace))
            console?.progress("putting back what the stopped start of the resolution of \(state.tenant) did")
            _ = try ResolveAborter(workspace: workspace, console: console).run()
            return true
        }
        return false
    }

    /// The tenant named and roll's state of the repositories, read through the snapshot's `cat-file --batch`.
    func load(_ tenantName: String, snapshot: Snapshot) throws -> (Tenant, RollState) {
        let batch = try snapshot.batch ?? workspace.superproject.openBatch()
        do {
            guard let named = snapshot.project.tenant(id: tenantName) else {
                let unknown = UnknownNameError(
                    kind: "tenant", names: [tenantName], known: snapshot.project.tenants.map(\.id))
                throw ResolveError(.unknownTenant, unknown.description)
            }
            // The tenant's roll, planned exactly as roll plans it: merges, pins by the rule, what blocks it.
            let rollState = try RollStateLoader.load(snapshot: snapshot, batch: batch, jobs: jobs)
            try batch.close()
            return (named, rollState)
        } catch {
            try? batch.close()  // the error thrown is the one that stopped the read
            throw error
        }
    }

    /// Switch's plan of each module, by module name; refuses when the superproject's branch is not where roll planned
    /// from, or a pin is not in the module branch the merge starts from.
    func modulePlans(
        _ switchPlan: WorkingCopySwitch.Plan, plan: RollPlan, tenant: Tenant, superOurs: String, snapshot: Snapshot
    ) throws -> [String: RepositoryPlan] {
        guard switchPlan.superproject.finalCommit == superOurs else {
            let problem =
                switchPlan.superproject.aheadOfTarget > 0
                ? "the local branch \(tenant.branch) has \(switchPlan.superproject.aheadOfTarget) commit"
                    + "\(switchPlan.superproject.aheadOfTarget == 1 ? "" : "s") that \(workspace.remoteName) does not "
                    + "have; push them (git push) or move them away first"
                : "the superproject's \(tenant.branch) moved on \(workspace.remoteName) while resolve read it; run "
                    + "`tenantctl resolve \(tenant.id)` again"
            throw ResolveError(.refused, "cannot resolve \(tenant.id): \(problem)")
        }
        let modulePlans = Dictionary(
            switchPlan.modules.map { ($0.repository, $0) }, uniquingKeysWith: { first, _ in first })
        for merge in plan.moduleMerges {
            // The module branch ends at the pin; the merge starts from the remote's tenant tip, which must be a
            // fast-forward from there (roll merges into the remote's tip too).
            guard let pin = modulePlans[merge.module]?.finalCommit else {
                throw ResolveError(.refused, "module \(merge.module) is not pinned on \(tenant.branch)")
            }
            if pin != merge.ours.hex, try !snapshot.isAncestor(pin, of: merge.ours.hex, module: merge.module) {
                throw ResolveError(
                    .refused,
                    "cannot resolve \(tenant.id): \(tenant.branch) pins \(merge.module) \(ObjectID.short(pin)), which is not "
                        + "in the module's \(merge.branch) (\(merge.ours.short)) on its remote; pin the branch's "
                        + "tip first (tenantctl switch \(tenant.id), then tenantctl pin --push)")
            }
        }
        return modulePlans
    }

    /// The report of a started resolution: each repository merged, in conflict or up to date, and what to do next.
    static func report(_ state: ResolveState, tenant: Tenant, project: Project, superOurs: String) -> ResolveReport {
        var repositories: [ResolveReport.Repository] = []
        repositories.append(
            ResolveReport.Repository(
                repository: ResolveState.superproject, path: "", branch: tenant.branch,
                status: state.superproject.conflicts.isEmpty ? "merged" : "conflict",
                conflicts: state.superproject.conflicts, from: superOurs))
        for module in project.manifest.modules {
            if let merge = state.modules.first(where: { $0.repository == module.name }) {
                repositories.append(
                    ResolveReport.Repository(
                        repository: module.name, path: module.path, branch: merge.branch,
                        status: merge.commit == nil ? "conflict" : "merged", conflicts: merge.conflicts,
                        from: merge.ours, to: merge.commit))
            } else {
                repositories.append(
                    ResolveReport.Repository(
                        repository: module.name, path: module.path, branch: project.branch(of: module, for: tenant),
                        status: "up-to-date"))
            }
        }
        let conflicted = repositories.filter { $0.status == "conflict" }
        var notes: [String] = []
        for entry in conflicted {
            let directory = entry.path.isEmpty ? "" : " -C \(entry.path)"
            notes.append(
                "\(entry.repository): resolve \(entry.conflicts.joined(separator: ", ")), then git\(directory) add "
                    + "<file> (or git\(directory) mergetool)")
        }
        return ResolveReport(
            action: "start", tenant: tenant.id, branch: tenant.branch, repositories: repositories,
            next: "tenantctl resolve --continue", notes: notes)

    }

    /// Refuses, before anything changes, when an untracked file stands where a merge would write (git would stop that
    /// merge after the others had started): in each module checkout that merges (its tenant branch's remote tip and
    /// the general tip it merges), and in the superproject (the general tip). Module checkouts fetch commits they lack
    /// first, as the merge itself would.
    func checkUntracked(plan: RollPlan, tenantPlan: TenantPlan, project: Project) throws {
        var files: [String] = []
        for merge in plan.moduleMerges {
            guard let module = project.module(named: merge.module) else { continue }
            let checkout = workspace.checkout(at: module.path)
            guard try CheckoutPresence.of(checkout) == .repository else { continue }
            try ResolveCheckouts.ensureCommits(
                [merge.ours.hex, merge.theirs.hex], in: checkout, module: merge.module, console: console)
            var found: Set<String> = []
            for commit in [merge.ours.hex, merge.theirs.hex] {
                found.formUnion(try checkout.untrackedOverwrites(to: commit))
            }
            files += found.sorted().map { "\(module.path)/\($0)" }
        }
        if tenantPlan.mergeGeneral {
            files += try workspace.superproject.untrackedOverwrites(to: plan.generalTip.hex)
        }
        guard !files.isEmpty else { return }
        throw ResolveError(
            .refused,
            "cannot resolve \(tenantPlan.tenant.id): the merge would overwrite \(files.count) untracked file"
                + "\(files.count == 1 ? "" : "s"); nothing was changed\n"
                + files.map { "- " + $0 }.joined(separator: "\n")
                + "\nmove \(files.count == 1 ? "it" : "them") away (or commit \(files.count == 1 ? "it" : "them") "
                + "elsewhere), then run `tenantctl resolve \(tenantPlan.tenant.id)` again")
    }

    /// Whether the tenant needs nothing: no merge anywhere and every pin already by the rule.
    static func isUpToDate(_ plan: RollPlan, _ tenantPlan: TenantPlan) -> Bool {
        guard plan.moduleMerges.isEmpty, !tenantPlan.mergeGeneral,
            tenantPlan.removedPaths.isEmpty, tenantPlan.renamedPaths.isEmpty
        else { return false }
        return tenantPlan.pins.allSatisfy { path, target in
            switch target {
            case .commit(let id): return tenantPlan.oldPins[path] == id
            case .tenantBranch(_, let tip): return tenantPlan.oldPins[path] == tip
            }
        }
    }

    /// Switches, then starts the superproject's merge (modules still at their pins), then the module merges, then
    /// sets the gitlinks by the rule; records each step in the state.
    func merge(
        _ state: inout ResolveState, switchPlan: WorkingCopySwitch.Plan, switcher: WorkingCopySwitch,
        renamedModules: [String: String]
    ) throws {
        _ = try switcher.execute(switchPlan)
        try recordSteps(state)
        state.superproject.conflicts = try mergeSuperproject(state.superproject)
        state.left?[""] = try ResolveLeftFiles.fingerprint(of: workspace.superproject, what: "the superproject")
        try state.record(in: transaction, commonDirectory: workspace.commonDirectory)
        try keepModulesTheTenantMoved(&state, renamedModules: renamedModules)
        for index in state.modules.indices {
            let merge = state.modules[index]
            let result = try mergeModule(merge)
            state.modules[index].conflicts = result.conflicts
            state.modules[index].commit = result.commit
            state.left?[merge.path] = try ResolveLeftFiles.fingerprint(
                of: workspace.checkout(at: merge.path), what: merge.repository)
            try state.record(in: transaction, commonDirectory: workspace.commonDirectory)
            try recordSteps(state)
        }
        // Gitlinks by the pin rule: every module's final pin, or its tenant branch's tip while its merge is open.
        var gitlinks: [(path: String, commit: String)] = []
        for pin in state.pins {
            let merge = state.modules.first { $0.repository == pin.module }
            guard let commit = pin.commit ?? merge?.commit ?? merge?.ours else { continue }
            gitlinks.append((pin.path, commit))
        }
        let superproject = workspace.superproject
        try superproject.stageGitlinks(
            gitlinks, removing: state.removedPaths, context: "set the superproject's pins by the rule")
        state.superproject.conflicts = try superproject.unmergedPaths(what: "the superproject")
        state.left = try ResolveLeftFiles.record(state, workspace: workspace)
        state.phase = .resolving
        try state.record(in: transaction, commonDirectory: workspace.commonDirectory)
    }

    /// Records in the run's journal, as steps that landed, every branch of the resolution that moved or was
    /// created since its start point (the switch's checkouts, a module's merge commit).
    func recordSteps(_ state: ResolveState) throws {
        for start in state.startPoints where start.initialised {
            guard let branch = start.resolutionBranch else { continue }
            let ref = "refs/heads/" + branch
            guard
                let now = try workspace.repository(relative: start.path).objectID(
                    of: ref, context: "read \(branch) of \(start.repository)")?.hex,
                now != start.branches[branch],
                !transaction.current.entries.contains(where: {
                    $0.repository == start.repository && $0.ref == ref && $0.new == now
                })
            else { continue }
            try transaction.record(
                repository: start.repository,
                refs: [try RefUpdate(checking: ref, new: now, old: start.branches[branch])],
                published: nil, landed: true)
        }
    }

    /// A module the general branch moved that the tenant branch had moved itself (`renamedModules`: old path →
    /// module) stays where the tenant's `.gitmodules` after the merge puts it, as roll keeps it: when that file
    /// names the old path and not the general branch's, the module is pinned at the old path, which is no longer
    /// removed. The merged `.gitmodules` is the working tree's; while it is conflicted, the tenant branch's own.
    func keepModulesTheTenantMoved(_ state: inout ResolveState, renamedModules: [String: String]) throws {
        guard !renamedModules.isEmpty else { return }
        let superproject = workspace.superproject
        let gitmodules =
            state.superproject.conflicts.contains(".gitmodules")
            ? try superproject.gitmodules(at: state.superproject.ours)
            : try superproject.gitmodules(file: ".gitmodules")
        let paths = Set((gitmodules?.entries ?? []).compactMap(\.path))
        for (oldPath, module) in renamedModules.sorted(by: { $0.key < $1.key }) {
            guard let index = state.pins.firstIndex(where: { $0.module == module }),
                paths.contains(oldPath), !paths.contains(state.pins[index].path)
            else { continue }
            state.pins[index].path = oldPath
            state.removedPaths.removeAll { $0 == oldPath }
        }
    }

    /// Refuses a tenant that roll would block or cannot roll, and a general branch whose pins roll must move first
    /// (`repinStep`: what to run then).
    static func checkPlan(_ plan: RollPlan, _ tenantPlan: TenantPlan, repinStep: String) throws {
        let id = tenantPlan.tenant.id
        if !tenantPlan.blocked.isEmpty {
            throw ResolveError(
                .refused,
                "cannot resolve \(id): it is blocked (rolling it would drop or spread a customisation):\n"
                    + tenantPlan.blocked.map {
                        "  \($0.code.rawValue) \($0.module ?? ""): \($0.message); fix: \($0.fix)"
                    }
                    .joined(separator: "\n"))
        }
        if !tenantPlan.problems.isEmpty {
            throw ResolveError(
                .refused,
                "cannot resolve \(id): "
                    + tenantPlan.problems.map { "\($0.repository): \($0.reason)" }
                    .joined(separator: "; "))
        }
        if let repin = plan.repin {
            throw ResolveError(
                .refused,
                "cannot resolve \(id) yet: \(plan.generalBranch)'s pins are behind its modules ("
                    + repin.changes.map(\.module).joined(separator: ", ") + "); " + repinStep)
        }
    }

    /// The state recorded before anything changes.
    static func makeState(
        tenant: Tenant, plan: RollPlan, tenantPlan: TenantPlan, snapshot: Snapshot, superOurs: String,
        startPoints: [ResolveState.StartPoint]
    ) -> ResolveState {
        let general = plan.generalBranch
        let modules = plan.moduleMerges.compactMap { merge -> ResolveState.Merge? in
            guard let module = snapshot.project.module(named: merge.module) else { return nil }
            return ResolveState.Merge(
                repository: merge.module, path: module.path, branch: merge.branch,
                generalBranch: snapshot.project.generalBranch(of: module), ours: merge.ours.hex,
                theirs: merge.theirs.hex,
                message: RollExecutor.moduleMergeMessage(
                    general: general, branch: merge.branch, module: merge.module, theirs: merge.theirs.hex),
                remote: RemoteURL.redacted(snapshot.specs[merge.module]?.url ?? ""))
        }
        let merged = Set(modules.map(\.repository))
        let pins = plan.modules.compactMap { module -> ResolveState.Pin? in
            guard let target = tenantPlan.pins[module.path] else { return nil }
            let commit: String?
            switch target {
            case .commit(let id): commit = id.hex
            case .tenantBranch(let name, let tip): commit = merged.contains(name) ? nil : tip.hex
            }
            return ResolveState.Pin(
                module: module.name, path: module.path, old: tenantPlan.oldPins[module.path]?.hex, commit: commit)
        }
        let superproject = ResolveState.Merge(
            repository: ResolveState.superproject, path: "", branch: tenant.branch, generalBranch: general,
            ours: superOurs, theirs: tenantPlan.mergeGeneral ? plan.generalTip.hex : nil,
            message: "Roll \(general) into \(tenant.branch)", remote: snapshot.workspace.remoteName)
        return ResolveState(
            tenant: tenant.id, branch: tenant.branch, generalBranch: general,
            startedAt: ISO8601DateFormatter().string(from: Date()), phase: .starting, startPoints: startPoints,
            modules: modules, superproject: superproject, pins: pins,
            removedPaths: tenantPlan.removedPaths + tenantPlan.renamedPaths)
    }

    /// `git merge` of the general branch into the superproject's tenant branch, not committed (the pins are set
    /// first); returns the paths git left unmerged. Resolve's merges are roll's merges done by hand: like roll (and
    /// switch's fast-forwards) they do not apply `merge.verifySignatures`, which would otherwise stop them after
    /// other repositories had moved.
    func mergeSuperproject(_ merge: ResolveState.Merge) throws -> [String] {
        guard let theirs = merge.theirs else { return [] }
        console?.progress("superproject: merging \(merge.generalBranch) into \(merge.branch)")
        let output = try workspace.superproject.merge(
            theirs, message: merge.message, commit: false,
            context: "merge \(merge.generalBranch) into \(merge.branch) in the superproject")
        let conflicts = try requireMergeStarted(output, in: workspace.superproject, what: "the superproject")
        try ConflictMarkers.label(conflicts, in: workspace.root, commit: theirs, as: merge.generalBranch)
        return conflicts
    }

    /// `git merge --no-ff` of the module's general branch into its tenant branch in the module's checkout; returns
    /// the merge commit when clean, else the conflicted paths.
    func mergeModule(_ merge: ResolveState.Merge) throws -> (commit: String?, conflicts: [String]) {
        let checkout = workspace.checkout(at: merge.path)
        let path = checkout.path
        guard let theirs = merge.theirs else { return (nil, []) }
        try ResolveCheckouts.ensureCommits(
            [merge.ours, theirs], in: checkout, module: merge.repository, console: console)
        let head = try checkout.resolve("HEAD", context: "read the HEAD of \(merge.repository)").hex
        if head != merge.ours {
            // The pin is an ancestor of the remote's tenant tip (checked before anything changed).
            try checkout.fastForward(
                to: merge.ours, context: "fast-forward \(merge.branch) of \(merge.repository) to its remote tip")
        }
        console?.progress("\(merge.repository): merging \(merge.generalBranch) into \(merge.branch)")
        let output = try checkout.merge(
            theirs, message: merge.message, commit: true,
            context: "merge \(merge.generalBranch) into \(merge.branch) in \(merge.repository)")
        if output.status == 0 {
            return (try checkout.resolve("HEAD", context: "read the merge of \(merge.repository)").hex, [])
        }
        let conflicts = try requireMergeStarted(output, in: checkout, what: merge.repository)
        // The markers name the general branch, as a merge of the branch by name would, not its commit id.
        try ConflictMarkers.label(conflicts, in: path, commit: theirs, as: merge.generalBranch)
        return (nil, conflicts)
    }

    /// The unmerged paths after a `git merge` that exited 1; throws when git did not start the merge at all.
    func requireMergeStarted(_ output: GitOutput, in repository: GitRepository, what: String) throws -> [String] {
        let conflicts = try repository.unmergedPaths(what: what)
        if output.status != 0 && conflicts.isEmpty {
            let state = try RepositoryState.inspect(repository)
            guard state.operations.contains("merge") else {
                throw ResolveError(
                    .refused,
                    "git merge in \(what) stopped without starting the merge: "
                        + output.stderr.trimmingCharacters(in: .whitespacesAndNewlines)
                        + "; run `tenantctl resolve --abort`")
            }
        }
        return conflicts
    }
}
