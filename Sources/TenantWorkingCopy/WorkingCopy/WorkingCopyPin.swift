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
    /// The superproject.
    public var workspace: Workspace
    /// The git runner.
    public var git: Git
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
        workspace: Workspace, git: Git, fetch: Bool = true, push: Bool = false, toGeneral: Bool = false,
        console: Console? = nil, transaction: Transaction? = nil
    ) {
        self.workspace = workspace
        self.git = git
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
    public func run(modules names: [String]) throws -> PinReport {
        let project = try BranchProject.workingTree(
            workspace, git: git, options: ValidationOptions(allowLocalRemotes: git.allowLocalRemotes))
        let unknown = names.filter { project.module(named: $0) == nil }
        guard unknown.isEmpty else {
            throw UnknownNameError(kind: "module", names: unknown, known: project.manifest.modules.map(\.name))
        }
        var problems: [WorkingCopyProblem] = []
        let superState = try RepositoryState.inspect(path: workspace.root, git: git, superproject: true)
        problems += superState.problems(repository: "superproject", relativePath: "")
        var branch = ""
        var tenant: Tenant?
        if let current = superState.currentBranch {
            branch = current
            tenant = project.tenant(onBranch: current)
            if tenant == nil && current != project.manifest.generalBranch {
                problems.append(
                    WorkingCopyProblem(
                        repository: "superproject", path: "",
                        reason: "branch \(current) is neither \(project.manifest.generalBranch) nor a tenant's branch"))
            }
        } else {
            problems.append(
                WorkingCopyProblem(
                    repository: "superproject", path: "",
                    reason: "detached HEAD; switch to a tenant first (tenantctl switch <tenant>)"))
        }
        var selected: [Module] = []
        if names.isEmpty {
            selected = project.manifest.modules
        } else {
            for name in names {
                if let module = project.manifest.modules.first(where: { $0.name == name }) {
                    selected.append(module)
                } else {
                    problems.append(WorkingCopyProblem(repository: name, path: "", reason: "no module named \(name)"))
                }
            }
        }
        // A gitlink staged at the module's HEAD is what a pin stopped between staging and committing leaves (and
        // exactly what this pin stages): it never blocks the re-run. Any other staged or modified path does.
        let ownStaged = Set(
            superState.status.entries.filter {
                $0.kind == .changed && $0.indexStatus == "M" && $0.worktreeStatus == "."
                    && $0.submodule.map { !$0.modified } == true
            }.map(\.path)
        ).intersection(selected.map(\.path))
        problems.removeAll { $0.repository == "superproject" && ownStaged.contains($0.path) }
        let pins =
            superState.head == nil
            ? [:]
            : try PinReader.pins(
                at: "HEAD", paths: project.manifest.modules.map(\.path), in: workspace.root, git: git)
        let stoppedRecords = try stoppedRunRecords()
        var changes: [PinReport.Change] = []
        var moduleBranches: [String: String] = [:]
        var before = [
            RunJournal.Before(repository: "superproject", branch: superState.currentBranch, head: superState.head)
        ]
        for module in selected {
            let path = workspace.path(module.path)
            guard try CheckoutPresence.of(path, git: git) == .repository else {
                if !names.isEmpty {
                    problems.append(
                        WorkingCopyProblem(repository: module.name, path: module.path, reason: "not initialised"))
                }
                continue
            }
            let state = try RepositoryState.inspect(path: path, git: git)
            problems += state.problems(repository: module.name, relativePath: module.path)
            // An annotated tag as pin is peeled: a HEAD at the tagged commit is at its pin.
            let pinned = try pins[module.path].map { recorded in
                try GitRepository(path, git: git).commit(of: recorded) ?? recorded
            }
            guard let head = state.head, head != pinned else { continue }
            // The re-run of a stopped pin pins what that run set out to pin: a module it did not record is one
            // whose pin its landing moved (a roll's), with the checkout still at the old pin; it is never pinned
            // back.
            if let recorded = stoppedRecords, !recorded.contains(module.name) { continue }
            let expected = project.branch(of: module, for: tenant)
            guard let current = state.currentBranch else {
                problems.append(
                    WorkingCopyProblem(
                        repository: module.name, path: module.path,
                        reason: "detached HEAD; check out \(expected) and commit there first"))
                continue
            }
            guard current == expected else {
                problems.append(
                    WorkingCopyProblem(
                        repository: module.name, path: module.path,
                        reason: "on branch \(current), but \(branch) takes \(module.name) from \(expected)"))
                continue
            }
            if fetch {
                console?.progress("fetching \(module.name)")
                try GitRepository(path, git: git).fetchOrigin(prune: true, module: module.name)
            }
            let unpushed = try GitRepository(path, git: git).countCommits(
                from: head, context: "look for unpushed commits of \(module.name)")
            if unpushed != 0 && !push {
                problems.append(
                    WorkingCopyProblem(
                        repository: module.name, path: module.path,
                        reason: "commit \(ObjectID.short(head)) is not on the module's remote (\(unpushed) unpushed); "
                            + "push it first or run with --push"))
            }
            if unpushed != 0 && push {
                let remoteBranch = try GitRefs.branches(
                    under: "refs/remotes/\(Workspace.defaultRemoteName)/", in: path, git: git, what: module.name)[
                        current]
                if remoteBranch == nil {
                    problems.append(
                        WorkingCopyProblem(
                            repository: module.name, path: module.path,
                            reason: "branch \(current) does not exist on the remote of \(module.name) (deleted "
                                + "there?); pin --push never recreates a branch"))
                }
                if let tenant, current == project.generalBranch(of: module), !toGeneral {
                    problems.append(
                        WorkingCopyProblem(
                            repository: module.name, path: module.path,
                            reason: "\(current) is \(module.name)'s general branch, shared by every tenant, and "
                                + "\(tenant.id) does not customise \(module.name); push it from the \(current) "
                                + "view, customise it (tenantctl customize \(tenant.id) \(module.name)), or run with "
                                + "--to-general"))
                }
            }
            moduleBranches[module.name] = unpushed != 0 ? current : nil
            before.append(RunJournal.Before(repository: module.name, branch: current, head: head))
            changes.append(
                PinReport.Change(
                    module: module.name, path: module.path, old: pins[module.path], new: head, pushed: false))
        }
        var landing: PinLanding?
        var unpublished: String?
        // The superproject branch on the remote before this run: what `runs --abort` sets it back to.
        var superprojectRemoteBefore: String?
        // Where the pin commit goes: also without --push, a pin never commits on a branch the remote has moved
        // past (a roll ran): that would leave the local branch diverged from its remote.
        if (push || !changes.isEmpty) && !branch.isEmpty, let head = superState.head {
            let remote = try WorkingCopyRemote.branches(workspace, git: git, fetch: fetch, console: console)
            superprojectRemoteBefore = remote[branch]
            if let remoteTip = remote[branch] {
                let relation = try PinLanding.relation(
                    head: head, remoteTip: remoteTip, branch: branch, changes: changes, pins: pins,
                    modules: project.manifest.modules, push: push, workspace: workspace, git: git)
                switch relation {
                case .published, .behindWithNothingToPin: break
                case .ahead where changes.isEmpty && push:
                    unpublished = head
                    problems += try unpublishedPins(
                        head: head, remoteTip: remoteTip, pins: pins, modules: project.manifest.modules)
                case .ahead: break
                case .moved(let target): landing = target
                case .refused(let problem): problems.append(problem)
                }
            } else if push && !changes.isEmpty {
                problems.append(
                    WorkingCopyProblem(
                        repository: "superproject", path: "",
                        reason: "branch \(branch) does not exist on the remote (deleted there?); pin --push never "
                            + "recreates a branch"))
            }
        }
        guard problems.isEmpty else {
            throw WorkingCopyRefusal(
                action: "pin on \(branch.isEmpty ? "a detached HEAD" : branch)", problems: problems)
        }
        // Before the first change: the superproject and every module it may pin, as they are now.
        try transaction?.recordBefore(before)
        if let landing {
            changes = landing.changes
            // Every change is on the remote's new tip already (a landing pin stopped after its push): the local
            // branch only needs to catch up.
            if changes.isEmpty {
                try moveLocal(branch, to: landing.remoteTip)
                return PinReport(
                    branch: branch, commit: nil, pushed: false, changes: [], landedOn: landing.remoteTip,
                    behind: landing.behind)
            }
        }
        guard !changes.isEmpty else {
            // A pin commit of an earlier run whose superproject push failed or was interrupted: publish it.
            if let unpublished {
                try publish(unpublished, branch: branch, remoteBefore: superprojectRemoteBefore)
                return PinReport(branch: branch, commit: unpublished, pushed: true, changes: [])
            }
            return PinReport(branch: branch, commit: nil, pushed: false, changes: [])
        }

        // Modules first: a superproject commit never reaches the remote before the module commits it pins.
        if push {
            // The pin commit comes after the module pushes: an identity git commit would refuse stops it before them.
            _ = try CommitIdentity.read(in: workspace.root, git: git)
            for index in changes.indices {
                guard let moduleBranch = moduleBranches[changes[index].module] else { continue }
                console?.progress("pushing \(changes[index].module) \(moduleBranch)")
                let update = RefUpdate(ref: "refs/heads/\(moduleBranch)", new: changes[index].new, old: nil)
                let remoteBefore = try GitRepository(workspace.path(changes[index].path), git: git).lookUp(
                    "refs/remotes/\(Workspace.defaultRemoteName)/\(moduleBranch)",
                    context: "read the remote branch \(moduleBranch) of \(changes[index].module)")
                try AtomicPush.push(
                    [update], repository: "module \(changes[index].module)", from: workspace.path(changes[index].path),
                    to: workspace.remoteName, git: git
                ).requireAccepted()
                changes[index].pushed = true
                // What landed is journalled: a run that stops after this (a failed superproject push) stays
                // unfinished, and the other writing commands refuse until its re-run publishes the pin or
                // `runs --abort` takes the push back to the value the branch had (as last fetched).
                try transaction?.record(
                    repository: changes[index].module, remote: workspace.remoteName,
                    refs: [RefUpdate(ref: update.ref, new: update.new, old: remoteBefore)], published: true,
                    landed: nil)
            }
        }
        if let landing {
            // The remote branch moved on (a roll ran) and changed no pin this pin changes: the pin commit is written
            // on the remote tip with plumbing (the working copy untouched), pushed (with --push), and only then the
            // local branch is fast-forwarded to it. A run stopped before the push left nothing; one stopped after
            // it is finished by the re-run's catch-up above.
            let root = workspace.root
            let batch = try CatFileBatch(git: git, repository: root)
            let tree = try TreeWriter(batch: batch, repository: root, git: git).write(
                base: landing.remoteTip + "^{tree}",
                edits: changes.map { PathEdit(path: $0.path, change: .gitlink($0.new)) })
            try batch.close()
            let commit = try CommitWriter.write(
                CommitSpec(
                    tree: tree, parents: [landing.remoteTip], message: Self.message(branch: branch, changes: changes)),
                in: root, identity: try CommitIdentity.read(in: root, git: git), git: git)
            if push { try publish(commit, branch: branch, local: false, remoteBefore: landing.remoteTip) }
            try moveLocal(branch, to: commit)
            return PinReport(
                branch: branch, commit: commit, pushed: push, changes: changes, landedOn: landing.remoteTip,
                behind: landing.behind)
        }
        let superproject = GitRepository(workspace.root, git: git)
        for change in changes {
            try superproject.stageGitlink(change.path, at: change.new, context: "stage the pin of \(change.module)")
        }
        try superproject.commit(
            message: Self.message(branch: branch, changes: changes), context: "commit the new pins on \(branch)")
        let commit = try superproject.headCommit(context: "read the new pin commit")
        try transaction?.record(
            repository: "superproject", remote: workspace.remoteName,
            refs: [RefUpdate(ref: "refs/heads/\(branch)", new: commit, old: superState.head)], published: nil,
            landed: true)
        if push { try publish(commit, branch: branch, remoteBefore: superprojectRemoteBefore) }
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
            try AtomicPush.push(
                [RefUpdate(ref: "refs/heads/\(branch)", new: commit, old: nil)], repository: "the superproject",
                from: workspace.root, to: workspace.remoteName,
                tracking: try SuperprojectRemote.pushTracking(workspace, git: git), git: git
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
            refs: [RefUpdate(ref: "refs/heads/\(branch)", new: commit, old: remoteBefore)], published: true,
            landed: nil)
    }

    /// Pins that the local commits ahead of the remote add and that are on no remote-tracking branch of their
    /// module: publishing those commits as they are would pin commits nobody else can fetch.
    private func unpublishedPins(head: String, remoteTip: String, pins: [String: String], modules: [Module]) throws
        -> [WorkingCopyProblem]
    {
        let remotePins = try PinReader.pins(
            at: remoteTip, paths: modules.map(\.path), in: workspace.root, git: git)
        var problems: [WorkingCopyProblem] = []
        for module in modules {
            guard let pin = pins[module.path], pin != remotePins[module.path] else { continue }
            let path = workspace.path(module.path)
            guard try CheckoutPresence.of(path, git: git) == .repository,
                try GitRepository(path, git: git).hasCommit(pin)
            else { continue }
            let unpushed = try GitRepository(path, git: git).unpublished(pin, beyond: nil)
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
        let superproject = GitRepository(workspace.root, git: git)
        try superproject.refreshIndex(ignoringSubmodules: true, context: "refresh the index of the superproject")
        try superproject.resetKeep(
            to: commit, recurseSubmodules: false, context: "move \(branch) to \(ObjectID.short(commit))")
    }
}
