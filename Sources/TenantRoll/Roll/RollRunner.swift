import Foundation

/// Options of one roll.
public struct RollOptions: Sendable {
    /// Tenants and modules covered.
    public var filter: RollFilter
    /// Compute and report, write no ref anywhere.
    public var dryRun: Bool
    /// Concurrent module fetches, merges and pushes.
    public var jobs: Int
    /// Fetch the superproject and the modules first (off only for tests and `--no-fetch`).
    public var fetch: Bool
    /// The arguments that re-run it (`--tenant t2`), kept in its journal.
    public var arguments: [String]
    /// Propose the merges as reviews instead of pushing them (`roll --review`).
    public var review: ReviewOptions?

    public init(
        filter: RollFilter = RollFilter(), dryRun: Bool = false, jobs: Int = 4, fetch: Bool = true,
        arguments: [String] = []
    ) {
        self.filter = filter
        self.dryRun = dryRun
        self.jobs = jobs
        self.fetch = fetch
        self.arguments = arguments
    }
}

/// Runs `tenantctl roll`: snapshot, plan, execute with plumbing, journal, publish, report.
public struct RollRunner: Sendable {
    let workspace: Workspace
    let console: Console?

    /// The roll in `workspace`, with its runner.
    public init(workspace: Workspace, console: Console? = nil) {
        self.workspace = workspace
        self.console = console
    }

    /// Runs the roll.
    public func run(_ options: RollOptions) throws -> RollReport {
        let start = Date()
        if !options.dryRun { InterruptNote.set("nothing was published; run `tenantctl roll` again") }
        // The identity git commit would use, read before anything is fetched or written: without one (no email,
        // user.useConfigOnly) the roll refuses with git's hint. A dry run's commits are never published: unsigned.
        var identity = try workspace.superproject.commitIdentity()
        if options.dryRun { identity.signs = false }
        let snapshot = try loadSnapshot(options)
        let options = try Self.userReview(options, snapshot: snapshot, workspace: workspace)
        let batch = try snapshot.batch ?? workspace.superproject.openBatch()
        defer { try? batch.close() }
        let plan = try self.plan(snapshot: snapshot, batch: batch, options: options)
        var executor = RollExecutor(
            superproject: snapshot.superproject, mirrors: Self.mirrors(snapshot), identity: identity,
            jobs: options.jobs, commonDirectory: workspace.commonDirectory)
        // A review roll's commits name it (a trailer), so its id is chosen before they are written.
        let reviewRun = options.review == nil ? nil : RollJournal.newRunId()
        executor.reviewRun = reviewRun
        executor.changeIds =
            options.review?.changeIdRepositories(plan.modules.map(\.name) + [RollPublication.superproject]) ?? []
        executor.openChangeIds = try ReviewChangeId.open(executor.changeIds, snapshot: snapshot, workspace: workspace)
        let merges = try executor.merge(plan, batch: batch, console: console)
        if let review = options.review {
            let execution = try executor.finish(plan, merges, batch: batch)
            return try ReviewProposer(workspace: workspace, console: console).propose(
                plan: plan, execution: execution, snapshot: snapshot, options: options, review: review,
                runId: reviewRun ?? RollJournal.newRunId(), start: start)
        }
        guard !options.dryRun else {
            let execution = try executor.finish(plan, merges, batch: batch)
            return RollReport.make(
                plan: plan, execution: execution, publication: RollPublication(), runId: nil, dryRun: true,
                start: start)
        }
        let published = try publish(
            merges, executor: executor, plan: plan, snapshot: snapshot, batch: batch, options: options, start: start)
        var report = RollReport.make(
            plan: plan, execution: published.execution, publication: published.publication ?? RollPublication(),
            runId: published.runId, dryRun: false, start: start)
        if snapshot.project.manifest.review == nil, report.tenants.contains(where: { $0.protected == true }) {
            report.forgeKindUnnamed = true
        }
        return report
    }

    /// A review roll's options with the user's review settings (the checked-out `modules.json`, git config's
    /// `create`; refused when the fetched general branch's differ) and the forge kinds the waiting review runs
    /// recorded; other rolls' as they are.
    static func userReview(_ options: RollOptions, snapshot: Snapshot, workspace: Workspace) throws -> RollOptions {
        guard let review = options.review else { return options }
        var options = options
        options.review = try review.readingUser(
            workspace, fetched: snapshot.project.manifest,
            fetchedName: "\(workspace.remoteName)/\(snapshot.generalBranch)"
        ).recordingKinds(in: workspace, also: review.recorded)
        return options
    }

    /// What publishing left: the execution, what the pushes did, the run id (both nil when nothing was to publish).
    struct Published {
        var execution: RollExecution
        var publication: RollPublication?
        var runId: String?
    }

    /// Writes the superproject's commits and publishes everything, journalled. When modules have branches to push,
    /// their pushes start as soon as the journal names them, while the superproject's commits are written
    /// (``publishPipelined(_:executor:plan:snapshot:batch:recorder:jobs:)``); otherwise the commits are written
    /// first and the journal names every ref at once.
    func publish(
        _ merges: RollExecutor.Merges, executor: RollExecutor, plan: RollPlan, snapshot: Snapshot,
        batch: CatFileBatch, options: RollOptions, start: Date
    ) throws -> Published {
        let moduleEntries = Self.moduleEntries(plan: plan, updates: merges.moduleUpdates, snapshot: snapshot)
        guard !moduleEntries.isEmpty else {
            let execution = try executor.finish(plan, merges, batch: batch)
            let journal = Self.begun(
                Self.journal(plan: plan, execution: execution, snapshot: snapshot, start: start), options: options)
            guard !journal.entries.isEmpty else { return Published(execution: execution) }
            let publication = try journalled(journal) { recorder in
                try publishAll(
                    execution, plan: plan, snapshot: snapshot, mirrors: executor.mirrors, recorder: recorder,
                    jobs: options.jobs)
            }
            return Published(execution: execution, publication: publication, runId: journal.runId)
        }
        let journal = Self.begun(
            RollJournal(
                runId: RollJournal.newRunId(), createdAt: ISO8601DateFormatter().string(from: start),
                entries: moduleEntries), options: options)
        let (execution, publication) = try journalled(journal) { recorder in
            try publishPipelined(
                merges, executor: executor, plan: plan, snapshot: snapshot, batch: batch, recorder: recorder,
                jobs: options.jobs)
        }
        return Published(execution: execution, publication: publication, runId: journal.runId)
    }

    /// `journal` as a run of `roll` with `options`' arguments, in this worktree, running.
    static func begun(_ journal: RollJournal, options: RollOptions) -> RollJournal {
        var journal = journal
        journal.command = "roll"
        journal.arguments = options.arguments
        journal.state = .running
        return journal
    }

    /// Module name → its mirror, as the snapshot found it: the repository value every job of a module carries.
    static func mirrors(_ snapshot: Snapshot) -> [String: GitRepository] {
        var mirrors: [String: GitRepository] = [:]
        for name in snapshot.mirrors.keys {
            if let mirror = snapshot.existingMirror(of: name) { mirrors[name] = mirror }
        }
        return mirrors
    }

    /// The snapshot the roll plans from, fetched unless `options` say not to; it keeps its `cat-file --batch` open
    /// for the whole roll.
    func loadSnapshot(_ options: RollOptions) throws -> Snapshot {
        var snapshotOptions = Snapshot.Options(
            purpose: .report, fetch: options.fetch, jobs: options.jobs,
            allowLocalRemotes: workspace.git.allowLocalRemotes,
            checkNames: { [filter = options.filter] project in try RollPlanner.check(filter, against: project) })
        snapshotOptions.keepBatch = true  // one `cat-file --batch` on the superproject for the whole roll
        return try Snapshot.load(workspace: workspace, options: snapshotOptions, console: console)
    }

    /// The roll's plan from the snapshot's state, and a line of progress that says how big it is.
    func plan(snapshot: Snapshot, batch: CatFileBatch, options: RollOptions) throws -> RollPlan {
        // A tenant branch that took a general commit by a squash or rebase landing is taken as containing it.
        let loaded = try RollStateLoader.load(snapshot: snapshot, batch: batch, jobs: options.jobs)
        let state = try VirtualBase.apply(
            VirtualBase.landings(
                gitDirectory: workspace.commonDirectory, state: loaded, snapshot: snapshot,
                review: options.review ?? ReviewOptions(), jobs: options.jobs, reviewing: options.review != nil),
            to: loaded, superproject: snapshot.superproject)
        let plan = try RollPlanner.plan(state, filter: options.filter)
        console?.progress(
            "planned: \(English.count(plan.tenants.count, "tenant")), "
                + English.count(plan.moduleMerges.count, "module merge")
                + (plan.repin == nil ? "" : ", \(plan.generalBranch) re-pin"))
        return plan
    }

    /// Journals every remote ref change known so far (`journal`) before publishing, runs `body` (which publishes),
    /// and ends the journal: `finished`, or `failed` with the error (an interrupted run stays unfinished: its re-run
    /// or `--undo` finishes it). A journal that cannot be written, its end included, stops the roll with an error
    /// that names the journal, what stopped the roll and what already landed.
    func journalled<Result>(_ journal: RollJournal, _ body: (RollJournalRecorder) throws -> Result) throws -> Result {
        var journal = journal
        journal.worktree = workspace.root
        let recorder = try RollJournalRecorder(journal, gitDirectory: workspace.commonDirectory)
        // From here on an interrupt may leave part of the run published: the message says how to find and undo it.
        InterruptNote.set(
            "roll \(journal.runId) may have published part of its changes: `tenantctl runs` shows it, "
                + "`tenantctl roll --undo \(journal.runId)` puts back what landed")
        let result: Result
        do {
            result = try body(recorder)
        } catch let failure as DurableFileError {
            // The journal could not be rewritten (a full disk): publishing stopped; say what already landed.
            throw recorder.unrecordedError(failure)
        } catch {
            // Interrupted, the run stays unfinished (its re-run or `--undo` finishes it); otherwise it failed.
            if !Cancellator.shared.isCancelled { try recorder.end(stoppedBy: error) }
            throw error
        }
        try recorder.end(stoppedBy: nil)
        return result
    }

    /// The module checkouts that learn what their remotes now have.
    func moduleCheckouts(_ snapshot: Snapshot) -> ModuleCheckoutTracking {
        ModuleCheckoutTracking(
            workspace: workspace,
            paths: Dictionary(
                snapshot.project.manifest.modules.map { ($0.name, $0.path) },
                uniquingKeysWith: { first, _ in first }))
    }

    /// The pipelined roll: the module pushes (`jobs` at a time) run while the superproject's tenant commits are
    /// written; the superproject's refs are journalled once written, before its push, which waits for both. Each
    /// module mirror records its landed push in the `update-ref` process that staged it, handed to a lane of its own
    /// (``publishModules(_:plan:snapshot:mirrors:recorder:jobs:lane:stopped:)``) as soon as the push answered: the
    /// next module push does not wait for it. The lane is waited for beside the superproject's push, with the module
    /// checkouts and a second try of what a mirror could not record (a failure to record is reported only there): no
    /// mirror bookkeeping is on the path to a push. With `jobs` 1, one git process at a time in a fixed order: the
    /// commits, the module pushes (each with its mirror's record), the superproject's push, the checkouts and a
    /// mirror's second try. A module push does not start once writing the commits failed.
    func publishPipelined(
        _ merges: RollExecutor.Merges, executor: RollExecutor, plan: RollPlan, snapshot: Snapshot,
        batch: CatFileBatch, recorder: RollJournalRecorder, jobs: Int
    ) throws -> (RollExecution, RollPublication) {
        let checkouts = moduleCheckouts(snapshot)
        let console = self.console
        let stopped = Locked(false)
        let modules = Locked<ModulePushes?>(nil)
        let remote = snapshot.workspace.remoteName
        let lane = ConcurrentLane(jobs: jobs)
        // Whatever stops the roll, the records handed to the lane end before it returns.
        defer { lane.wait() }
        let pushModules: @Sendable () throws -> Void = { [self] in
            let pushes = try publishModules(
                merges.moduleUpdates, plan: plan, snapshot: snapshot, mirrors: executor.mirrors, recorder: recorder,
                jobs: jobs, lane: lane, stopped: stopped)
            modules.withLock { $0 = pushes }
        }
        let writeCommits = { () throws -> RollExecution in
            do {
                let execution = try executor.finish(plan, merges, batch: batch)
                let refs = execution.superprojectUpdates
                if !refs.isEmpty {
                    try recorder.plan(repository: RollPublication.superproject, remote: remote, refs: refs)
                }
                return execution
            } catch {
                stopped.withLock { $0 = true }
                throw error
            }
        }
        let execution: RollExecution
        if jobs > 1 {
            execution = try Concurrent.alongside(jobs: jobs, pushModules, writeCommits)
        } else {
            execution = try writeCommits()
            try pushModules()
        }
        guard let pushes = modules.current else { throw RollError("the module pushes did not report") }
        var publication = pushes.publication
        for (module, refs) in pushes.protected {
            publication.noteProtected(refs, module: module, execution: execution, plan: plan)
        }
        try Concurrent.alongside(
            jobs: jobs,
            { try Self.recordLanded(pushes.landed, lane: lane, checkouts: checkouts, jobs: jobs, console: console) }
        ) {
            try publishSuperproject(
                execution, plan: plan, recorder: recorder, tracking: SuperprojectRemote.pushTracking(snapshot),
                into: &publication)
        }
        return (execution, publication)
    }

    /// Pushes the modules, then the superproject; meanwhile the module mirrors and checkouts record what landed.
    func publishAll(
        _ execution: RollExecution, plan: RollPlan, snapshot: Snapshot, mirrors: [String: GitRepository],
        recorder: RollJournalRecorder, jobs: Int
    ) throws -> RollPublication {
        let lane = ConcurrentLane(jobs: jobs)
        defer { lane.wait() }
        let pushes = try publishModules(
            execution.moduleUpdates, plan: plan, snapshot: snapshot, mirrors: mirrors, recorder: recorder, jobs: jobs,
            lane: lane)
        var publication = pushes.publication
        for (module, refs) in pushes.protected {
            publication.noteProtected(refs, module: module, execution: execution, plan: plan)
        }
        // The mirrors record what their remotes now have while the superproject's push runs: the bookkeeping is
        // not on the path to the last push. (With `--jobs 1`, after it: one git process at a time, in a fixed
        // order.)
        let console = self.console
        let checkouts = moduleCheckouts(snapshot)
        try Concurrent.alongside(
            jobs: jobs,
            { try Self.recordLanded(pushes.landed, lane: lane, checkouts: checkouts, jobs: jobs, console: console) }
        ) {
            try publishSuperproject(
                execution, plan: plan, recorder: recorder, tracking: SuperprojectRemote.pushTracking(snapshot),
                into: &publication)
        }
        return publication
    }

    /// The module mirrors, then the module checkouts, record the branches that landed on the module remotes (as
    /// `git push` would have told a checkout); a checkout that cannot is a warning. A push whose mirror failed to
    /// record it as it landed (``LandedPush/triedEarly``) leaves out the branches its mirror has already.
    static func recordLanded(
        _ landed: [LandedPush], checkouts: ModuleCheckoutTracking, jobs: Int, console: Console?
    ) throws {
        _ = try Concurrent.map(landed, jobs: jobs) { job in try job.recordInMirror(tolerating: job.triedEarly) }
        recordInCheckouts(landed, checkouts: checkouts, console: console)
    }

    /// Waits for the mirrors' records handed to `lane` (``publishModules(_:plan:snapshot:mirrors:recorder:jobs:lane:stopped:)``);
    /// the module checkouts of the mirrors that recorded learn what landed, and the pushes a mirror could not record
    /// are recorded again (``recordLanded(_:checkouts:jobs:console:)``, which reports a failure).
    static func recordLanded(
        _ landed: [LandedPush], lane: ConcurrentLane, checkouts: ModuleCheckoutTracking, jobs: Int, console: Console?
    ) throws {
        let failures = lane.wait()
        var recorded: [LandedPush] = []
        var again: [LandedPush] = []
        for push in landed {
            guard failures[push.name] != nil else {
                recorded.append(push)
                continue
            }
            var retry = push
            retry.triedEarly = true
            again.append(retry)
        }
        recordInCheckouts(recorded, checkouts: checkouts, console: console)
        try recordLanded(again, checkouts: checkouts, jobs: jobs, console: console)
    }

    /// The module checkouts learn what their remote now has, as `git push` would have told them; a checkout that
    /// cannot is a warning on `console`.
    static func recordInCheckouts(_ landed: [LandedPush], checkouts: ModuleCheckoutTracking, console: Console?) {
        let warnings = checkouts.record(
            landed.map { .init(module: $0.name, updates: $0.updates, mirror: $0.mirror.path) })
        for warning in warnings { console?.warn(warning) }
    }

    /// The journal of every remote ref the execution wants to change, modules first.
    static func journal(plan: RollPlan, execution: RollExecution, snapshot: Snapshot, start: Date) -> RollJournal {
        var journal = RollJournal(
            runId: RollJournal.newRunId(), createdAt: ISO8601DateFormatter().string(from: start),
            entries: moduleEntries(plan: plan, updates: execution.moduleUpdates, snapshot: snapshot))
        for update in execution.superprojectUpdates {
            journal.entries.append(
                .init(
                    repository: RollPublication.superproject, remote: snapshot.workspace.remoteName,
                    ref: update.ref.name, old: update.old?.hex, new: update.new?.hex ?? ""))
        }
        return journal
    }

    /// The journal entries of the module branch updates, in the plan's module order.
    static func moduleEntries(plan: RollPlan, updates: [String: [RefUpdate]], snapshot: Snapshot)
        -> [RollJournal.Entry]
    {
        var entries: [RollJournal.Entry] = []
        for module in plan.modules {
            for update in updates[module.name] ?? [] {
                entries.append(
                    .init(
                        repository: module.name, remote: RemoteURL.redacted(snapshot.specs[module.name]?.url ?? ""),
                        ref: update.ref.name,
                        old: update.old?.hex, new: update.new?.hex ?? ""))
            }
        }
        return entries
    }

    /// A module push that landed: the branches its mirror must record.
    struct LandedPush: Sendable {
        var name: String
        var updates: [RefUpdate]
        var mirror: GitRepository
        /// The mirror tried to record them as the push landed and failed: some may be recorded already.
        var triedEarly = false

        /// The mirror records the pushed branches in one ref transaction. `tolerating`: a branch the mirror has at
        /// its new commit already is left out (recorded before), so that a second try asks only for what is missing.
        func recordInMirror(tolerating: Bool) throws {
            let context = "record the pushed branches of \(name) in its mirror"
            var updates = self.updates
            if tolerating {
                let current = try mirror.refs(updates.map(\.ref.name), what: "the mirror of \(name)")
                updates.removeAll { current[$0.ref.name] == $0.new?.hex }
            }
            try mirror.applyRefUpdates(updates, context: context)
        }
    }

    /// What the module pushes did: the publication so far, the pushes that landed and that the mirrors have still
    /// to record, and the branches refused as protected per module (noted once the execution is known).
    struct ModulePushes: Sendable {
        var publication = RollPublication()
        var landed: [LandedPush] = []
        var protected: [(module: String, refs: Set<String>)] = []
    }

    /// Pushes every module repository that has updates from its mirror (`mirrors`, the executor's), `jobs` at a
    /// time, each in one atomic push; records each outcome in the journal as it lands. The mirror's record of a
    /// landed push is handed to `lane` (keyed by the module's name) as soon as the push answered, so the next push
    /// does not wait for it. No push starts once `stopped` is set (the superproject's commits could not be written).
    func publishModules(
        _ moduleUpdates: [String: [RefUpdate]], plan: RollPlan, snapshot: Snapshot, mirrors: [String: GitRepository],
        recorder: RollJournalRecorder, jobs: Int, lane: ConcurrentLane, stopped: Locked<Bool> = Locked(false)
    ) throws -> ModulePushes {
        let work: [(name: String, updates: [RefUpdate], mirror: GitRepository, url: String)] = plan.modules.compactMap {
            module in
            guard let updates = moduleUpdates[module.name], !updates.isEmpty,
                let mirror = mirrors[module.name], let url = snapshot.specs[module.name]?.url
            else { return nil }
            return (module.name, updates, mirror, url)
        }
        let console = self.console
        let outcomes = try Concurrent.map(work, jobs: jobs) { job -> ReviewProtectedBranches.Outcome in
            try recorder.requireWritable()
            if stopped.current {
                throw RollError("\(job.name) was not pushed: the superproject's commits could not be written")
            }
            let count = job.updates.count
            console?.progress("pushing \(count) branch\(count == 1 ? "" : "es") of \(job.name)")
            // Branches refused as protected are left out and the others pushed again: only their tenants wait. The
            // mirror is a cache of the remote: it records what landed in the lane, beside the next pushes (a failure
            // is tried again beside the superproject's push, and reported there).
            return try ReviewProtectedBranches.push(
                job.updates, record: { try recorder.record(repository: job.name, refs: $0, published: $1) }
            ) { updates in
                // A mirror of a few hundred refs names its branches in the push rather than staging them.
                let push = try job.mirror.pushLeavingRecord(updates, as: job.name, to: job.url, weighStaging: true)
                if let record = push.record { lane.run(job.name) { record.complete() } }
                return push.outcome
            }
        }
        var result = ModulePushes()
        for (job, outcome) in zip(work, outcomes) {
            result.publication.pushes += outcome.pushes
            if !outcome.protected.isEmpty { result.protected.append((job.name, outcome.protected)) }
            if outcome.accepted {
                result.publication.pushedModules.insert(job.name)
                // The mirror is a cache of the remote: it records what the remote now has.
                let updates = job.updates.filter { !outcome.protected.contains($0.ref.name) }
                if !updates.isEmpty {
                    result.landed.append(LandedPush(name: job.name, updates: updates, mirror: job.mirror))
                }
            } else {
                result.publication.failedModules[job.name] = outcome.last?.detail ?? "rejected"
            }
        }
        return result
    }

    /// Pushes the superproject's branches in one atomic push: the general branch and every tenant whose module
    /// commits are all on the module remotes. `tracking`: where the pushed branches are recorded.
    func publishSuperproject(
        _ execution: RollExecution, plan: RollPlan, recorder: RollJournalRecorder, tracking: [PushTracking],
        into publication: inout RollPublication
    ) throws {
        let branchOwner = Dictionary(
            plan.tenants.map { ("refs/heads/" + $0.tenant.branch, $0.tenant.id) },
            uniquingKeysWith: { first, _ in first })
        var updates: [RefUpdate] = []
        for update in execution.superprojectUpdates {
            if let tenant = branchOwner[update.ref.name] {
                if let reason = publication.protectedTenants[tenant] {
                    publication.rejected[tenant] = reason
                    continue
                }
                let missing = (execution.tenantNeeds[tenant] ?? []).filter { !publication.pushedModules.contains($0) }
                if !missing.isEmpty {
                    publication.rejected[tenant] =
                        "not pushed: the push of "
                        + missing.sorted().map {
                            "\($0) was rejected (\(publication.failedModules[$0] ?? "not pushed"))"
                        }
                        .joined(separator: ", ")
                    continue
                }
            }
            updates.append(update)
        }
        // By ref name, in a set: one update per branch, and `contains` on the array was quadratic in the tenants.
        let pushing = Set(updates.map(\.ref))
        let held = execution.superprojectUpdates.filter { !pushing.contains($0.ref) }
        if !held.isEmpty {
            try recorder.record(
                repository: RollPublication.superproject, refs: held.map(\.ref.name), published: false)
        }
        guard !updates.isEmpty else { return }
        let count = updates.count
        console?.progress("pushing \(count) superproject branch\(count == 1 ? "" : "es")")
        let name = RollPublication.superproject
        let superproject = workspace.superproject
        let remote = workspace.remoteName
        // Branches refused as protected are left out and the others pushed again.
        let outcome = try ReviewProtectedBranches.push(
            updates, record: { try recorder.record(repository: name, refs: $0, published: $1) }
        ) { updates in
            try superproject.push(updates, as: name, to: remote, tracking: tracking)
        }
        publication.pushes += outcome.pushes
        for update in updates {
            let refused = outcome.protected.contains(update.ref.name)
            guard refused || !outcome.accepted else { continue }
            let detail =
                refused
                ? ReviewProtectedBranches.refusal(outcome.pushes.first) : (outcome.last?.detail ?? "rejected")
            if let tenant = branchOwner[update.ref.name] {
                publication.rejected[tenant] = detail
                if refused { publication.protectedTenants[tenant] = detail }
            } else {
                publication.generalRejected = true
            }
        }
    }
}

/// What publishing did: every push's outcome and which tenants it left out.
public struct RollPublication: Sendable, Equatable {
    /// The repository name of the superproject in pushes and the journal.
    public static let superproject = "superproject"

    /// Every push, modules first.
    public var pushes: [PushOutcome] = []
    /// Modules whose push landed.
    public var pushedModules: Set<String> = []
    /// Module → why its push was refused.
    public var failedModules: [String: String] = [:]
    /// Tenant → why its superproject branch was not published.
    public var rejected: [String: String] = [:]
    /// Whether the general branch's re-pin was refused.
    public var generalRejected = false
    /// Tenant → why one of its branches was refused as protected (its way out is `roll --review`).
    public var protectedTenants: [String: String] = [:]
}
