import Foundation

/// One run of a writing command, journalled: ``begin(_:command:arguments:before:)`` refuses while another command's
/// run is unfinished and writes the journal (state `running`) before the first change; ``record(repository:refs:)``
/// appends a line to it as each step lands; ``finish()`` or ``fail(_:)`` ends it. A run killed in between leaves the
/// journal `running`, and so does one that stopped with an error after part of it landed (a push accepted, a local
/// change made): `tenantctl runs` shows it unfinished, the other writing commands refuse naming it, and the re-run of
/// the same command (or its abort) finishes it.
///
/// Transaction is the only writer of journal files: a run's own steps, and the words other runs add to a journal
/// (a re-run finishing it, an abort's undone steps, an undo's restored refs: ``settle(_:state:by:in:)``,
/// ``append(_:toRun:gitDirectory:)``). Each step is one line appended to the file (``RunJournal/Line``), so a
/// killed run's journal lists exactly the steps that landed before the kill.
///
/// The caller holds the workspace lock, so a `running` journal found here belongs to a process that is gone.
/// roll records its concurrent pushes through ``RollJournalRecorder``, which writes through a Transaction.
public final class Transaction: Sendable {
    /// The journal in memory, and the lines not yet on the disk (a write that failed: the next one writes them
    /// first).
    private let journal: Locked<(journal: RunJournal, pending: [RunJournal.Line])>
    private let gitDirectory: String
    /// The unfinished runs of the same command that this run finishes when it ends.
    private let resumes: [String]

    /// The journal as recorded so far.
    public var current: RunJournal { journal.current.journal }

    /// The run id.
    public var runId: String { current.runId }

    /// The journal file.
    public var path: String { RunJournal.path(gitDirectory: gitDirectory, runId: runId) }

    /// Refuses when a run of another command is unfinished (``UnfinishedRunError``), then writes the journal of this
    /// run: the command's words, the arguments that re-run it, the worktree and each repository's state before.
    public static func begin(
        _ workspace: Workspace, command: String, arguments: [String], before: [RunJournal.Before] = []
    ) throws -> Transaction {
        let resumes = try unfinishedRuns(workspace, allowing: command, arguments: arguments).map(\.runId)
        var journal = RunJournal(
            runId: RunJournal.newRunId(), createdAt: ISO8601DateFormatter().string(from: Date()), entries: [])
        journal.command = command
        journal.arguments = arguments
        journal.worktree = workspace.root
        journal.state = .running
        journal.before = before
        // Recorded repositories are about to change (init fetches into them next); otherwise the run fetches and
        // checks first, and a run killed then changed nothing.
        journal.changed = !before.isEmpty
        let transaction = Transaction(journal, gitDirectory: workspace.commonDirectory, resumes: resumes)
        try transaction.create()
        return transaction
    }

    /// Begins the journal of a run planned whole before its first change (a roll: every ref it will push, none
    /// pushed yet), written before anything is pushed.
    package static func begin(planned journal: RunJournal, gitDirectory: String) throws(DurableFileError) -> Transaction
    {
        let transaction = Transaction(journal, gitDirectory: gitDirectory, resumes: [])
        try journal.write(gitDirectory: gitDirectory)
        return transaction
    }

    private init(_ journal: RunJournal, gitDirectory: String, resumes: [String]) {
        self.journal = Locked((journal, []))
        self.gitDirectory = gitDirectory
        self.resumes = resumes
    }

    /// The unfinished runs that `command` with `arguments` may go on from (``isRerun(of:command:arguments:)``). Throws ``UnfinishedRunError`` naming the
    /// first unfinished run of any other command.
    public static func unfinishedRuns(
        _ workspace: Workspace, allowing command: String, arguments: [String]
    ) throws -> [RunJournal] {
        let runs = try RunJournal.unfinished(gitDirectory: workspace.commonDirectory)
        var own: [RunJournal] = []
        for run in runs {
            if isRerun(of: run, command: command, arguments: arguments) {
                own.append(run)
            } else if command == "runs" {
                // `runs --abort/--forget <id>` acts on that run's steps only, each compared with what the run left
                // before it is undone: another unfinished run (a failed re-run of the same command) neither blocks
                // it nor is settled by it.
                continue
            } else {
                throw UnfinishedRunError(run: run, blocked: command, currentWorktree: workspace.root)
            }
        }
        return own
    }

    /// Marks `runs` (unfinished runs of a command that writes its own journal, roll) as finished by `runId`, once a
    /// re-run of theirs has finished.
    public static func markFinished(_ runs: [RunJournal], by runId: String, in workspace: Workspace) throws {
        for run in runs {
            do {
                try settle(run.runId, state: .finished, by: runId, in: workspace.commonDirectory)
            } catch {
                throw WorkspaceError("cannot mark run \(run.runId) finished: \(error.description)")
            }
        }
    }

    /// Ends another run's journal: `state` (finished by its re-run, aborted, forgotten), settled by `runId`.
    package static func settle(_ other: String, state: RunJournal.State, by runId: String?, in gitDirectory: String)
        throws(DurableFileError)
    {
        try append(
            [RunJournal.Line(end: .init(state: state, finishedBy: runId))], toRun: other, gitDirectory: gitDirectory)
    }

    /// Appends lines to another run's journal (an undo marking what it restored). A journal written by an earlier
    /// version (one JSON object) is first written again in the line format, all of it on its first line.
    package static func append(_ lines: [RunJournal.Line], toRun other: String, gitDirectory: String)
        throws(DurableFileError)
    {
        let path = RunJournal.path(gitDirectory: gitDirectory, runId: other)
        let head = FileManager.default.contents(atPath: path)?.prefix(16) ?? Data()
        if !RunJournal.isLineFormat(head) {
            var journal: RunJournal
            do {
                journal = try RunJournal.read(gitDirectory: gitDirectory, runId: other)
            } catch {
                throw DurableFileError(path: path, reason: "cannot read it: \(error)")
            }
            // What was read of a cut-off journal is written whole; the lines appended next say how it ended.
            journal.salvaged = nil
            try journal.write(gitDirectory: gitDirectory)
        }
        try JournalAppend.append(RunJournal.encode(lines), to: path)
    }

    /// Whether `command` with `arguments` may go on from `run`: the same command with the same arguments; any switch
    /// (it first puts back what a stopped switch moved); any resolve (`--continue`, `--abort`); any roll (it works
    /// from the remotes; `roll --undo <run-id>` takes a roll back).
    static func isRerun(of run: RunJournal, command: String, arguments: [String]) -> Bool {
        // `runs --abort <id>` and `runs --forget <id>` go on from run <id> and from a stopped abort or forget of it.
        if command == "runs", let target = arguments.last {
            return run.runId == target || (run.commandName == "runs" && run.arguments?.last == target)
        }
        guard run.commandName == command else { return false }
        // An undo is a run of its own: only its re-run (the same words) goes on from it; `roll --undo <id>` also goes
        // on from roll <id> (it takes that roll back), no other.
        if run.isUndo { return arguments == (run.arguments ?? []) }
        if command == "roll", let target = RunJournal.undoTarget(arguments) { return run.runId == target }
        switch command {
        // A roll works from what the remotes show, whatever its filters: any roll goes on (and `--undo`).
        case "switch", "resolve", "roll": return true
        default: return arguments == (run.arguments ?? [])
        }
    }

    /// Records refs that changed: added to the journal, or their outcome updated (`published` for a push, `landed`
    /// for a local change), in a line appended to the journal.
    public func record(repository: String, remote: String = "", refs: [RefUpdate], published: Bool?, landed: Bool?)
        throws
    {
        try record([(repository, remote, refs)], published: published, landed: landed)
    }

    /// Records steps of one repository that landed or were planned, working-copy steps among them (a checkout's HEAD,
    /// a checkout's move), as ``record(repository:remote:refs:published:landed:)`` records refs.
    public func record(
        repository: String, remote: String = "", steps: [JournalStep], published: Bool?, landed: Bool?
    ) throws {
        try write([
            RunJournal.Line(
                record: .init(
                    repository: repository, remote: remote, refs: steps, published: published, landed: landed))
        ])
    }

    /// Records the refs of several repositories at once (one write to the journal): an undo's planned pushes.
    public func record(
        _ steps: [(repository: String, remote: String, refs: [RefUpdate])], published: Bool?, landed: Bool?
    ) throws {
        try write(
            steps.map {
                RunJournal.Line(
                    record: .init(
                        repository: $0.repository, remote: $0.remote, refs: $0.refs.map(JournalStep.ref),
                        published: published, landed: landed))
            })
    }

    /// Records each repository's state before the first change (``RunJournal/before``), or a later version of that
    /// record.
    public func recordBefore(_ before: [RunJournal.Before]) throws {
        try write([RunJournal.Line(before: before)])
    }

    /// Records that a switch starts changing `repository` (its ``RunJournal/before`` record marked started): one
    /// line, written before its first change there.
    public func recordStarted(_ repository: String) throws {
        try write([RunJournal.Line(started: repository)])
    }

    /// Records that refs this run had changed were taken back again (a compensation: pushed branches deleted after a
    /// later push was refused; or a step of an abort): each entry marked undone. A run whose every landed step is
    /// undone has nothing left to finish (``RunJournal/hasLanded``).
    public func recordUndone(repository: String, refs: [String]) throws {
        try write([RunJournal.Line(undone: .init(repository: repository, refs: refs))])
    }

    /// Records that the run has reached its first change without a step to record yet (the command says so).
    public func recordChanged() throws {
        guard current.changed != true else { return }
        try write([RunJournal.Line(changed: true)])
    }

    /// Records a push's answer for refs already recorded (roll): `true` landed, `false` refused, nil unknown. The
    /// answer is kept in memory also when the line cannot be written; the next write writes it first.
    package func recordAnswer(repository: String, refs: [String], published: Bool?) throws(DurableFileError) {
        try append([RunJournal.Line(answer: .init(repository: repository, refs: refs, published: published))])
    }

    /// Adds refs a run planned after its journal began, none pushed yet (roll: the superproject's branches, written
    /// while the modules were pushed), in one line appended before any of them is pushed.
    package func recordPlanned(repository: String, remote: String, refs: [RefUpdate]) throws(DurableFileError) {
        try append([
            RunJournal.Line(
                record: .init(
                    repository: repository, remote: remote, refs: refs.map(JournalStep.ref), published: nil,
                    landed: nil))
        ])
    }

    /// Records a review roll's proposals as they now stand (each replaces the one of its repository and tenant).
    package func recordReviews(_ reviews: [RunJournal.Review]) throws(DurableFileError) {
        try append([RunJournal.Line(reviews: reviews)])
    }

    /// Records a resolution as it stands after a step of this resolve run (each replaces the one before): the first
    /// time before the run's first change, then after every step that lands.
    public func recordResolution(_ resolution: RunJournal.Resolution) throws {
        try write([RunJournal.Line(resolution: resolution)])
    }

    /// Ends the run with `state` and `error` (roll's own end).
    package func end(_ state: RunJournal.State, error: String?) throws(DurableFileError) {
        try append([RunJournal.Line(end: .init(state: state, error: error))])
    }

    /// The run finished: the journal says so, and so do the journals of the unfinished runs it went on from
    /// (`resumed`: `.finished` for a re-run, `.aborted` for an abort that took them back). Called again (resolve
    /// marks its run finished before it removes its own state, then its command ends the run), it writes the same.
    public func finish(resumed: RunJournal.State = .finished, settling settled: [String: RunJournal.State] = [:])
        throws
    {
        for earlier in resumes {
            guard let journal = try? RunJournal.read(gitDirectory: gitDirectory, runId: earlier),
                journal.state != settled[earlier] ?? resumed || journal.finishedBy != runId
            else { continue }
            do {
                try Self.settle(earlier, state: settled[earlier] ?? resumed, by: runId, in: gitDirectory)
            } catch {
                throw journalError(error, of: journal)
            }
        }
        // A run that ended waiting (its proposals are open: `resolve --review`) stays so until `roll --land` follows it.
        guard current.state != .finished, current.state != .waiting else { return }
        try write([RunJournal.Line(end: .init(state: .finished))])
    }

    /// The run stopped with an error it reports. Before anything landed (a refusal, a failure that changed nothing)
    /// it ends `failed` and blocks nothing. Once part of it landed (an entry published or landed) the repositories
    /// are half-changed: it stays `running` with the error recorded, so the other writing commands refuse, naming
    /// its re-run and abort, until one of them finishes it. The unfinished runs it went on from stay unfinished.
    /// Returns the error the command reports: `error` itself once the journal says how the run ended; when that
    /// line cannot be written, a ``JournalEndError`` naming both `error` and the journal file (the journal on the disk
    /// still says `running`, so nothing is taken as safe that is not, but the user is told).
    @discardableResult
    public func fail(_ failure: any Error) -> any Error {
        let state: RunJournal.State = current.hasLanded ? .running : .failed
        do {
            try append([RunJournal.Line(end: .init(state: state, error: String(describing: failure)))])
        } catch {
            return JournalEndError(cause: String(describing: failure), journal: path, write: error.description)
        }
        return failure
    }

    /// Writes the first line of the journal file.
    private func create() throws {
        let journal = current
        do {
            try journal.write(gitDirectory: gitDirectory)
        } catch {
            throw journalError(error, of: journal)
        }
    }

    /// Applies `lines` to the journal in memory and appends them (after any that failed before) to the file.
    private func write(_ lines: [RunJournal.Line]) throws {
        do {
            try append(lines)
        } catch {
            throw journalError(error, of: current)
        }
    }

    private func append(_ lines: [RunJournal.Line]) throws(DurableFileError) {
        let path = self.path
        try journal.withLock {
            (state: inout (journal: RunJournal, pending: [RunJournal.Line])) throws(DurableFileError) in
            for line in lines { state.journal.apply(line) }
            state.pending += lines
            try JournalAppend.append(RunJournal.encode(state.pending), to: path)
            state.pending = []
        }
    }

    private func journalError(_ error: DurableFileError, of journal: RunJournal) -> WorkspaceError {
        WorkspaceError(
            "cannot write the journal of this \(journal.commandName) run: \(error.description); free some space, "
                + "then run it again: \(journal.rerunCommand(currentWorktree: nil) ?? journal.commandName)")
    }
}

/// A run stopped with an error, and its journal could not record how it ended: the user is told both, with the
/// journal file, so that the failed write is never taken for a run that ended cleanly.
public struct JournalEndError: Error, Sendable, CustomStringConvertible {
    /// Why the journal could not be written.
    public var write: String
    /// The journal file.
    public var journal: String
    /// The error that stopped the run.
    public var cause: String

    init(cause: String, journal: String, write: String) {
        self.cause = cause
        self.journal = journal
        self.write = write
    }

    public var description: String {
        "\(cause)\nand the journal \(journal) could not record how the run ended (\(write)); `tenantctl runs` may "
            + "show the run as unfinished: check each repository with git status, then `tenantctl runs`"
    }
}

/// A writing command refused because a run of another command was stopped half-way: names the run and the ways
/// out, as commands that run as printed.
public struct UnfinishedRunError: Error, Sendable, CustomStringConvertible {
    /// The unfinished run.
    public var run: RunJournal
    /// The command that refused.
    public var blocked: String
    /// The worktree the refused command runs in.
    public var currentWorktree: String?

    /// The commands that finish or take back the unfinished run.
    public var waysOut: [String] { run.waysOut(currentWorktree: currentWorktree) }

    public var description: String {
        var text =
            "refusing to run `tenantctl \(blocked)`: `tenantctl \(run.commandName)` run \(run.runId) (started "
            + run.createdAt + (run.worktree.map { " in \($0)" } ?? "")
            + ") stopped before it finished; nothing was changed by this command"
        if run.salvaged == true {
            text +=
                "\nits journal (.git/tenantctl/journal/\(run.runId).json) is cut off (a full disk?): the steps "
                + "before the cut were read; how it ended is unknown, so it is taken as unfinished"
        }
        if let error = run.error, let reason = error.split(separator: "\n").first {
            text += "\nit stopped with an error: " + reason
        }
        let changed = run.entries.filter { $0.published == true || $0.landed == true }
        if !changed.isEmpty {
            let names = changed.map { entry in
                "\(entry.repository) "
                    + (entry.ref.hasPrefix("refs/heads/")
                        ? String(entry.ref.dropFirst("refs/heads/".count)) : entry.ref)
            }
            text += "\nit had already changed: " + names.joined(separator: ", ")
        }
        var ways = waysOut
        let forget = ways.popLast()
        if let rerun = run.rerunCommand(currentWorktree: currentWorktree), ways.first == rerun {
            text += "\nfinish it by running it again: \(ways.removeFirst())"
        } else if run.worktreeIsGone, let worktree = run.worktree {
            text += "\nits worktree \(worktree) is gone, so it cannot be run again there"
        }
        for way in ways { text += "\nor take it back: \(way)" }
        if let forget {
            text +=
                "\nor, where neither can succeed, give it up (what it left on the remotes stays, shown first): "
                + forget
        }
        text += "\n(`tenantctl runs` lists it)"
        return text
    }
}
