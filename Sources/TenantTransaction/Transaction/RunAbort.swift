import Foundation

/// The two ways out of an unfinished run that every command has, whatever its own re-run does: `tenantctl runs
/// --abort <run-id>` takes its landed steps back, newest first, each only while its object is still exactly what the
/// run left (a remote ref with a lease, a local branch compared first); `tenantctl runs --forget <run-id>` says what
/// of the run is still on the remotes and marks it forgotten, so that it blocks nothing. Both are journalled runs of
/// their own (command `runs`): one killed half-way is unfinished, and its re-run finishes it.
public enum RunAbort {
    /// The commands whose steps `runs --abort` takes back: their steps are refs (remote branches and tags, a commit on
    /// the local branch). switch, resolve, init and roll have their own put-back (the next switch, `resolve --abort`,
    /// `roll --undo`).
    static let abortable: Set<String> = [
        "pin", "tenant add", "tenant remove", "module add", "module remove", "customize", "uncustomize", "tag",
    ]

    /// Whether `runs --abort` can take `run` back: a run of ``abortable``, or a resolve (taken back as `resolve
    /// --abort` takes the resolution back, by the resolve feature: ``abort(runId:in:wait:)`` leaves it to it).
    public static func canAbort(_ run: RunJournal) -> Bool {
        (abortable.contains(run.commandName) || run.commandName == "resolve") && !run.isUndo
    }

    /// One step of the run as the abort or the forget found it.
    public struct Step: Sendable, Equatable, Encodable {
        /// `superproject` or a module name.
        public var repository: String
        /// The full ref name (on the remote for a remote step, local for a local one).
        public var ref: String
        /// Whether it is a local branch of the run's worktree (a commit), not a remote ref.
        public var local: Bool
        /// The value the run left (nil: the run deleted it).
        public var left: String?
        /// The value before the run (nil: the run created it).
        public var before: String?
        /// Its value now (nil: absent, or could not be read: see `note`).
        public var now: String?
        /// What the abort did with it, or what the forget found, in words.
        public var note: String

        /// One line for the report.
        public var line: String {
            let name =
                ref.hasPrefix("refs/heads/")
                ? "branch " + ref.dropFirst("refs/heads/".count)
                : ref.hasPrefix("refs/tags/") ? "tag " + ref.dropFirst("refs/tags/".count) : ref
            return "\(repository) \(local ? "local " : "")\(name): \(note)"
        }
    }

    /// What `runs --abort` or `runs --forget` did.
    public struct Result: Sendable, Encodable {
        /// Format version of this JSON.
        public var schemaVersion = 1
        /// The run taken back or forgotten.
        public var runId: String
        /// `abort` or `forget`.
        public var action: String
        /// The run that did it (the `runs` run's own journal).
        public var by: String
        /// The steps put back (abort).
        public var undone: [Step] = []
        /// The steps left as they are, each with why: moved since (someone's work: kept), in a worktree that is gone;
        /// for a forget, every step that is still on a remote or a local branch.
        public var kept: [Step] = []
        /// The steps that had not landed or were taken back before: nothing to do.
        public var untouched: [Step] = []
        /// A forget's repairs: module checkouts a stopped switch was moving, left where they are, whose pointer
        /// (`core.worktree`, the `.git` file) was set to where the checkout is, as git could not work in them.
        public var repaired: [Step] = []
    }

    /// `runs --abort <run-id>`: under the workspace lock, as a journalled run of its own.
    public static func abort(runId: String, in workspace: Workspace, wait: Bool) throws -> Result {
        let lock = try WorkspaceLock(gitDirectory: workspace.commonDirectory, wait: wait)
        defer { lock.release() }
        let run = try unfinishedRun(runId, in: workspace, action: "--abort")
        guard canAbort(run), run.commandName != "resolve" else {
            let ways = run.waysOut(currentWorktree: workspace.root).filter { !$0.contains("runs --abort") }
            throw WorkspaceError(
                "`tenantctl runs --abort` cannot take back a `tenantctl \(run.commandName)` run (\(runId)): "
                    + "its own way out does: " + ways.joined(separator: ", or "))
        }
        // A commit on a local branch is taken back only in the worktree that made it.
        if run.hasLocalSteps, let worktree = run.worktree, worktree != workspace.root, !run.worktreeIsGone {
            throw WorkspaceError(
                "run \(runId) committed in the worktree \(worktree), and only there is that taken back: run "
                    + ShellWord.line(["tenantctl", "-C", worktree, "runs", "--abort", runId]))
        }
        let transaction = try Transaction.begin(workspace, command: "runs", arguments: ["--abort", runId])
        do {
            let result = try Undoer(run: run, workspace: workspace, transaction: transaction).undo()
            try transaction.finish(settling: [runId: .aborted])
            return result
        } catch {
            if !Cancellator.shared.isCancelled { throw transaction.fail(error) }
            throw error
        }
    }

    /// `runs --forget <run-id>`: under the workspace lock, as a journalled run of its own. What of the run is still on
    /// the remotes (and on a local branch) is read and returned first; then the run is marked forgotten.
    public static func forget(runId: String, in workspace: Workspace, wait: Bool) throws -> Result {
        let lock = try WorkspaceLock(gitDirectory: workspace.commonDirectory, wait: wait)
        defer { lock.release() }
        let run: RunJournal
        do {
            run = try unfinishedRun(runId, in: workspace, action: "--forget")
        } catch let error as WorkspaceError where error.description.contains("is cut off before its first step") {
            return try setAside(runId, in: workspace, wait: wait)
        }
        let transaction = try Transaction.begin(workspace, command: "runs", arguments: ["--forget", runId])
        do {
            var result = Result(runId: runId, action: "forget", by: transaction.runId)
            // First, so that the survey reads such a checkout. Only git's pointers to the checkout change, each to
            // where it is: done again by a re-run, it finds nothing to do, so it is no step of the forget's journal.
            result.repaired = try repairStoppedMoves(of: run, in: workspace)
            let undoer = Undoer(run: run, workspace: workspace, transaction: transaction)
            for step in undoer.survey() {
                if step.now != nil && step.now == step.left || step.note.hasPrefix("cannot read") {
                    result.kept.append(step)
                } else {
                    result.untouched.append(step)
                }
            }
            try transaction.recordChanged()
            try transaction.finish(settling: [runId: .forgotten])
            return result
        } catch {
            if !Cancellator.shared.isCancelled { throw transaction.fail(error) }
            throw error
        }
    }

    /// The module checkouts a stopped switch was moving when it was killed, each left where it is but with git's
    /// pointer to it set right where the move stopped between its steps (``StoppedCheckoutMove``): git could not
    /// work in it, and every next command failed on it. Only pointers that disagree with where the checkout really
    /// is are changed, in the run's own worktree (none when that worktree is gone: its checkouts went with it).
    static func repairStoppedMoves(of run: RunJournal, in workspace: Workspace) throws -> [Step] {
        guard !run.worktreeIsGone else { return [] }
        let root = run.worktree ?? workspace.root
        let outside = workspace.superproject.repository(at: root)
        func relative(_ path: String) -> String {
            path.hasPrefix(root + "/") ? String(path.dropFirst(root.count + 1)) : path
        }
        var steps: [Step] = []
        for record in run.before ?? [] where record.started != false {
            guard let from = record.movedFrom, let path = record.path, !path.isEmpty else { continue }
            let old = (root as NSString).appendingPathComponent(from)
            let new = (root as NSString).appendingPathComponent(path)
            let repair = try StoppedCheckoutMove.repair(between: old, and: new, outside: outside)
            steps += try nestedRepair(record.repository, between: old, and: new, outside: outside, relative: relative)
            guard let repair else { continue }
            let now = relative(repair.checkout)
            steps.append(
                Step(
                    repository: record.repository, ref: Undoer.checkoutMoveStep, local: true, left: path,
                    before: from, now: now,
                    note: "checkout left at \(now); its move had stopped half-way and git could not work in it: "
                        + repair.description(relative: relative)))
        }
        return steps
    }

    /// The nested checkouts of a module checkout a stopped switch was moving between `old` and `new` (absolute),
    /// wherever it is now: their links are pointed at where they are (``NestedCheckoutLinks``), one step each.
    static func nestedRepair(
        _ repository: String, between old: String, and new: String, outside: GitRepository,
        relative: (String) -> String
    ) throws -> [Step] {
        let atNew = FileManager.default.fileExists(atPath: (new as NSString).appendingPathComponent(".git"))
        let (checkout, other) = atNew ? (new, old) : (old, new)
        guard FileManager.default.fileExists(atPath: (checkout as NSString).appendingPathComponent(".git")),
            (try? outside.repository(at: checkout).absoluteGitDirectory()) != nil
        else { return [] }
        return try NestedCheckoutLinks.reconnect(in: checkout, movedFrom: other, outside: outside).map { nested in
            let now = relative((checkout as NSString).appendingPathComponent(nested.path))
            return Step(
                repository: repository, ref: Undoer.checkoutMoveStep, local: true, left: now, before: nil, now: now,
                note: "nested checkout at \(now): its links still named where its module's checkout was moved from; "
                    + "they name it again (git directory \(nested.gitDirectory))")
        }
    }

    /// Forgets a journal cut off before its first step: nothing of it can be read, so it is moved aside
    /// (`<run-id>.json.damaged`, kept for a look) and blocks nothing.
    static func setAside(_ runId: String, in workspace: Workspace, wait: Bool) throws -> Result {
        let path = RunJournal.path(gitDirectory: workspace.commonDirectory, runId: runId)
        do {
            try FileManager.default.moveItem(atPath: path, toPath: path + ".damaged")
        } catch {
            throw WorkspaceError("cannot move the cut-off journal \(path) aside: \(error)")
        }
        var result = Result(runId: runId, action: "forget", by: "-")
        result.untouched.append(
            Step(
                repository: "-", ref: path + ".damaged", local: true, left: nil, before: nil, now: nil,
                note: "nothing of the run could be read: its journal was moved here"))
        return result
    }

    /// The journal of `runId`, which must be unfinished (or, for a forget, a journal that cannot be read whole).
    package static func unfinishedRun(_ runId: String, in workspace: Workspace, action: String) throws -> RunJournal {
        let run = try RunJournal.read(gitDirectory: workspace.commonDirectory, runId: runId)
        guard run.isUnfinished else {
            let state = RunSummary(run).state
            throw WorkspaceError(
                "run \(runId) (`tenantctl \(run.commandName)`) is \(state), not unfinished: it blocks nothing and "
                    + "`tenantctl runs \(action)` has nothing to do (`tenantctl runs` lists the runs)")
        }
        return run
    }

    /// Takes a run's steps back, or reads where they are now.
    struct Undoer {
        let run: RunJournal
        let workspace: Workspace
        let transaction: Transaction

        /// A step that may have landed: its index in the journal.
        private var candidates: [Int] {
            run.entries.indices.filter {
                let entry = run.entries[$0]
                return entry.undone != true && (entry.published != false || entry.landed == true)
            }
        }

        /// The repositories of the candidates, newest first: the reverse of the order their steps were recorded.
        private var repositories: [String] {
            var order: [String] = []
            for index in candidates.reversed() where !order.contains(run.entries[index].repository) {
                order.append(run.entries[index].repository)
            }
            return order
        }

        /// Where a repository's remote steps are read and pushed from, and to: the superproject from this worktree
        /// to its remote; a module whose step names a remote (pin's pushes) from its checkout; a module whose step
        /// names a URL (the lifecycle commands') from its mirror, else from the superproject.
        private func endpoint(_ repository: String, remote: String) throws -> (from: GitRepository, to: String) {
            if repository == "superproject" {
                return (workspace.superproject, remote.isEmpty ? workspace.remoteName : remote)
            }
            if remote == workspace.remoteName || remote == Workspace.defaultRemoteName {
                let project = try ProjectReader.workingTree(
                    workspace, options: ValidationOptions(allowLocalRemotes: true, keepInvalidTenants: true))
                guard let module = project.manifest.modules.first(where: { $0.name == repository }) else {
                    throw WorkspaceError(
                        "run \(run.runId) pushed module \(repository), which modules.json no longer names: take its "
                            + "branch back by hand, then run `tenantctl runs --forget \(run.runId)`")
                }
                return (workspace.checkout(at: module.path), remote)
            }
            let mirror = ModuleMirrors(workspace: workspace).path(for: repository)
            let from = FileManager.default.fileExists(atPath: mirror) ? mirror : workspace.root
            return (
                workspace.superproject.repository(at: from), try ModuleRemotes.reachable(remote, workspace: workspace)
            )
        }

        /// A step with its value now and `note`.
        private func step(_ entry: RunJournal.Entry, local: Bool, now: String?, note: String) -> Step {
            Step(
                repository: entry.repository, ref: entry.ref, local: local, left: entry.new.isEmpty ? nil : entry.new,
                before: entry.old, now: now, note: note)
        }

        /// The remote values of `entries` of `repository`, or the reason they cannot be read.
        private func remoteValues(_ entries: [RunJournal.Entry], repository: String)
            -> Swift.Result<
                [String: String], WorkspaceError
            >
        {
            do {
                let (from, to) = try endpoint(repository, remote: entries[0].remote)
                return .success(
                    try from.remoteValues(
                        of: entries.map(\.ref), on: to, context: "read the refs of \(repository) on its remote"))
            } catch {
                return .failure(WorkspaceError(String(describing: error)))
            }
        }

        /// Every step that may have landed, with its value now: remote steps from one `ls-remote` per repository,
        /// local steps from this worktree's branches.
        func survey() -> [Step] {
            var steps: [Step] = []
            for repository in repositories {
                let group = candidates.filter { run.entries[$0].repository == repository }.map { run.entries[$0] }
                let remote = group.filter { $0.published != false && !$0.remote.isEmpty }
                if !remote.isEmpty {
                    switch remoteValues(remote, repository: repository) {
                    case .success(let values):
                        for entry in remote {
                            let now = values[entry.ref]
                            steps.append(step(entry, local: false, now: now, note: describe(entry, now: now)))
                        }
                    case .failure(let error):
                        steps += remote.map { step($0, local: false, now: nil, note: "cannot read: \(error)") }
                    }
                }
                for entry in group where entry.landed == true {
                    if entry.ref == Self.checkoutMoveStep {
                        steps.append(checkoutMove(entry))
                        continue
                    }
                    do {
                        let local = try localRepository(repository)
                        guard
                            repository == "superproject" || FileManager.default.fileExists(atPath: local.path + "/.git")
                        else {
                            steps.append(
                                step(
                                    entry, local: true, now: nil,
                                    note: "no checkout at \(local.path) now (a working-copy step: the run left its "
                                        + "HEAD at \(ObjectID.short(entry.new.isEmpty ? nil : entry.new, none: "nothing")))"
                                ))
                            continue
                        }
                        // A step's ref is a full ref name or HEAD (a switch's checkout).
                        let now = try local.objectID(of: entry.ref, context: "read \(entry.ref) in \(local.path)")
                        steps.append(step(entry, local: true, now: now?.hex, note: describe(entry, now: now?.hex)))
                    } catch {
                        steps.append(step(entry, local: true, now: nil, note: "cannot read: \(error)"))
                    }
                }
            }
            return steps
        }

        /// The step a switch records when it moves a module's checkout (old path to new path, relative to the
        /// worktree), as it stands: a working-copy step, read from where the checkout is now, not a ref.
        static let checkoutMoveStep = JournalStep.checkoutMoveName

        /// A checkout move of a switch, read in the run's worktree: at the path the run moved it to, back at the path
        /// it had before, or at neither.
        private func checkoutMove(_ entry: RunJournal.Entry) -> Step {
            let root = run.worktree.flatMap { run.worktreeIsGone ? nil : $0 } ?? workspace.root
            func isCheckout(_ path: String?) -> Bool {
                guard let path, !path.isEmpty else { return false }
                return FileManager.default.fileExists(
                    atPath: ((root as NSString).appendingPathComponent(path) as NSString).appendingPathComponent(".git")
                )
            }
            let from = entry.old ?? "?"
            let now: String? = isCheckout(entry.new) ? entry.new : isCheckout(entry.old) ? entry.old : nil
            let note: String
            switch now {
            case .some(let path) where path == entry.new:
                note = "checkout at \(path), as the run left it (a working-copy step: moved from \(from))"
            case .some(let path):
                note = "checkout at \(path), as before the run (a working-copy step: the run moved it to \(entry.new))"
            case .none:
                note =
                    "no checkout at \(entry.new) or \(from) now (a working-copy step: the run moved it there from "
                    + "\(from))"
            }
            return Step(
                repository: entry.repository, ref: entry.ref, local: true, left: entry.new, before: entry.old,
                now: now, note: note)
        }

        /// The repository a local step of `repository` was made in, in the run's worktree while it exists (else in
        /// this one): the superproject, or a module's checkout (a switch's steps) at the path the run recorded for
        /// it, else at the path modules.json gives.
        private func localRepository(_ repository: String) throws -> GitRepository {
            let root = run.worktree.flatMap { run.worktreeIsGone ? nil : $0 } ?? workspace.root
            let superproject = workspace.superproject.repository(at: root)
            guard repository != "superproject" else { return superproject }
            if let path = run.before?.first(where: { $0.repository == repository })?.path, !path.isEmpty {
                return superproject.repository(at: (root as NSString).appendingPathComponent(path))
            }
            let project = try ProjectReader.workingTree(
                workspace, options: ValidationOptions(allowLocalRemotes: true, keepInvalidTenants: true))
            guard let module = project.manifest.modules.first(where: { $0.name == repository }) else {
                throw WorkspaceError(
                    "run \(run.runId) changed module \(repository), which modules.json no longer names, and its "
                        + "journal does not say where its checkout was")
            }
            return superproject.repository(at: (root as NSString).appendingPathComponent(module.path))
        }

        private func describe(_ entry: RunJournal.Entry, now: String?) -> String {
            if !entry.new.isEmpty && now == entry.new {
                return "at \(ObjectID.short(entry.new)), as the run left it"
            }
            if now == entry.old { return "at \(ObjectID.short(now, none: "nothing (absent)")), as before the run" }
            return "now \(ObjectID.short(now, none: "absent")); the run left it at "
                + ObjectID.short(entry.new.isEmpty ? nil : entry.new, none: "an unrecorded commit")
        }

        /// Takes the steps back, newest repository first. Each remote ref still at the value the run left is set back
        /// to its value before (one leased push per repository); a local branch still at the run's commit is moved
        /// back (a mixed reset where it is checked out here, with nothing staged; else a compare-and-swap update). A
        /// ref at its value before is counted undone already; any other value is kept and named.
        func undo() throws -> Result {
            var result = Result(runId: run.runId, action: "abort", by: transaction.runId)
            func markUndone(_ repository: String, _ refs: [String]) throws {
                do {
                    try Transaction.append(
                        [RunJournal.Line(undone: .init(repository: repository, refs: refs))], toRun: run.runId,
                        gitDirectory: workspace.commonDirectory)
                } catch {
                    throw WorkspaceError(
                        "cannot record in the journal of run \(run.runId) what was taken back: \(error.description); "
                            + "free some space, then run `tenantctl runs --abort \(run.runId)` again")
                }
            }
            for repository in repositories {
                let group = candidates.filter { run.entries[$0].repository == repository }.map { run.entries[$0] }
                // Local steps first: the local commit pins what the remote steps of this repository left.
                for entry in group where entry.landed == true {
                    try undoLocal(entry, into: &result, markUndone: markUndone)
                }
                let remote = group.filter { $0.published != false && !$0.remote.isEmpty }
                guard !remote.isEmpty else { continue }
                let values: [String: String]
                switch remoteValues(remote, repository: repository) {
                case .success(let read): values = read
                case .failure(let error):
                    throw WorkspaceError(
                        "cannot read the refs of \(repository) on its remote: \(error)\nnothing more was taken back; "
                            + "run `tenantctl runs --abort \(run.runId)` again once it can be reached, or give the run "
                            + "up: tenantctl runs --forget \(run.runId)")
                }
                var restore: [RunJournal.Entry] = []
                for entry in remote {
                    let now = values[entry.ref]
                    if !entry.new.isEmpty && now == entry.new {
                        restore.append(entry)
                    } else if now == entry.old {
                        // Never landed, or taken back by a stopped abort after its push.
                        result.untouched.append(step(entry, local: false, now: now, note: describe(entry, now: now)))
                        try markUndone(repository, [entry.ref])
                    } else {
                        result.kept.append(
                            step(entry, local: false, now: now, note: describe(entry, now: now) + "; kept"))
                    }
                }
                guard !restore.isEmpty else { continue }
                let (from, to) = try endpoint(repository, remote: restore[0].remote)
                let updates = try restore.map { try RefUpdate(checking: $0.ref, new: $0.old, old: $0.new) }
                try transaction.record(
                    repository: repository, remote: restore[0].remote, refs: updates, published: nil, landed: nil)
                let outcome = try from.push(
                    updates, as: repository, to: to, mode: .restore)
                guard outcome.accepted else {
                    try transaction.record(
                        repository: repository, remote: restore[0].remote, refs: updates, published: false,
                        landed: nil)
                    throw WorkspaceError(
                        "the remote of \(repository) refused to take back what run \(run.runId) pushed: "
                            + "\(outcome.detail)\nwhat was taken back before is recorded; run `tenantctl runs --abort "
                            + "\(run.runId)` again once the remote allows it, or give the run up (its refs stay on the "
                            + "remote): tenantctl runs --forget \(run.runId)")
                }
                try transaction.record(
                    repository: repository, remote: restore[0].remote, refs: updates, published: true, landed: nil)
                try markUndone(repository, restore.map(\.ref))
                result.undone += restore.map {
                    step(
                        $0, local: false, now: $0.old,
                        note: "set back to \(ObjectID.short($0.old, none: "nothing (deleted)")) from "
                            + ObjectID.short($0.new))
                }
            }
            return result
        }

        /// Moves a local branch the run committed on back to its value before, only while it is still at the run's
        /// commit and, where it is checked out here, nothing is staged; else it is kept and named.
        private func undoLocal(
            _ entry: RunJournal.Entry, into result: inout Result,
            markUndone: (String, [String]) throws -> Void
        ) throws {
            guard run.worktree == workspace.root else {
                result.kept.append(
                    step(
                        entry, local: true, now: nil,
                        note: "left as it is: the run's worktree \(run.worktree ?? "?") is gone"))
                return
            }
            let repository = workspace.superproject
            let now = try repository.objectID(of: entry.ref, context: "read \(entry.ref) in \(workspace.root)")?.hex
            guard let old = entry.old, now == entry.new, !entry.new.isEmpty else {
                if now == entry.old {
                    result.untouched.append(step(entry, local: true, now: now, note: describe(entry, now: now)))
                    try markUndone(entry.repository, [entry.ref])
                } else {
                    result.kept.append(
                        step(entry, local: true, now: now, note: describe(entry, now: now) + "; kept"))
                }
                return
            }
            let checkedOut = try repository.headBranchRef(context: "read the branch of \(workspace.root)") == entry.ref
            if checkedOut {
                guard try !repository.hasStagedChanges(context: "look for staged changes in \(workspace.root)") else {
                    result.kept.append(
                        step(
                            entry, local: true, now: now,
                            note:
                                "at the run's commit \(ObjectID.short(entry.new)), but changes are staged; kept (unstage "
                                + "them, then abort again)"))
                    return
                }
                try repository.resetMixed(
                    to: old, context: "move \(entry.ref) back to \(ObjectID.short(old)) (the index with it)")
            } else {
                let branch = String(entry.ref.dropFirst("refs/heads/".count))
                if let elsewhere = try repository.branchesInOtherWorktrees(
                    gitDirectory: workspace.gitDirectory)[branch]
                {
                    result.kept.append(
                        step(
                            entry, local: true, now: now,
                            note: "checked out in the worktree \(elsewhere); kept (switch it away there, then abort "
                                + "again)"))
                    return
                }
                try repository.updateRef(
                    entry.ref, to: old, from: entry.new, message: "tenantctl runs --abort \(run.runId)",
                    context: "move \(entry.ref) back to \(ObjectID.short(old))")
            }
            try transaction.record(
                repository: entry.repository, remote: entry.remote,
                steps: [try JournalStep(ref: entry.ref, new: old, old: entry.new)], published: nil, landed: true)
            try markUndone(entry.repository, [entry.ref])
            result.undone.append(
                step(
                    entry, local: true, now: old,
                    note: "set back to \(ObjectID.short(old)) from \(ObjectID.short(entry.new))"))
        }
    }
}
