import Foundation

/// `tenantctl resolve --continue`: refuses while anything is unresolved; commits every concluded merge, sets every
/// pin by the rule, commits the superproject, puts the working copy on the tenant at the new pins, then publishes
/// like roll (modules first, then the superproject; each repository in one atomic push with a lease on every ref;
/// each push's outcome recorded in the run's own journal, which `--abort` and `roll --undo` take back). Every step
/// is idempotent, so a run killed anywhere goes on with `--continue`.
public struct ResolveContinuer {
    let workspace: Workspace
    let console: Console?
    /// The run's journal: the before-state, then every ref it publishes with its outcome.
    let transaction: Transaction

    public init(workspace: Workspace, console: Console? = nil, transaction: Transaction) {
        self.workspace = workspace
        self.console = console
        self.transaction = transaction
    }

    /// Finishes the resolution under way.
    public func run() throws -> ResolveReport {
        let common = workspace.commonDirectory
        var state = try ResolveState.inProgress(in: workspace, action: "continue")
        guard state.phase != .starting else {
            throw ResolveError(
                .refused,
                "the start of the resolution of \(state.tenant) was interrupted; run `tenantctl resolve "
                    + "\(state.tenant)` again (it puts back what the stopped start did and starts again), or "
                    + "`tenantctl resolve --abort`")
        }
        try transaction.recordBefore(try ResolveCheckouts.before(state, workspace: workspace))
        if state.phase == .resolving {
            try check(state)
            try commitModules(&state)
            try commitSuperproject(&state)
            state.phase = .committed
            try state.record(in: transaction, commonDirectory: common)
        }
        if state.review == true {
            // Proposed, not published: the working copy goes back once the proposals are out.
            state.left = try ResolveLeftFiles.record(state, workspace: workspace)
            try state.record(in: transaction, commonDirectory: common)
            return try propose(&state)
        }
        try alignWorkingCopy(state)
        // From here the working copy is the resolution's result: what `--abort` may put back without asking.
        state.left = try ResolveLeftFiles.record(state, workspace: workspace)
        try state.record(in: transaction, commonDirectory: common)
        return try publish(&state)
    }

    // MARK: - Checks

    /// Everything that keeps the merges from being committed, in every repository, as one refusal. Recognises merges
    /// already committed (by the user, or by a `--continue` that was interrupted).
    func check(_ state: ResolveState) throws {
        var problems: [String] = []
        for merge in state.modules {
            let checkout = workspace.checkout(at: merge.path)
            let inspected = try RepositoryState.inspect(checkout)
            problems += try Self.problems(of: merge, state: inspected, in: checkout, superproject: false)
        }
        let superState = try RepositoryState.inspect(workspace.superproject, superproject: true)
        problems += try Self.problems(
            of: state.superproject, state: superState, in: workspace.superproject, superproject: true)
        guard problems.isEmpty else {
            throw ResolveError(
                .unresolved,
                "cannot continue the resolution of \(state.tenant): \(problems.count) problem"
                    + "\(problems.count == 1 ? "" : "s"), nothing was committed\n"
                    + problems.map { "- " + $0 }.joined(separator: "\n")
                    + "\nresolve them, stage the files (git add), then run `tenantctl resolve --continue` again "
                    + "(or `tenantctl resolve --abort`)")
        }
    }

    /// The problems of one repository of the resolution that keep `--continue` from committing it (`status` says the
    /// same ones).
    static func problems(
        of merge: ResolveState.Merge, state: RepositoryState, in repository: GitRepository, superproject: Bool
    ) throws -> [String] {
        let path = repository.path
        let name = merge.repository
        let location = merge.path.isEmpty ? "" : merge.path + "/"
        var problems: [String] = []
        guard state.currentBranch == merge.branch else {
            return [
                "\(name) is on \(state.currentBranch ?? "a detached HEAD"), not on \(merge.branch); "
                    + "check out \(merge.branch) again (git\(merge.path.isEmpty ? "" : " -C \(merge.path)") switch "
                    + "\(merge.branch))"
            ]
        }
        for operation in state.operations where operation != "merge" {
            problems.append("\(name): a \(operation) is in progress; finish or abort it first")
        }
        let merging = state.operations.contains("merge")
        if merging {
            for entry in state.status.entries where entry.kind == .unmerged {
                problems.append("\(location)\(entry.path): unmerged; resolve it and stage it (git add)")
            }
        } else if let theirs = merge.theirs, !superproject {
            // Concluded outside tenantctl (or by an interrupted --continue): HEAD must hold both sides.
            guard let head = state.head, head != merge.ours,
                try repository.isAncestor(
                    merge.ours, of: head,
                    context: "check whether \(ObjectID.short(merge.ours)) is in \(ObjectID.short(head)) in \(path)"),
                try repository.isAncestor(
                    theirs, of: head,
                    context: "check whether \(ObjectID.short(theirs)) is in \(ObjectID.short(head)) in \(path)")
            else {
                return problems + [
                    "\(name): the merge of \(merge.generalBranch) into \(merge.branch) is no longer in progress "
                        + "and HEAD does not contain it (was it aborted?); run `tenantctl resolve --abort` and "
                        + "start again"
                ]
            }
        } else if superproject, merge.theirs != nil, state.head == merge.ours {
            problems.append(
                "superproject: the merge of \(merge.generalBranch) into \(merge.branch) is no longer in progress "
                    + "(was it aborted?); run `tenantctl resolve --abort` and start again")
        }
        for entry in state.status.entries where entry.kind == .changed || entry.kind == .renamed {
            if let submodule = entry.submodule, superproject || !submodule.modified {
                continue  // gitlinks are set by the pin rule; a nested checkout at another commit is no change
            }
            if entry.worktreeStatus != "." {
                problems.append(
                    "\(location)\(entry.path): modified but not staged; stage it (git add) or discard it "
                        + "(git restore)")
            }
        }
        let marked = ConflictMarkers.files(merge.conflicts, in: path)
        for file in marked {
            problems.append("\(location)\(file): still has conflict markers (<<<<<<< / >>>>>>>)")
        }
        return problems
    }

    // MARK: - Commits

    /// Commits every module merge still open (with roll's message) and records each tip.
    func commitModules(_ state: inout ResolveState) throws {
        for index in state.modules.indices {
            let merge = state.modules[index]
            let checkout = workspace.checkout(at: merge.path)
            if try isMerging(checkout.path) {
                console?.progress("\(merge.repository): committing the merge")
                try checkout.commit(
                    message: merge.message, noEdit: true, context: "commit the merge in \(merge.repository)")
            }
            state.modules[index].commit = try checkout.resolve("HEAD", context: "read the merge of \(merge.repository)")
                .hex
            try state.record(in: transaction, commonDirectory: workspace.commonDirectory)
        }
    }

    /// Sets every gitlink by the rule and commits the superproject (its merge, or a re-pin commit), unless an
    /// interrupted run already did.
    func commitSuperproject(_ state: inout ResolveState) throws {
        let root = workspace.root
        let merging = try isMerging(root)
        let superproject = workspace.superproject
        let head = try superproject.resolve("HEAD", context: "read the superproject's HEAD").hex
        if !merging && head != state.superproject.ours {
            // Committed by an interrupted --continue: its first parent is the tip the resolution started from.
            let parent = try superproject.resolve("HEAD^1", context: "read the superproject's commit").hex
            guard parent == state.superproject.ours else {
                throw ResolveError(
                    .refused,
                    "the superproject's \(state.branch) moved to \(ObjectID.short(head)) outside the resolution; run "
                        + "`tenantctl resolve --abort` and start again")
            }
            state.superproject.commit = head
            try amendPinsIfNeeded(&state, head: head)
            return
        }
        let changes = try pinChanges(state)
        try superproject.stageGitlinks(
            changes.all.map { ($0.path, $0.new.hex) }, removing: state.removedPaths,
            context: "set the superproject's pins by the rule")
        // A review resolution's trailer (started with it) ends the message as it ends a review roll's.
        let message =
            RollExecutor.tenantMessage(general: state.generalBranch, branch: state.branch, changes: changes.moved)
            + RolledByTrailer.paragraph(of: state.superproject.message)
        let staged = try superproject.hasStagedChanges(context: "look for staged changes in the superproject")
        guard merging || staged else {
            state.superproject.commit = nil  // nothing to commit: the tenant only needed its module merges pinned
            return
        }
        console?.progress("superproject: committing \(state.branch)")
        try superproject.commit(
            message: message, noEdit: true, context: "commit the resolution of \(state.tenant) in the superproject")
        state.superproject.commit = try superproject.resolve("HEAD", context: "read the superproject's commit").hex
        try state.record(in: transaction, commonDirectory: workspace.commonDirectory)
    }

    /// A superproject merge committed outside tenantctl (`git commit` by the user) with pins other than the rule's:
    /// the rule's gitlinks are staged and the commit amended (same parents, same message).
    func amendPinsIfNeeded(_ state: inout ResolveState, head: String) throws {
        let expected = try pinChanges(state).all
        let pinned = try workspace.superproject.pins(at: head, paths: expected.map(\.path))
        guard expected.contains(where: { pinned[$0.path] != $0.new.hex }) else { return }
        console?.progress("superproject: setting the pins of the committed merge by the rule")
        let superproject = workspace.superproject
        try superproject.stageGitlinks(
            expected.map { ($0.path, $0.new.hex) }, removing: state.removedPaths,
            context: "set the superproject's pins by the rule")
        try superproject.amend(context: "set the pins of the superproject's merge by the rule")
        state.superproject.commit = try superproject.resolve("HEAD", context: "read the superproject's commit").hex
        try state.record(in: transaction, commonDirectory: workspace.commonDirectory)
    }

    /// Every pin by the rule (`all`) and the ones that moved (`moved`), in manifest order.
    func pinChanges(_ state: ResolveState) throws -> (all: [PinChange], moved: [PinChange]) {
        var all: [PinChange] = []
        for pin in state.pins {
            let merge = state.modules.first { $0.repository == pin.module }
            guard let commit = pin.commit ?? merge?.commit ?? merge?.ours else { continue }
            all.append(
                PinChange(
                    module: pin.module, path: pin.path, old: try pin.old.map { try Self.commitID($0, pin.path, state) },
                    new: try Self.commitID(commit, pin.path, state)))
        }
        return (all, all.filter { $0.old != $0.new })
    }

    /// `text`, a pin of `path` the resolution's journal records, as an object id; a damaged record throws naming it.
    static func commitID(_ text: String, _ path: String, _ state: ResolveState) throws -> ObjectID {
        guard let id = ObjectID(text) else {
            throw ResolveError(
                .refused,
                "the resolution of \(state.tenant) records '\(text)' as a pin of \(path), not a full commit id: run "
                    + "`tenantctl resolve --abort` and start again")
        }
        return id
    }

    func isMerging(_ path: String) throws -> Bool {
        try RepositoryState.inspect(workspace.superproject.repository(at: path), superproject: path == workspace.root)
            .operations.contains(
                "merge")
    }

    // MARK: - Working copy

    /// Puts every module on its branch at its new pin (switch, from the local result; objects fetched as needed).
    func alignWorkingCopy(_ state: ResolveState) throws {
        for change in try pinChanges(state).all {
            let checkout = workspace.checkout(at: change.path)
            guard try CheckoutPresence.of(checkout) == .repository else { continue }
            try ResolveCheckouts.ensureCommits([change.new.hex], in: checkout, module: change.module, console: console)
        }
        _ = try WorkingCopySwitch(workspace: workspace, fetch: false, console: console).run(
            target: state.tenant)
    }

    // MARK: - Publishing

    /// The ref updates of the resolution: every module branch that moved, then the superproject branch.
    func updates(_ state: ResolveState) -> [ResolveState.Merge] {
        state.merges.filter { $0.commit != nil && $0.commit != $0.ours }
    }

    /// Checks every remote ref, then pushes modules first and the superproject last, journalled.
    func publish(_ state: inout ResolveState) throws -> ResolveReport {
        let common = workspace.commonDirectory
        let merges = updates(state)
        let landed = try landedOrRefused(&state, merges: merges)
        // Every ref of the resolution goes into this run's journal before the first push, with what is known of it
        // (published: found on its remote already, by a stopped run of --continue); then the state names this run.
        for merge in merges {
            guard let new = merge.commit else { continue }
            try transaction.record(
                repository: merge.repository, remote: merge.remote,
                refs: [try RefUpdate(branch: merge.branch, new: new, old: merge.ours)],
                published: landed.contains(merge.repository) ? true : nil, landed: nil)
        }
        state.runId = transaction.runId
        state.phase = .publishing
        try state.record(in: transaction, commonDirectory: common)
        var pushes: [PushOutcome] = []
        var rejected = false
        for merge in merges {
            guard let new = merge.commit else { continue }
            let ref = "refs/heads/" + merge.branch
            let update = try RefUpdate(checking: ref, new: new, old: merge.ours)
            if landed.contains(merge.repository) {
                try recordRemoteTrackingRef(merge, new: new)
                continue
            }
            let from = merge.isSuperproject ? workspace.superproject : workspace.checkout(at: merge.path)
            console?.progress("pushing \(merge.branch) of \(merge.repository)")
            let outcome: PushOutcome
            do {
                outcome = try from.push(
                    [update], as: merge.repository,
                    to: try ModuleRemotes.reachable(merge.remote, workspace: workspace), mode: .leased)
            } catch {
                try transaction.record(repository: merge.repository, refs: [update], published: nil, landed: nil)
                throw error
            }
            try transaction.record(
                repository: merge.repository, refs: [update], published: outcome.accepted, landed: nil)
            pushes.append(outcome)
            guard outcome.accepted else {
                rejected = true
                break  // the superproject never goes out before every module it pins
            }
            try recordRemoteTrackingRef(merge, new: new)
        }
        let ordered = Self.repositories(state, pushes: pushes, rejected: rejected)
        let pins = try pinChanges(state).moved
        if rejected {
            state.phase = .committed
            try state.record(in: transaction, commonDirectory: common)
            return ResolveReport(
                action: "continue", tenant: state.tenant, branch: state.branch, repositories: ordered, pins: pins,
                runId: state.runId, published: false, pushes: pushes,
                next: "tenantctl resolve --abort",
                notes: [
                    "a remote moved while publishing; what landed is in the journal of run \(transaction.runId) "
                        + "(tenantctl runs). Your resolution stays committed locally; `tenantctl resolve --abort` "
                        + "puts every repository back (and takes back what landed), then start again"
                ])
        }
        // The journal says finished before the state goes: stopped in between, a --continue still finds the
        // resolution and ends it, where the other order would leave an unfinished run with nothing to go on from.
        try transaction.finish()
        try ResolveState.remove(commonDirectory: common)
        return ResolveReport(
            action: "continue", tenant: state.tenant, branch: state.branch, repositories: ordered, pins: pins,
            runId: state.runId, published: true, pushes: pushes, next: "tenantctl audit")
    }

    /// The repositories whose branch is already at the resolution's commit on its remote (a stopped run of
    /// --continue pushed it); refuses, keeping the resolution committed, when any remote branch moved since the start.
    func landedOrRefused(_ state: inout ResolveState, merges: [ResolveState.Merge]) throws -> Set<String> {
        let undo = RollUndo(workspace: workspace)
        var landed: Set<String> = []
        var moved: [String] = []
        for merge in merges {
            guard let new = merge.commit else { continue }
            let entry = RollJournal.Entry(
                repository: merge.repository, remote: merge.remote, ref: "refs/heads/" + merge.branch, old: merge.ours,
                new: new)
            let current = try undo.remoteValues(of: [entry], repository: merge.repository)[entry.ref]
            if current == new {
                landed.insert(merge.repository)
            } else if current != merge.ours {
                moved.append(
                    "\(merge.repository) \(merge.branch) is \(ObjectID.short(current, none: "missing")) on "
                        + "its remote, not \(ObjectID.short(merge.ours)) as when the resolution started")
            }
        }
        guard moved.isEmpty else {
            state.phase = .committed
            try state.record(in: transaction, commonDirectory: workspace.commonDirectory)
            throw ResolveError(
                .remoteMoved,
                "refusing to publish the resolution of \(state.tenant): remote branches moved since it started:\n"
                    + moved.map { "  " + $0 }.joined(separator: "\n")
                    + "\n" + (landed.isEmpty ? "nothing was published. " : "")
                    + "Your resolution stays committed in the working copy. To go on: `tenantctl resolve --abort` "
                    + "puts every repository back as before (with `git config rerere.enabled true` git replays your "
                    + "resolutions), then `tenantctl resolve \(state.tenant)` starts again from the remotes' new state")
        }
        return landed
    }

    /// Each repository of the resolution with what publishing did to it, the superproject first.
    static func repositories(_ state: ResolveState, pushes: [PushOutcome], rejected: Bool) -> [ResolveReport.Repository]
    {
        let repositories = state.merges.map { merge -> ResolveReport.Repository in
            let status: String
            if merge.commit == nil || merge.commit == merge.ours {
                status = "up-to-date"
            } else if rejected {
                status =
                    pushes.contains { $0.repository == merge.repository && $0.accepted } ? "published" : "committed"
            } else {
                status = "published"
            }
            return ResolveReport.Repository(
                repository: merge.repository, path: merge.path, branch: merge.branch, status: status,
                from: merge.ours, to: merge.commit ?? merge.ours)
        }
        return
            repositories.filter { $0.repository == ResolveState.superproject }
            + repositories.filter { $0.repository != ResolveState.superproject }
    }

    /// Records a pushed branch as the remote's: the module's `refs/remotes/origin/<branch>`, or tenantctl's own ref
    /// of the superproject remote, so status and `--no-fetch` commands see it without a fetch.
    func recordRemoteTrackingRef(_ merge: ResolveState.Merge, new: String) throws {
        let ref =
            merge.isSuperproject
            ? SuperprojectRemote.refPrefix(workspace) + merge.branch : "refs/remotes/origin/" + merge.branch
        try workspace.repository(relative: merge.path).updateRef(
            ref, to: new, message: "tenantctl resolve: published",
            context: "record the published \(merge.branch) of \(merge.repository)")
    }
}
