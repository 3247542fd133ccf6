import Foundation

/// A switch that stopped part-way (killed, interrupted, a disk that filled up while putting back), as its run journal
/// records it: each repository it changes, in the order it changes them, with the branch and HEAD it had before,
/// where the switch was taking it, and whether the switch had started changing it.
///
/// The switch's run journal (`RunJournal.before`) holds these records, written before the first repository moves,
/// with one line appended as each one starts; each change is then appended as a step (a landed entry) as it lands.
/// The next `tenantctl switch` in the same worktree reads every unfinished switch run, compares each step with what
/// is there now, puts back what is exactly as the stopped switch left it, keeps and names every repository that
/// holds the user's work, marks the steps it put back undone and the stopped run `aborted` (`finishedBy` names the
/// switch that put it back), and then switches as usual (``WorkingCopySwitch/recover(_:)``).
struct StoppedSwitch: Sendable {
    /// One repository the switch changes.
    struct Repository: Sendable, Equatable {
        /// `superproject` or the module name.
        var repository: String
        /// Path relative to the superproject root ("" for the superproject).
        var path: String
        /// The branch checked out before (nil: detached HEAD, or not initialised).
        var branchBefore: String?
        /// HEAD before (nil: the module was not initialised).
        var headBefore: String?
        /// The branch the switch puts it on (empty: detached at `target`, a submodule `modules.json` does not name).
        var branch: String
        /// The tip `branch` had before (nil: the switch creates it).
        var branchTipBefore: String?
        /// The commit it ends on.
        var target: String
        /// The module is cloned by the switch (put back: deinitialised again).
        var initialises: Bool
        /// The switch has started changing it.
        var started: Bool
        /// The path the switch moves the module's checkout from to `path` (nil: not moved).
        var movedFrom: String?
        /// The steps of the switch that landed here and were not taken back: ref (`HEAD`, `refs/heads/<branch>`) to
        /// the value the switch left it at, and ``StoppedSwitch/checkoutMoveStep`` to the path a moved checkout went to. Empty: none landed (a step under way when it stopped, or a journal of an
        /// older tenantctl); the put-back then compares with where the switch was taking it.
        var landed: [String: String] = [:]
    }

    /// What was switched to (the tenant id or the general branch).
    var target: String
    /// The repositories that change, in the order they are changed.
    var repositories: [Repository]
    /// The file the records were read from.
    var file: String
    /// The stopped run.
    var run: RunJournal
    /// The worktree the switch ran in (nil: not recorded). Its working-copy steps are put back only there.
    var worktree: String? { run.worktree }
    /// The repositories the switch started changing, by name.
    var moved: [String] { repositories.filter(\.started).map(\.repository) }

    /// The run journal's records of the repositories a switch changes: every repository of the plan, those it
    /// changes with where the switch takes them (`targetBranch`, `target`, …; `started` false), the others with
    /// their branch and HEAD only.
    static func records(_ plan: WorkingCopySwitch.Plan) -> [RunJournal.Before] {
        let repositories = ([plan.superproject] + plan.modules).map { repository in
            var record = RunJournal.Before(
                repository: repository.repository, branch: plan.before[repository.repository]?.branch,
                head: plan.heads[repository.repository])
            record.path = repository.path
            guard repository.changes else { return record }
            switch repository.action {
            case .fastForward(let from), .moveBack(let from, _, _): record.targetBranchTip = from
            case .checkout: record.targetBranchTip = repository.finalCommit
            case .none, .create, .initialise: record.targetBranchTip = nil
            }
            record.targetBranch = repository.branch
            record.target = repository.finalCommit
            record.initialises = repository.initialises
            record.started = false
            record.movedFrom = repository.movedFrom
            return record
        }
        // The submodules modules.json does not name come last: the switch checks them out after every module.
        return repositories
            + plan.unnamed.filter(\.changes).map { submodule in
                var record = RunJournal.Before(
                    repository: submodule.repository, branch: plan.before[submodule.repository]?.branch,
                    head: submodule.from)
                record.path = submodule.path
                record.targetBranch = ""
                record.target = submodule.pin
                record.initialises = submodule.from == nil
                record.started = false
                return record
            }
    }

    /// The step a switch records when it moves a module's checkout to where the target branch has it: `old` is the
    /// path it was at, `new` the path it moved to (a step of the journal, not a ref).
    static let checkoutMoveStep = JournalStep.checkoutMoveName

    /// The stopped switches to put back, newest first: every unfinished switch run but `excluding` (the run under
    /// way). A record that cannot be read is an error naming the file: a stopped switch is never taken for a
    /// finished one.
    static func unfinished(_ workspace: Workspace, excluding runId: String?) throws -> [StoppedSwitch] {
        var stopped: [StoppedSwitch] = []
        for run in try RunJournal.unfinished(gitDirectory: workspace.commonDirectory).reversed()
        where run.commandName == "switch" && run.runId != runId {
            stopped.append(try StoppedSwitch(run: run, workspace: workspace))
        }
        return stopped
    }

    private init(run: RunJournal, workspace: Workspace) throws {
        file = RunJournal.path(gitDirectory: workspace.commonDirectory, runId: run.runId)
        self.run = run
        target = run.arguments?.first { !$0.hasPrefix("-") } ?? "?"
        repositories = Self.withLanded(try Self.repositories(from: run.before ?? [], file: file), entries: run.entries)
    }

    /// The repositories a switch changes, from its run journal's records (the records of repositories it leaves
    /// alone are skipped).
    static func repositories(from records: [RunJournal.Before], file: String) throws -> [Repository] {
        try records.compactMap { record -> Repository? in
            guard let branch = record.targetBranch else { return nil }
            guard let path = record.path, let target = record.target else {
                throw WorkspaceError(
                    "the run journal \(file) of a stopped switch records \(record.repository) without its path or "
                        + "target commit; check each repository with git status, then move the file out of the "
                        + "journal directory")
            }
            return Repository(
                repository: record.repository, path: path, branchBefore: record.branch, headBefore: record.head,
                branch: branch, branchTipBefore: record.targetBranchTip, target: target,
                initialises: record.initialises ?? false, started: record.started ?? false,
                movedFrom: record.movedFrom)
        }
    }

    /// `repositories` with the steps of the journal's `entries` that landed and were not taken back
    /// (``Repository/landed``).
    static func withLanded(_ repositories: [Repository], entries: [RunJournal.Entry]) -> [Repository] {
        repositories.map { repository in
            var repository = repository
            for entry in entries
            where entry.repository == repository.repository && entry.landed == true && entry.undone != true {
                repository.landed[entry.ref] = entry.new
            }
            return repository
        }
    }

    /// The refs of `names` whose steps landed (``Repository/landed``), by repository: what a put-back of them
    /// takes back.
    static func landedRefs(of names: [String], in repositories: [Repository]) -> [(repository: String, refs: [String])]
    {
        repositories.filter { names.contains($0.repository) && !$0.landed.isEmpty }
            .map { ($0.repository, $0.landed.keys.sorted()) }
    }

    /// Everything it moved is back, or kept as the user's: its run journal marks the steps of `putBack` taken back
    /// and ends `aborted`, finished by `runId` (the switch that put it back).
    func settle(by runId: String?, in workspace: Workspace, putBack: [String] = []) throws {
        do {
            let undone = Self.landedRefs(of: putBack, in: repositories).map {
                RunJournal.Line(undone: .init(repository: $0.repository, refs: $0.refs))
            }
            if !undone.isEmpty {
                try Transaction.append(undone, toRun: run.runId, gitDirectory: workspace.commonDirectory)
            }
            try Transaction.settle(run.runId, state: .aborted, by: runId, in: workspace.commonDirectory)
        } catch {
            throw WorkspaceError(
                "cannot mark the stopped switch run \(run.runId) put back, \(file): \(error.description); free some "
                    + "space, then run the switch again")
        }
    }
}

/// A switch that stopped part-way and could not put everything back: what was left and how to finish.
public struct SwitchStoppedError: Error, Sendable, CustomStringConvertible {
    /// What failed first.
    public var cause: String
    /// Repositories put back.
    public var putBack: [String]
    /// Repositories still changed (the run journal names them).
    public var left: [String]
    /// What went wrong while putting them back.
    public var rollbackFailure: String?
    /// The command that finishes the job.
    public var rerun: String

    public var description: String {
        var text = "switch stopped: \(cause)"
        if left.isEmpty {
            text += "\nevery repository it had changed is back where it was"
            if !putBack.isEmpty { text += " (\(putBack.joined(separator: ", ")))" }
            text += "; nothing else was changed"
        } else {
            text += "\nleft changed: \(left.joined(separator: ", "))"
            if let rollbackFailure { text += "\nputting them back failed: \(rollbackFailure)" }
            text += "\nto finish, fix the cause (e.g. free disk space) and run: \(rerun)"
            text += " (it first puts back what this run changed)"
        }
        return text
    }
}
