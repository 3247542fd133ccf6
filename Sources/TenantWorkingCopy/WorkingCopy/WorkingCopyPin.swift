import Foundation

/// What `tenantctl pin` recorded.
public struct PinReport: Sendable, Codable, Equatable {
    /// One module's pin change.
    public struct Change: Sendable, Codable, Equatable {
        /// Module name.
        public var module: String
        /// Path in the superproject.
        public var path: String
        /// The pin before.
        public var old: String?
        /// The pin now (the module's HEAD).
        public var new: String
        /// Whether the module branch was pushed by this run.
        public var pushed: Bool
    }

    /// Format version of this JSON.
    public var schemaVersion = 1
    /// The superproject branch.
    public var branch: String
    /// The new superproject commit; nil when nothing changed.
    public var commit: String?
    /// Whether the superproject branch was pushed.
    public var pushed: Bool
    /// Changed pins in manifest order.
    public var changes: [Change]
    /// The remote tip the pin commit was made on when the remote branch had moved on (a roll ran); nil otherwise.
    public var landedOn: String?
    /// Modules whose pins moved with the remote branch the pin landed on: their checkouts are behind their new pins
    /// until `tenantctl switch <branch>`.
    public var behind: [String]?
}

/// `tenantctl pin`: record module HEADs as the pins of the current superproject branch, in one commit.
public struct WorkingCopyPin: Sendable {
    /// The superproject (its runner runs every git call of the pin).
    public var workspace: Workspace
    /// Fetch the module remotes before checking that commits are pushed.
    public var fetch: Bool
    /// Push modules first, then the superproject.
    public var push: Bool
    /// Allow pushing a module's general branch from a tenant view (`--to-general`).
    public var toGeneral: Bool
    /// Progress output.
    public var console: Console?
    /// The run journal: it records the branch and HEAD of the superproject and of every module the pin changes
    /// before the first change.
    public var transaction: Transaction?

    public init(
        workspace: Workspace, fetch: Bool = true, push: Bool = false, toGeneral: Bool = false,
        console: Console? = nil, transaction: Transaction? = nil
    ) {
        self.workspace = workspace
        self.fetch = fetch
        self.push = push
        self.toGeneral = toGeneral
        self.console = console
        self.transaction = transaction
    }

    /// The commit message: a summary line, then `module: old → new` per module.
    public static func message(branch: String, changes: [PinReport.Change]) -> String {
        let names = changes.map(\.module).joined(separator: ", ")
        return "Pin \(names) on \(branch)\n\n"
            + changes.map { "\($0.module): \(ObjectID.short($0.old, none: "none")) → \(ObjectID.short($0.new))" }
            .joined(separator: "\n") + "\n"
    }

    /// Pins `names` (every module when empty). Throws ``WorkingCopyRefusal`` with every problem before any change.
    ///
    /// Observe the working copy (``PinObservation``), plan (``PinPlanner``, pure), read the superproject's remote
    /// where the plan needs it, then execute the plan and report.
    public func run(modules names: [String]) throws -> PinReport {
        let project = try BranchProject.workingTree(
            workspace, options: ValidationOptions(allowLocalRemotes: workspace.git.allowLocalRemotes))
        let unknown = names.filter { project.module(named: $0) == nil }
        guard unknown.isEmpty else {
            throw UnknownNameError(kind: "module", names: unknown, known: project.manifest.modules.map(\.name))
        }
        var observation = try observe(project: project, names: names)
        try observePublication(&observation)
        var plan = PinPlanner.plan(observation, push: push, toGeneral: toGeneral)
        plan = PinPlanner.land(plan, remote: try observeRemote(plan, observation: observation), push: push)
        if let refusal = plan.refusal { throw refusal }
        return try execute(plan)
    }

    /// Reads the superproject's state and pins and the checkout of every selected module; no fetch.
    func observe(project: Project, names: [String]) throws -> PinObservation {
        let superState = try RepositoryState.inspect(workspace.superproject, superproject: true)
        let pins =
            superState.head == nil
            ? [:]
            : try workspace.superproject.pins(at: "HEAD", paths: project.manifest.modules.map(\.path))
        var observation = PinObservation(
            project: project, names: names, superproject: superState, pins: pins,
            stoppedRecords: try stoppedRunRecords(), checkouts: [:])
        for module in PinPlanner.selected(observation) {
            let checkout = workspace.checkout(at: module.path)
            guard try CheckoutPresence.of(checkout) == .repository else { continue }
            let state = try RepositoryState.inspect(checkout)
            // An annotated tag as pin is peeled: a HEAD at the tagged commit is at its pin.
            let pinned = try pins[module.path].map { recorded in
                try checkout.objectID(of: recorded, peeledTo: .commit)?.hex ?? recorded
            }
            observation.checkouts[module.name] = PinObservation.Checkout(state: state, pinned: pinned)
        }
        return observation
    }

    /// Fetches each candidate module (unless `fetch` is off) and reads whether its HEAD is on its remote.
    func observePublication(_ observation: inout PinObservation) throws {
        for candidate in PinPlanner.candidates(observation) {
            let module = candidate.module
            let checkout = workspace.checkout(at: module.path)
            if fetch {
                console?.progress("fetching \(module.name)")
                try checkout.fetchOrigin(prune: true, module: module.name)
            }
            let unpushed = try checkout.countCommits(
                from: candidate.head, context: "look for unpushed commits of \(module.name)")
            var publication = PinObservation.Publication(unpushed: unpushed)
            if unpushed != 0 && push {
                let remoteBranches = try checkout.branches(
                    under: "refs/remotes/\(Workspace.defaultRemoteName)/", what: module.name)
                publication.remoteHasBranch = remoteBranches[candidate.branch] != nil
                if let remoteTip = remoteBranches[candidate.branch] {
                    // A colleague pushed to the branch: the push would be refused after the earlier module pushes
                    // landed. Found here, before any write.
                    publication.behindRemote = try checkout.counts(candidate.head, remoteTip).right
                }
            }
            observation.checkouts[module.name]?.publication = publication
        }
    }

    /// Fetches the superproject's branches and reads where the local branch is against its remote; nil when the
    /// plan needs no remote (``PinPlanner/readsRemote(_:push:)``).
    func observeRemote(_ plan: PinPlan, observation: PinObservation) throws -> PinRemoteObservation? {
        guard PinPlanner.readsRemote(plan, push: push), let head = plan.head else { return nil }
        let remote = try WorkingCopyRemote.branches(workspace, fetch: fetch, console: console)
        guard let remoteTip = remote[plan.branch] else { return PinRemoteObservation(tip: nil) }
        let modules = observation.project.manifest.modules
        let relation = try PinLanding.relation(
            head: head, remoteTip: remoteTip, branch: plan.branch, changes: plan.changes, pins: observation.pins,
            modules: modules, push: push, workspace: workspace)
        var result = PinRemoteObservation(tip: remoteTip, relation: relation)
        if relation == .ahead && PinPlanner.publishesAhead(plan, push: push) {
            result.unpublishedPins = try unpublishedPins(
                head: head, remoteTip: remoteTip, pins: observation.pins, modules: modules)
        }
        return result
    }

    /// Carries out a plan without problems: journals the records, pushes the modules, writes and publishes the pin
    /// commit, and reports.
    func execute(_ plan: PinPlan) throws -> PinReport {
        let branch = plan.branch
        // Before the first change: the superproject and every module it may pin, as they are now.
        try transaction?.recordBefore(plan.before)
        switch plan.step {
        case .catchUp(let landing):
            try moveLocal(branch, to: landing.remoteTip)
            return PinReport(
                branch: branch, commit: nil, pushed: false, changes: [], landedOn: landing.remoteTip,
                behind: landing.behind)
        case .publish(let unpublished):
            try publish(unpublished, branch: branch, remoteBefore: plan.remoteBefore)
            return PinReport(branch: branch, commit: unpublished, pushed: true, changes: [])
        case .nothing:
            return PinReport(branch: branch, commit: nil, pushed: false, changes: [])
        case .land(let landing):
            let changes = try pushModules(plan)
            return try land(changes, on: landing, branch: branch)
        case .commit:
            let changes = try pushModules(plan)
            return try commit(changes, branch: branch, remoteBefore: plan.remoteBefore, head: plan.head)
        }
    }

    /// With `--push`, pushes each module branch with unpushed commits, journalling what landed; the changes with
    /// `pushed` set. Modules first: a superproject commit never reaches the remote before the module commits it pins.
    func pushModules(_ plan: PinPlan) throws -> [PinReport.Change] {
        var changes = plan.changes
        guard push else { return changes }
        // The pin commit comes after the module pushes: an identity git commit would refuse stops it before them.
        _ = try workspace.superproject.commitIdentity()
        for index in changes.indices {
            guard let moduleBranch = plan.moduleBranches[changes[index].module] else { continue }
            console?.progress("pushing \(changes[index].module) \(moduleBranch)")
            let update = try RefUpdate(branch: moduleBranch, new: changes[index].new, old: nil)
            let remoteBefore = try workspace.checkout(at: changes[index].path).objectID(
                of: "refs/remotes/\(Workspace.defaultRemoteName)/\(moduleBranch)",
                context: "read the remote branch \(moduleBranch) of \(changes[index].module)")?.hex
            try workspace.checkout(at: changes[index].path).push(
                [update], as: "module \(changes[index].module)", to: workspace.remoteName
            ).requireAccepted()
            changes[index].pushed = true
            // What landed is journalled: a run that stops after this (a failed superproject push) stays
            // unfinished, and the other writing commands refuse until its re-run publishes the pin or
            // `runs --abort` takes the push back to the value the branch had (as last fetched).
            try transaction?.record(
                repository: changes[index].module, remote: workspace.remoteName,
                refs: [try RefUpdate(checking: update.ref.name, new: update.new?.hex, old: remoteBefore)],
                published: true,
                landed: nil)
        }
        return changes
    }

    /// The remote branch moved on (a roll ran) and changed no pin this pin changes: the pin commit is written on the
    /// remote tip with plumbing (the working copy untouched), pushed (with --push), and only then the local branch
    /// is fast-forwarded to it. A run stopped before the push left nothing; one stopped after it is finished by the
    /// re-run's catch-up.
    func land(_ changes: [PinReport.Change], on landing: PinLanding, branch: String) throws -> PinReport {
        let superproject = workspace.superproject
        let batch = try superproject.openBatch()
        let tree = try superproject.treeWriter(batch: batch).write(
            base: landing.remoteTip + "^{tree}",
            edits: changes.map { PathEdit(path: $0.path, change: .gitlink($0.new)) })
        try batch.close()
        let commit = try superproject.writeCommit(
            CommitSpec(
                tree: tree, parents: [landing.remoteTip], message: Self.message(branch: branch, changes: changes)),
            identity: try superproject.commitIdentity()
        ).hex
        if push { try publish(commit, branch: branch, local: false, remoteBefore: landing.remoteTip) }
        try moveLocal(branch, to: commit)
        return PinReport(
            branch: branch, commit: commit, pushed: push, changes: changes, landedOn: landing.remoteTip,
            behind: landing.behind)
    }

    /// The pin commit on the checked-out branch (staged gitlinks, `git commit`), journalled, then published with
    /// `--push`.
    func commit(_ changes: [PinReport.Change], branch: String, remoteBefore: String?, head: String?) throws
        -> PinReport
    {
        let superproject = workspace.superproject
        for change in changes {
            try superproject.stageGitlink(change.path, at: change.new, context: "stage the pin of \(change.module)")
        }
        try superproject.commit(
            message: Self.message(branch: branch, changes: changes), context: "commit the new pins on \(branch)")
        let commit = try superproject.resolve("HEAD", context: "read the new pin commit").hex
        try transaction?.record(
            repository: "superproject", remote: workspace.remoteName,
            refs: [try RefUpdate(branch: branch, new: commit, old: head)], published: nil,
            landed: true)
        if push { try publish(commit, branch: branch, remoteBefore: remoteBefore) }
        return PinReport(branch: branch, commit: commit, pushed: push, changes: changes)
    }

    /// The modules the stopped runs of this pin (unfinished, same arguments: this run finishes them) recorded before
    /// their first change; nil when there is none, or none recorded its repositories (stopped before it got there,
    /// or written by an older tenantctl).
    private func stoppedRunRecords() throws -> Set<String>? {
        guard let transaction else { return nil }
        let records = try RunJournal.unfinished(gitDirectory: workspace.commonDirectory)
            .filter { $0.commandName == "pin" && $0.runId != transaction.runId }
            .flatMap { $0.before ?? [] }
        guard !records.isEmpty else { return nil }
        return Set(records.map(\.repository))
    }

    /// Pushes the superproject branch at `commit` (a fast-forward). A failure leaves the commit on the local
    /// branch only, and says that the re-run publishes it.
    /// `remoteBefore`: the branch's value on the remote before (journalled where this push is the run's first step
    /// on that ref).
    private func publish(_ commit: String, branch: String, local: Bool = true, remoteBefore: String?) throws {
        console?.progress("pushing superproject \(branch)")
        do {
            try workspace.superproject.push(
                [try RefUpdate(branch: branch, new: commit, old: nil)], as: "the superproject",
                to: workspace.remoteName, tracking: try SuperprojectRemote.pushTracking(workspace)
            ).requireAccepted()
        } catch let error as PushRecordError {
            throw error  // it landed: the re-run finds the pin on the remote
        } catch {
            throw PushError(
                "\(error)\n"
                    + (local
                        ? "the pin commit \(ObjectID.short(commit)) is on the local branch \(branch) only (the module "
                            + "branches it pins are pushed)"
                        : "the superproject was not changed (the module branches are pushed)")
                    + "; to publish the pin, run: "
                    + (transaction?.current.rerunCommand(currentWorktree: workspace.root) ?? "tenantctl pin --push")
                    + (transaction.map {
                        "; or take back what it pushed and committed: tenantctl runs --abort \($0.runId)"
                    } ?? ""))
        }
        try transaction?.record(
            repository: "superproject", remote: workspace.remoteName,
            refs: [try RefUpdate(branch: branch, new: commit, old: remoteBefore)], published: true,
            landed: nil)
    }

    /// Pins that the local commits ahead of the remote add and that are on no remote-tracking branch of their
    /// module: publishing those commits as they are would pin commits nobody else can fetch.
    private func unpublishedPins(head: String, remoteTip: String, pins: [String: String], modules: [Module]) throws
        -> [WorkingCopyProblem]
    {
        let remotePins = try workspace.superproject.pins(at: remoteTip, paths: modules.map(\.path))
        var problems: [WorkingCopyProblem] = []
        for module in modules {
            guard let pin = pins[module.path], pin != remotePins[module.path] else { continue }
            let checkout = workspace.checkout(at: module.path)
            guard try CheckoutPresence.of(checkout) == .repository, try checkout.hasCommit(pin)
            else { continue }
            let unpushed = try checkout.unpublished(pin, beyond: nil)
            if unpushed.count > 0 {
                problems.append(
                    WorkingCopyProblem(
                        repository: module.name, path: module.path,
                        reason: "the unpushed superproject commits pin \(module.name) at "
                            + "\(ObjectID.short(pin)), which is not on the module's remote "
                            + "(\(English.count(unpushed.count, "commit")) unpushed); push it first"))
            }
        }
        return problems
    }

    /// Fast-forwards the checked-out `branch` to `commit` (`reset --keep`: the superproject is clean; module
    /// checkouts are not touched). `reset` takes no --end-of-options; `commit` is a full id.
    private func moveLocal(_ branch: String, to commit: String) throws {
        console?.progress("moving \(branch) to \(ObjectID.short(commit))")
        let superproject = workspace.superproject
        try superproject.refreshIndex(ignoringSubmodules: true, context: "refresh the index of the superproject")
        try superproject.resetKeep(
            to: commit, recurseSubmodules: false, context: "move \(branch) to \(ObjectID.short(commit))")
    }
}
