import Foundation

/// One `runs`: every journalled run, oldest first, summarised; the unfinished ones with their ways out; the journals
/// that cannot be read as warnings naming the file. Reads and changes nothing; the command renders the ``Result``.
public enum RunsListing {
    /// What `runs` found.
    public struct Result: Sendable {
        /// Every readable run, oldest first.
        public var runs: [RunSummary]
        /// The unfinished runs: their ids and ways out (the re-run first, then the abort where there is one).
        public var unfinished: [(runId: String, waysOut: [String])]
        /// One line per journal that cannot be read, naming it.
        public var warnings: [String]
        /// How many older runs the limit left out of ``runs``.
        public var leftOut = 0
    }

    /// How many runs `runs` shows on a terminal when not told.
    public static let terminalLimit = 20

    /// Lists the runs of `workspace` (the ways out as run from its worktree): the newest `limit` (0: every one),
    /// oldest first; the unfinished ones whatever their age.
    public static func run(workspace: Workspace, limit: Int = 0) throws -> Result {
        let (journals, unreadable) = try RunJournal.all(gitDirectory: workspace.commonDirectory)
        // A roll whose undo stopped half-way is partly undone, whatever its own journal could record before the stop.
        let undoing = Set(
            journals.filter { $0.isUnfinished && $0.commandName == "roll" }.compactMap {
                RunJournal.undoTarget($0.arguments ?? [])
            })
        let shown = limit > 0 ? Array(journals.suffix(limit)) : journals
        var result = Result(
            runs: shown.map { journal in
                var summary = RunSummary(journal)
                if undoing.contains(journal.runId) && journal.undoneAt == nil { summary.state = "partly undone" }
                return summary
            },
            unfinished: journals.filter(\.isUnfinished).map {
                ($0.runId, $0.waysOut(currentWorktree: workspace.root))
            },
            warnings: unreadable.sorted(by: { $0.key < $1.key }).map { "cannot read \($0.key): \($0.value)" })
        // `roll --land` without a run id follows the newest waiting review run; an older one is named.
        let newestWaiting = journals.filter { $0.state == .waiting && $0.reviews != nil }.map(\.runId).max()
        for index in result.runs.indices where result.runs[index].reviews?.next != nil {
            let runId = result.runs[index].runId
            if runId != newestWaiting { result.runs[index].reviews?.next = "tenantctl roll --land \(runId)" }
        }
        result.leftOut = journals.count - shown.count
        return result
    }
}

/// One run in `tenantctl runs`.
public struct RunSummary: Sendable, Encodable {
    /// One ref the run changed.
    public struct Ref: Sendable, Encodable {
        public var repository: String
        public var ref: String
        public var old: String?
        public var new: String
        public var published: Bool?
        public var undone: Bool
    }

    public var runId: String
    public var createdAt: String
    /// The command's words (`tenant add`; `roll` for a journal written before commands other than roll kept one).
    public var command: String
    /// The arguments that re-run it.
    public var arguments: [String]
    /// The worktree it ran in (nil in a roll journal written before this was recorded).
    public var worktree: String?
    /// unfinished, not started (killed before its first change: it changed nothing and blocks nothing), finished,
    /// failed, aborted, forgotten; for a roll that ended: published, partly published, not published, unknown, partly
    /// undone (an undo of it stopped half-way), undone.
    public var state: String
    /// The run that finished this one (a re-run of the same command).
    public var finishedBy: String?
    /// Why a failed run stopped.
    public var error: String?
    public var undoneAt: String?
    /// Each repository as the run found it before its first change (empty for a run that records none).
    public var before: [RunJournal.Before]
    public var repositories: [String]
    public var refs: [Ref]
    /// A review roll's proposals: counts by state, the ones still followed, and the way on while it waits; nil for
    /// every other run.
    public var reviews: ReviewRunCounts?

    public init(_ journal: RunJournal) {
        runId = journal.runId
        createdAt = journal.createdAt
        command = journal.commandName
        arguments = journal.arguments ?? []
        worktree = journal.worktree
        finishedBy = journal.finishedBy
        error = journal.error
        undoneAt = journal.undoneAt
        before = journal.before ?? []
        reviews = ReviewRunCounts(journal)
        var repositories: [String] = []
        for entry in journal.entries where !repositories.contains(entry.repository) {
            repositories.append(entry.repository)
        }
        self.repositories = repositories
        refs = journal.entries.map {
            Ref(
                repository: $0.repository, ref: $0.ref, old: $0.old, new: $0.new, published: $0.published,
                undone: $0.undone == true)
        }
        let published = journal.entries.map(\.published)
        if journal.isUnfinished {
            state = "unfinished"
        } else if journal.state == .running && !journal.hasStarted {
            state = "not started"
        } else if journal.commandName != "roll" || journal.isUndo || journal.state == .forgotten
            || journal.reviews != nil
        {
            // A review roll says how far its reviews are: waiting, finished (all landed) or aborted.
            state = (journal.state ?? .finished).rawValue
        } else if journal.undoneAt != nil {
            state = "undone"
        } else if journal.entries.contains(where: { $0.undone == true }) {
            state = "partly undone"
        } else if published.contains(where: { $0 == nil }) {
            state = "unknown"
        } else if published.allSatisfy({ $0 == true }) {
            state = "published"
        } else if published.allSatisfy({ $0 == false }) {
            state = "not published"
        } else {
            state = "partly published"
        }
    }
}

/// `tenantctl runs --json`.
public struct RunsJSON: Sendable, Encodable {
    public var schemaVersion = 1
    public var runs: [RunSummary]
    /// How many older runs `--limit` left out (0 when it left none out).
    public var leftOut: Int

    public init(runs: [RunSummary], leftOut: Int = 0) {
        self.runs = runs
        self.leftOut = leftOut
    }
}
