import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The journal of one run of a writing command (switch, pin, resolve, customize, tenant and module add/remove, tag,
/// init, roll): `<common git dir>/tenantctl/journal/<run-id>.json`, begun (through ``DurableFile``) before the first
/// change, with one line appended as each step lands (``Line``; only ``Transaction`` writes it). The envelope says
/// which command ran, with which arguments, in which worktree, and how it ended; the entries are the refs it changes (old and new value, landed locally, published).
///
/// A roll's journal is one case of it; a journal written before the envelope existed (a roll's, without `command`
/// and `state`) still reads: it is a roll that ran to its end.
public struct RunJournal: Sendable, Equatable, Codable {
    /// How a run ended. A journal left `running` by a process that is gone is an unfinished run: the other writing
    /// commands refuse until its re-run (or its abort) finishes it.
    public enum State: String, Sendable, Equatable, Codable {
        /// Under way, stopped without a word (killed), or stopped with an error (``RunJournal/error``) after part of
        /// it landed: unfinished, once no process holds the workspace lock.
        case running
        /// Done; or finished by a later run of the same command (``RunJournal/finishedBy``).
        case finished
        /// Taken back by its abort (`resolve --abort`, `roll --undo`).
        case aborted
        /// Stopped with an error that it reported; it left nothing a re-run needs to finish (nothing landed, or every
        /// step that landed was taken back again).
        case failed
        /// Given up by `tenantctl runs --forget`: what it left stays as it is, and it blocks nothing.
        case forgotten
        /// A review roll whose proposals are pushed and wait for people to review them: nothing half-pushed, it
        /// blocks nothing; `roll --land` follows it to `finished`, `roll --abandon` ends it `aborted`.
        case waiting
    }

    /// A repository as the run found it before changing anything. A switch also records where it takes the
    /// repository and whether it has started changing it (the fields after `head`, nil in other commands'
    /// journals): what its re-run, or the next switch, needs to put a stopped switch back.
    public struct Before: Sendable, Equatable, Codable {
        /// `superproject` or a module name.
        public var repository: String
        /// The branch checked out (nil: detached or not initialised).
        public var branch: String?
        /// HEAD (nil: no commit, or not initialised).
        public var head: String?
        /// Path relative to the superproject root ("" for the superproject); switch only.
        public var path: String?
        /// The branch the switch puts it on; switch only.
        public var targetBranch: String?
        /// The tip `targetBranch` had before the switch (nil: the switch creates it, or not a switch).
        public var targetBranchTip: String?
        /// The commit the switch ends it on; switch only.
        public var target: String?
        /// The switch clones the module (put back: deinitialised again); switch only.
        public var initialises: Bool?
        /// The switch has started changing it; switch only.
        public var started: Bool?
        /// The path the switch moves the module's checkout from to `path` (nil: not moved).
        public var movedFrom: String?

        public init(repository: String, branch: String?, head: String?) {
            self.repository = repository
            self.branch = branch
            self.head = head
        }
    }

    /// One ref change.
    public struct Entry: Sendable, Equatable, Codable {
        /// `superproject` or a module name.
        public var repository: String
        /// Where it was pushed: `origin` for the superproject, the module's URL otherwise.
        public var remote: String
        /// Full ref name on the remote.
        public var ref: String
        /// Value before (nil: created).
        public var old: String?
        /// Value after.
        public var new: String
        /// Whether the push of this ref landed: recorded as each repository's push returns; nil while unknown (not
        /// pushed yet, or the push broke off without an answer — `--undo` then asks the remote).
        public var published: Bool?
        /// Set when `--undo` restored this ref.
        public var undone: Bool?
        /// For a local change (a checkout, a local branch): whether it was made. Nil for a remote ref.
        public var landed: Bool?

        public init(repository: String, remote: String, ref: String, old: String?, new: String, published: Bool? = nil)
        {
            self.repository = repository
            self.remote = remote
            self.ref = ref
            self.old = old
            self.new = new
            self.published = published
        }
    }

    /// Format version.
    public var schemaVersion = 1
    /// The run id (`--undo <run-id>`).
    public var runId: String
    /// ISO 8601 time of the run.
    public var createdAt: String
    /// Every change, modules first.
    public var entries: [Entry]
    /// Set when `--undo` restored every ref that landed.
    public var undoneAt: String?
    /// The command's words (`tenant add`); nil in a journal written before the envelope existed (a roll).
    public var command: String?
    /// The arguments after the command's words that re-run it (`t5 --from t1`): global options left out.
    public var arguments: [String]?
    /// The worktree the run worked in (its root).
    public var worktree: String?
    /// How it ended; nil in a journal written before the envelope existed.
    public var state: State?
    /// Each repository's branch and HEAD before the first change.
    public var before: [Before]?
    /// Why it stopped: for a failed run, and for one that stopped with an error after part of it landed.
    public var error: String?
    /// The run that finished this one (a re-run of the same command), or the `runs --abort` / `runs --forget` run
    /// that settled it.
    public var finishedBy: String?
    /// Whether the run got to its first change (a step recorded, or each repository's state recorded just before
    /// it). False while it fetches and checks: a run killed then changed nothing and blocks nothing. Nil in a journal
    /// written before this was recorded: taken as true.
    public var changed: Bool?
    /// A review roll's proposals (``Review``); nil in every other run.
    public var reviews: [Review]?
    /// A resolve run's resolution as it stood after its last recorded step (``Resolution``); nil in every other run.
    public var resolution: Resolution?
    /// Set when the journal on disk was cut off in the middle (a full disk, a power loss): its complete steps were
    /// read, the rest is lost, and how the run ended is unknown, so it is taken as unfinished. Never written.
    public var salvaged: Bool?

    public init(runId: String, createdAt: String, entries: [Entry]) {
        self.runId = runId
        self.createdAt = createdAt
        self.entries = entries
    }

    /// Whether any change of the run landed and was not taken back: a push accepted or a local change made.
    public var hasLanded: Bool {
        entries.contains { ($0.published == true || $0.landed == true) && $0.undone != true }
    }

    /// Whether the run got to its first change (``changed``; a journal that does not say is taken as changed).
    public var hasStarted: Bool { changed != false }

    /// The command, `roll` for a journal written before the envelope existed.
    public var commandName: String { command ?? "roll" }

    /// Whether the run is unfinished: still `running` although no live process holds the workspace lock, and past
    /// its first change (a run killed while it fetched or checked ends as if it never started).
    public var isUnfinished: Bool { state == .running && undoneAt == nil && hasStarted }

    /// Whether the run's worktree is gone (`git worktree remove`): recorded, and no directory there any more.
    public var worktreeIsGone: Bool {
        guard let worktree else { return false }
        var isDirectory: ObjCBool = false
        return !FileManager.default.fileExists(atPath: worktree, isDirectory: &isDirectory) || !isDirectory.boolValue
    }

    /// Whether the command changes the checkouts of the worktree it runs in (switch, pin, resolve, init), rather
    /// than only the remotes and the shared refs: its re-run must run in that worktree.
    public var changesItsWorktree: Bool { ["switch", "pin", "resolve", "init"].contains(commandName) }

    /// The command line that re-runs it (`tenantctl tenant add t5`), with `-C <worktree>` when it ran in another
    /// worktree than `currentWorktree`. When that worktree is gone, a command that changes only the remotes re-runs
    /// from here (no `-C`); one that changes its worktree's checkouts has no re-run (nil): abort or forget it.
    public func rerunCommand(currentWorktree: String?) -> String? {
        var words = ["tenantctl"]
        if let worktree, worktree != currentWorktree {
            if worktreeIsGone {
                if changesItsWorktree { return nil }
            } else {
                words += ["-C", worktree]
            }
        }
        words += commandName.split(separator: " ").map(String.init)
        words += arguments ?? []
        return ShellWord.line(words)
    }

    /// Whether this run is itself a `runs --abort` or `runs --forget`, or a `roll --undo`: a run that takes another
    /// one back, and whose own re-run finishes that.
    public var isUndo: Bool {
        commandName == "runs" || (commandName == "roll" && Self.undoTarget(arguments ?? []) != nil)
    }

    /// The run id after `--undo` (or in `--undo=<id>`) in a roll's arguments; nil when they do not undo.
    public static func undoTarget(_ arguments: [String]) -> String? {
        for (index, word) in arguments.enumerated() {
            if word == "--undo", index + 1 < arguments.count { return arguments[index + 1] }
            if word.hasPrefix("--undo=") { return String(word.dropFirst("--undo=".count)) }
        }
        return nil
    }

    /// The ways out of an unfinished run, as commands that run as printed from `currentWorktree`: its re-run (where
    /// it has one), its command's own abort (`resolve --abort`, `roll --undo <run-id>`), `tenantctl runs --abort
    /// <run-id>` where that can take its steps back, and `tenantctl runs --forget <run-id>`.
    public func waysOut(currentWorktree: String?) -> [String] {
        var ways: [String] = []
        if let rerun = rerunCommand(currentWorktree: currentWorktree) { ways.append(rerun) }
        if let abortCommand { ways.append(abortCommand) }
        if RunAbort.canAbort(self) {
            var words = ["tenantctl"]
            // Its local steps are taken back only in its own worktree.
            if let worktree, worktree != currentWorktree, !worktreeIsGone, hasLocalSteps { words += ["-C", worktree] }
            ways.append(ShellWord.line(words + ["runs", "--abort", runId]))
        }
        ways.append(ShellWord.line(["tenantctl", "runs", "--forget", runId]))
        return ways
    }

    /// Whether a step of the run changed a local branch (a commit on the checked-out branch).
    public var hasLocalSteps: Bool { entries.contains { $0.landed == true && $0.undone != true } }

    /// The command that takes the run back, where the command has one: `resolve --abort`, `roll --undo <run-id>`.
    public var abortCommand: String? {
        switch commandName {
        case "resolve": "tenantctl resolve --abort"
        case "roll" where !isUndo: "tenantctl roll --undo \(runId)"
        default: nil
        }
    }

    /// `<superproject git dir>/tenantctl/journal`.
    public static func directory(gitDirectory: String) -> String {
        (gitDirectory as NSString).appendingPathComponent("tenantctl/journal")
    }

    /// The journal file of a run.
    public static func path(gitDirectory: String, runId: String) -> String {
        (directory(gitDirectory: gitDirectory) as NSString).appendingPathComponent(runId + ".json")
    }

    /// A new run id: UTC time to the second, then six hex digits: the millisecond (three digits) and three random
    /// ones. Ids sort in the order the runs started, also two runs in the same second (`runs` lists them oldest
    /// first by id), and stay unique.
    public static func newRunId(date: Date = Date()) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyyMMdd-HHmmss"
        let seconds = date.timeIntervalSince1970.rounded(.down)
        let millisecond = min(999, max(0, Int(((date.timeIntervalSince1970 - seconds) * 1000).rounded())))
        let hex = String(millisecond, radix: 16)
        return formatter.string(from: Date(timeIntervalSince1970: seconds)) + "-"
            + String(repeating: "0", count: 3 - hex.count) + hex + UUID().uuidString.prefix(3).lowercased()
    }

    /// Writes the journal as a new file in the line format, all of it on its first line (temporary file, fsync,
    /// rename; on a failure the temporary file is removed and the previous journal, or none, stays). Only
    /// ``Transaction`` writes journals: it begins a run's file this way and appends each step after.
    package func write(gitDirectory: String) throws(DurableFileError) {
        try DurableFile.write(
            Self.encode([Line(begin: self)]), to: Self.path(gitDirectory: gitDirectory, runId: runId))
    }

    /// The journal as one JSON object, the format of the journals written before the line format (still read): the bytes `JSONEncoder` writes with `.prettyPrinted`, `.sortedKeys` and
    /// `.withoutEscapingSlashes` (`RollJournalEncodingTests` compares them), written by hand because a roll rewrites its
    /// journal after every repository's push: at 1000 tenants × 50 modules that is 16,000 entries, 51 times, and
    /// `JSONEncoder` took 2 s of the roll's CPU doing it while the other pushes waited for the lock.
    public func encoded() -> Data {
        var json = JSONBytes(capacity: 256 * entries.count + 1024)
        json.object { json in
            if let arguments { json.member("arguments", arguments) }
            if let before {
                json.key("before")
                json.array(before) { json, repository in
                    json.object { json in
                        json.member("branch", ifPresent: repository.branch)
                        json.member("head", ifPresent: repository.head)
                        json.member("initialises", ifPresent: repository.initialises)
                        json.member("movedFrom", ifPresent: repository.movedFrom)
                        json.member("path", ifPresent: repository.path)
                        json.member("repository", repository.repository)
                        json.member("started", ifPresent: repository.started)
                        json.member("target", ifPresent: repository.target)
                        json.member("targetBranch", ifPresent: repository.targetBranch)
                        json.member("targetBranchTip", ifPresent: repository.targetBranchTip)
                    }
                }
            }
            json.member("changed", ifPresent: changed)
            json.member("command", ifPresent: command)
            json.member("createdAt", createdAt)
            json.key("entries")
            json.array(entries) { json, entry in
                json.object { json in
                    json.member("landed", ifPresent: entry.landed)
                    json.member("new", entry.new)
                    json.member("old", ifPresent: entry.old)
                    json.member("published", ifPresent: entry.published)
                    json.member("ref", entry.ref)
                    json.member("remote", entry.remote)
                    json.member("repository", entry.repository)
                    json.member("undone", ifPresent: entry.undone)
                }
            }
            json.member("error", ifPresent: error)
            json.member("finishedBy", ifPresent: finishedBy)
            if let reviews {
                json.key("reviews")
                json.array(reviews) { json, review in
                    json.object { json in
                        json.member("base", ifPresent: review.base)
                        json.member("general", review.general)
                        json.member("landed", ifPresent: review.landed)
                        json.member("method", ifPresent: review.method)
                        json.member("proposed", review.proposed)
                        json.member("ref", review.ref)
                        json.member("repository", review.repository)
                        json.member("state", review.state)
                        json.member("target", review.target)
                        json.member("tenant", review.tenant)
                        json.member("url", ifPresent: review.url)
                    }
                }
            }
            json.member("runId", runId)
            json.member("schemaVersion", schemaVersion)
            json.member("state", ifPresent: state?.rawValue)
            json.member("undoneAt", ifPresent: undoneAt)
            json.member("worktree", ifPresent: worktree)
        }
        return Data(json.bytes)
    }

    /// Every journalled run, oldest first (run ids sort by time). A journal that cannot be read is reported in
    /// `unreadable` (path → reason), not skipped silently.
    public static func all(gitDirectory: String) throws -> (runs: [RunJournal], unreadable: [String: String]) {
        let directory = directory(gitDirectory: gitDirectory)
        guard FileManager.default.fileExists(atPath: directory) else { return ([], [:]) }
        let names = try FileManager.default.contentsOfDirectory(atPath: directory)
            .filter { $0.hasSuffix(".json") && !$0.hasPrefix(".") }.sorted()
        var runs: [RunJournal] = []
        var unreadable: [String: String] = [:]
        for name in names {
            do {
                runs.append(try read(gitDirectory: gitDirectory, runId: String(name.dropLast(5))))
            } catch {
                unreadable[(directory as NSString).appendingPathComponent(name)] = String(describing: error)
            }
        }
        return (runs, unreadable)
    }

    /// The unfinished runs (``isUnfinished``), oldest first. Only a journal whose last bytes hold
    /// `"state" : "running"` is read whole and decoded (the keys are sorted: only `undoneAt` and `worktree` follow
    /// `state`; and a quote inside a value is escaped), so that every writing command and `status` can ask without
    /// reading a thousand-tenant roll's journal each time. A journal that cannot be read, or that says `running` and
    /// cannot be decoded, is an error naming the file: a stopped run is never taken for a finished one.
    public static func unfinished(gitDirectory: String) throws -> [RunJournal] {
        let directory = directory(gitDirectory: gitDirectory)
        guard FileManager.default.fileExists(atPath: directory) else { return [] }
        let marker = Data(#""state" : "running""#.utf8)
        return try FileManager.default.contentsOfDirectory(atPath: directory)
            .filter { $0.hasSuffix(".json") && !$0.hasPrefix(".") }.sorted()
            .compactMap { name -> RunJournal? in
                let path = (directory as NSString).appendingPathComponent(name)
                let (tail, whole) = try tail(of: path, count: 16384)
                if whole ? isLineFormat(tail) : try isLineFormat(path: path) {
                    // A run whose last end line says it ended is not read whole.
                    if let state = endState(tail: tail, whole: whole), state != .running { return nil }
                    let journal = try read(gitDirectory: gitDirectory, runId: String(name.dropLast(5)))
                    return journal.isUnfinished ? journal : nil
                }
                // A journal cut off in the middle never says how the run ended: its complete steps are read, and the
                // run is taken as unfinished.
                if !isComplete(tail) {
                    let journal = try salvage(path: path, runId: String(name.dropLast(5)))
                    return journal.isUnfinished ? journal : nil
                }
                guard tail.range(of: marker) != nil else { return nil }
                let journal: RunJournal
                do {
                    journal = try JSONDecoder().decode(
                        RunJournal.self, from: Data(contentsOf: URL(fileURLWithPath: path)))
                } catch {
                    throw unreadable(path, error)
                }
                return journal.isUnfinished ? journal : nil
            }
    }

    /// Whether the last bytes of a journal end it: its closing brace at the start of a line (every journal is
    /// written pretty-printed; a brace of an entry is indented). An empty file is no journal either.
    static func isComplete(_ tail: Data) -> Bool {
        var end = tail.endIndex
        while end > tail.startIndex, [0x0A, 0x0D, 0x20].contains(tail[end - 1]) { end -= 1 }
        guard end > tail.startIndex, tail[end - 1] == UInt8(ascii: "}") else { return false }
        return end - 1 == tail.startIndex || tail[end - 2] == 0x0A
    }

    /// The complete part of a journal cut off in the middle: everything up to its last complete step (the envelope
    /// before the steps is kept), state running. Throws naming the file and the way out when not even the envelope
    /// and the start of the steps are there.
    static func salvage(path: String, runId: String) throws -> RunJournal {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw unreadable(path, error)
        }
        let text = String(decoding: data, as: UTF8.self)
        let ending =
            "\n  ],\n  \"runId\" : \"" + runId + "\",\n  \"schemaVersion\" : 1,\n  \"state\" : \"running\"\n}\n"
        if let steps = text.range(of: "\"entries\" : [") {
            var cuts: [String.Index] = []
            if let last = text.range(of: "\n    }", options: .backwards, range: steps.upperBound..<text.endIndex) {
                cuts.append(last.upperBound)
            }
            cuts.append(steps.upperBound)
            for cut in cuts {
                if var journal = try? JSONDecoder().decode(
                    RunJournal.self, from: Data((String(text[..<cut]) + ending).utf8))
                {
                    journal.salvaged = true
                    journal.state = .running
                    return journal
                }
            }
        }
        throw WorkspaceError(
            "cannot read the run journal \(path): it is cut off before its first step (a full disk?), so how run "
                + "\(runId) ended is "
                + "unknown; check each repository with git status, then give it up: tenantctl runs --forget \(runId)")
    }

    /// The error for a journal that may belong to an unfinished run and cannot be read.
    static func unreadable(_ path: String, _ error: any Error) -> WorkspaceError {
        WorkspaceError(
            "cannot read the run journal \(path), which may belong to an unfinished run: \(error); if no tenantctl "
                + "run is under way, check each repository with git status, then move the file out of the journal "
                + "directory")
    }

    /// The last `count` bytes of a file (all of a smaller one), and whether that is the whole file.
    private static func tail(of path: String, count: UInt64) throws -> (Data, whole: Bool) {
        do {
            let handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: path))
            defer { try? handle.close() }
            let size = try handle.seekToEnd()
            try handle.seek(toOffset: size > count ? size - count : 0)
            return (try handle.readToEnd() ?? Data(), size <= count)
        } catch {
            throw unreadable(path, error)
        }
    }

    /// Whether a journal file is in the line format, from its first bytes.
    private static func isLineFormat(path: String) throws -> Bool {
        do {
            let handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: path))
            defer { try? handle.close() }
            return isLineFormat(try handle.read(upToCount: 16) ?? Data())
        } catch {
            throw unreadable(path, error)
        }
    }

    /// Reads the journal of a run.
    public static func read(gitDirectory: String, runId: String) throws -> RunJournal {
        guard !runId.contains("/"), !runId.hasPrefix("."), !runId.isEmpty else {
            throw WorkspaceError("invalid run id \(runId)")
        }
        let path = Self.path(gitDirectory: gitDirectory, runId: runId)
        guard let data = FileManager.default.contents(atPath: path) else {
            throw WorkspaceError(
                "no run journal \(path); run ids are the file names in \(directory(gitDirectory: gitDirectory)) "
                    + "(`tenantctl runs` lists them)")
        }
        if isLineFormat(data) { return try replay(data, path: path, runId: runId) }
        do {
            return try JSONDecoder().decode(RunJournal.self, from: data)
        } catch {
            if !isComplete(data.suffix(16)) { return try salvage(path: path, runId: runId) }
            throw WorkspaceError("cannot read the run journal \(path): \(error)")
        }
    }
}
