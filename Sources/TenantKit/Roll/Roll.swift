import Foundation

/// Options of one roll.
public struct RollOptions: Sendable {
    /// Tenants and modules covered.
    public var filter: RollFilter
    /// Compute and report, write no ref anywhere.
    public var dryRun: Bool
    /// Concurrent module fetches.
    public var jobs: Int
    /// Fetch the superproject and the modules first (off only for tests and `--no-fetch`).
    public var fetch: Bool

    public init(filter: RollFilter = RollFilter(), dryRun: Bool = false, jobs: Int = 4, fetch: Bool = true) {
        self.filter = filter
        self.dryRun = dryRun
        self.jobs = jobs
        self.fetch = fetch
    }
}

/// Runs `tenantctl roll`: fetch, plan, execute with plumbing, journal, publish, report.
public struct RollRunner {
    let workspace: Workspace
    let git: Git
    let console: Console?

    public init(workspace: Workspace, git: Git, console: Console? = nil) {
        self.workspace = workspace
        self.git = git
        self.console = console
    }

    /// Runs the roll.
    public func run(_ options: RollOptions) throws -> RollReport {
        let start = Date()
        let root = workspace.root
        if options.fetch {
            console?.progress("fetching the superproject")
            try Superproject.fetch(workspace, git: git)
        }
        let batch = try CatFileBatch(git: git, repository: root)
        defer { try? batch.close() }
        let loader = RollStateLoader(superproject: root, git: git)
        let project = try ProjectReader.revision(
            "refs/remotes/\(Workspace.remoteName)/\(ProjectReader.generalBranchHint(workspace))", repository: root,
            git: git,
            options: ValidationOptions(allowLocalRemotes: git.allowLocalRemotes))
        let manifest = (
            generalBranch: project.manifest.generalBranch,
            modules: project.manifest.modules.map { RollModule(name: $0.name, path: $0.path, url: $0.url) },
            tenants: project.tenants.map { RollTenant(id: $0.id, branch: $0.branch, customised: $0.customised) }
        )
        let specs = try ModuleRemotes.specs(for: project.manifest.modules, workspace: workspace, git: git)
        let urls = Dictionary(uniqueKeysWithValues: specs.map { ($0.name, $0.url) })
        let mirrors = ModuleMirrors(workspace: workspace, git: git)
        if options.fetch {
            console?.progress("fetching \(specs.count) module repositories (\(options.jobs) at a time)")
            try mirrors.sync(specs, jobs: options.jobs, console: console)
        } else {
            _ = try mirrors.existing(specs)
        }
        let state = try loader.load(manifest: manifest, batch: batch) { mirrors.path(for: $0.name) }
        let plan = try RollPlanner.plan(state, filter: options.filter)
        console?.progress(
            "planned: \(plan.tenants.count) tenant(s), \(plan.moduleMerges.count) module merge(s)"
                + (plan.repin == nil ? "" : ", \(plan.generalBranch) re-pin"))
        let identity = try RollPlumbing.identities(in: root, git: git)
        let modulePaths = Dictionary(uniqueKeysWithValues: plan.modules.map { ($0.name, mirrors.path(for: $0.name)) })
        let executor = RollExecutor(
            git: git, superproject: root, modulePaths: modulePaths, identity: identity, jobs: options.jobs)
        let execution = try executor.execute(plan, batch: batch, console: console)

        if options.dryRun {
            return Self.report(
                plan: plan, execution: execution, pushes: [], rejected: [:], generalRejected: false, runId: nil,
                dryRun: true, start: start)
        }
        // Journal every remote ref change before publishing.
        let runId = RollJournal.newRunId()
        var journal = RollJournal(runId: runId, createdAt: ISO8601DateFormatter().string(from: start), entries: [])
        for module in plan.modules {
            for update in execution.moduleUpdates[module.name] ?? [] {
                journal.entries.append(
                    .init(
                        repository: module.name, remote: urls[module.name] ?? "", ref: update.ref, old: update.old,
                        new: update.new ?? ""))
            }
        }
        for update in execution.superprojectUpdates {
            journal.entries.append(
                .init(
                    repository: "superproject", remote: Workspace.remoteName, ref: update.ref, old: update.old,
                    new: update.new ?? ""))
        }
        let changes = !journal.entries.isEmpty
        if changes { try journal.write(gitDirectory: workspace.gitDirectory) }

        // Modules first: each module repository is pushed (and its mirror updated) independently, `jobs` at a time.
        let pushWork: [(name: String, updates: [RefUpdate], path: String, url: String)] = plan.modules.compactMap {
            module in
            guard let updates = execution.moduleUpdates[module.name], !updates.isEmpty,
                let path = modulePaths[module.name], let url = urls[module.name]
            else { return nil }
            return (module.name, updates, path, url)
        }
        let git = self.git
        let console = self.console
        let moduleOutcomes = try Concurrent.map(pushWork, jobs: options.jobs) { job -> PushOutcome in
            console?.progress("pushing \(job.updates.count) branch(es) of \(job.name)")
            let outcome = try RollPublisher.push(
                job.updates, repository: job.name, from: job.path, to: job.url, git: git)
            if outcome.accepted {
                // The mirror is a cache of the remote: record what the remote now has.
                try RefTransaction.apply(
                    job.updates, in: job.path, git: git,
                    context: "record the pushed branches of \(job.name) in its mirror")
            }
            return outcome
        }
        var pushes: [PushOutcome] = []
        var pushedModules: Set<String> = []
        var failedModules: [String: String] = [:]
        for (job, outcome) in zip(pushWork, moduleOutcomes) {
            pushes.append(outcome)
            if outcome.accepted {
                pushedModules.insert(job.name)
            } else {
                failedModules[job.name] = outcome.detail
            }
        }
        // Then the superproject, only for tenants whose module commits are all on the module remotes.
        var rejected: [String: String] = [:]
        var superUpdates: [RefUpdate] = []
        let branchOwner = Dictionary(
            plan.tenants.map { ("refs/heads/" + $0.tenant.branch, $0.tenant.id) },
            uniquingKeysWith: { first, _ in first })
        for update in execution.superprojectUpdates {
            if let tenant = branchOwner[update.ref] {
                let missing = (execution.tenantNeeds[tenant] ?? []).filter { !pushedModules.contains($0) }.sorted()
                if !missing.isEmpty {
                    rejected[tenant] =
                        "not pushed: the push of "
                        + missing.map { "\($0) was rejected (\(failedModules[$0] ?? "not pushed"))" }.joined(
                            separator: ", ")
                    continue
                }
            }
            superUpdates.append(update)
        }
        var generalRejected = false
        if !superUpdates.isEmpty {
            console?.progress("pushing \(superUpdates.count) superproject branch(es)")
            let outcome = try RollPublisher.push(
                superUpdates, repository: "superproject", from: root, to: Workspace.remoteName, git: git)
            pushes.append(outcome)
            if !outcome.accepted {
                for update in superUpdates {
                    if let tenant = branchOwner[update.ref] {
                        rejected[tenant] = outcome.detail
                    } else {
                        generalRejected = true
                    }
                }
            }
        }
        if changes {
            let pushedSuper = Set(
                pushes.contains { $0.repository == "superproject" && $0.accepted } ? superUpdates.map(\.ref) : [])
            for index in journal.entries.indices {
                let entry = journal.entries[index]
                journal.entries[index].published =
                    entry.repository == "superproject"
                    ? pushedSuper.contains(entry.ref)
                    : pushedModules.contains(entry.repository)
            }
            try journal.write(gitDirectory: workspace.gitDirectory)
        }
        return Self.report(
            plan: plan, execution: execution, pushes: pushes, rejected: rejected, generalRejected: generalRejected,
            runId: changes ? runId : nil, dryRun: false, start: start)
    }

    static func report(
        plan: RollPlan, execution: RollExecution, pushes: [PushOutcome], rejected: [String: String],
        generalRejected: Bool, runId: String?, dryRun: Bool, start: Date
    ) -> RollReport {
        let rolledWord = dryRun ? "would-roll" : "rolled"
        var totals = RollReport.Totals()
        let general = RollReport.General(
            from: plan.generalTip, to: execution.generalCommit, pins: plan.repin?.changes ?? [],
            status: generalRejected ? "rejected" : (execution.generalCommit == nil ? "up-to-date" : rolledWord))
        var tenants: [RollReport.TenantEntry] = []
        for tenant in plan.tenants {
            let merges = execution.moduleMerges.filter { $0.merge.tenant == tenant.tenant.id }.map {
                RollReport.Merge(
                    module: $0.merge.module, branch: $0.merge.branch, from: $0.merge.ours, to: $0.commit,
                    status: $0.commit == nil ? "conflict" : "merged", conflicts: $0.conflicts)
            }
            var entry = RollReport.TenantEntry(
                id: tenant.tenant.id, branch: tenant.tenant.branch, status: "up-to-date", from: tenant.tip, to: nil,
                pins: [], merges: merges, conflicts: [], rejected: nil)
            switch execution.tenants[tenant.tenant.id] ?? .upToDate {
            case .upToDate:
                totals.upToDate += 1
            case .rolled(let commit, let pins):
                entry.to = commit
                entry.pins = pins
                if let reason = rejected[tenant.tenant.id] {
                    entry.status = "rejected"
                    entry.rejected = reason
                    totals.rejected += 1
                } else {
                    entry.status = rolledWord
                    totals.rolled += 1
                    totals.moduleMerges += merges.count
                }
            case .conflict(let conflicts):
                entry.status = "conflict"
                entry.conflicts = conflicts
                totals.conflicts += 1
            }
            tenants.append(entry)
        }
        return RollReport(
            runId: runId, dryRun: dryRun, generalBranch: plan.generalBranch, general: general, tenants: tenants,
            pushes: pushes, totals: totals, elapsedSeconds: Date().timeIntervalSince(start))
    }

    /// Restores the remote refs a roll changed, when none moved since (lease); refuses otherwise.
    public func undo(runId: String) throws -> [PushOutcome] {
        var journal = try RollJournal.read(gitDirectory: workspace.gitDirectory, runId: runId)
        guard journal.undoneAt == nil else { throw RollError("roll \(runId) was already undone") }
        let entries = journal.entries.filter { $0.published == true }
        guard !entries.isEmpty else { throw RollError("roll \(runId) published nothing; nothing to undo") }
        let mirrors = ModuleMirrors(workspace: workspace, git: git)
        var order: [String] = []
        for entry in entries.reversed() where !order.contains(entry.repository) { order.append(entry.repository) }
        // Check every remote first: refuse before changing anything when a ref moved.
        var moved: [String] = []
        for repository in order {
            let group = entries.filter { $0.repository == repository }
            let remote = group[0].remote
            guard !remote.hasPrefix("-") else { throw RollError("refusing remote \(Redaction.redact(remote))") }
            let output = try git.run(
                ["ls-remote", remote] + group.map(\.ref), in: workspace.root,
                context: "read the branches of \(repository) on its remote")
            var current: [String: String] = [:]
            for line in output.lines {
                let fields = line.split(separator: "\t")
                if fields.count == 2 { current[String(fields[1])] = String(fields[0]) }
            }
            for entry in group where current[entry.ref] != entry.new {
                moved.append(
                    "\(repository) \(entry.ref) is \(current[entry.ref].map { String($0.prefix(7)) } ?? "missing"), "
                        + "not \(entry.new.prefix(7))")
            }
        }
        guard moved.isEmpty else {
            throw RollError(
                "refusing to undo roll \(runId): refs moved since:\n" + moved.map { "  " + $0 }.joined(separator: "\n"))
        }
        var outcomes: [PushOutcome] = []
        for repository in order {
            let group = entries.filter { $0.repository == repository }
            let updates = group.map { RefUpdate(ref: $0.ref, new: $0.old, old: $0.new) }
            let leases = Dictionary(uniqueKeysWithValues: group.map { ($0.ref, $0.new) })
            let from = repository == "superproject" ? workspace.root : mirrors.path(for: repository)
            let outcome = try RollPublisher.push(
                updates, repository: repository, from: from, to: group[0].remote, git: git, leases: leases)
            outcomes.append(outcome)
            if !outcome.accepted { break }
        }
        if outcomes.allSatisfy(\.accepted) {
            journal.undoneAt = ISO8601DateFormatter().string(from: Date())
            try journal.write(gitDirectory: workspace.gitDirectory)
        }
        return outcomes
    }
}
