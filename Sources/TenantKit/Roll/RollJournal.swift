import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The record of every remote ref a roll changes, written before publishing and kept afterwards.
public struct RollJournal: Sendable, Equatable, Codable {
    /// One remote ref change.
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

    public init(runId: String, createdAt: String, entries: [Entry]) {
        self.runId = runId
        self.createdAt = createdAt
        self.entries = entries
    }

    /// `<superproject git dir>/tenantctl/journal`.
    public static func directory(gitDirectory: String) -> String {
        (gitDirectory as NSString).appendingPathComponent("tenantctl/journal")
    }

    /// The journal file of a run.
    public static func path(gitDirectory: String, runId: String) -> String {
        (directory(gitDirectory: gitDirectory) as NSString).appendingPathComponent(runId + ".json")
    }

    /// A new run id: UTC time plus a random suffix (sortable, unique).
    public static func newRunId(date: Date = Date()) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyyMMdd-HHmmss"
        return formatter.string(from: date) + "-" + UUID().uuidString.prefix(6).lowercased()
    }

    /// Writes the journal: temporary file, fsync, rename. On a failure (a full disk) the temporary file is removed
    /// and the previous journal, or none, stays.
    public func write(gitDirectory: String) throws(DurableFileError) {
        try DurableFile.write(encoded(), to: Self.path(gitDirectory: gitDirectory, runId: runId))
    }

    /// The journal as JSON: the bytes `JSONEncoder` writes with `.prettyPrinted`, `.sortedKeys` and
    /// `.withoutEscapingSlashes` (`RollJournalEncodingTests` compares them), written by hand because a roll rewrites its
    /// journal after every repository's push: at 1000 tenants × 50 modules that is 16,000 entries, 51 times, and
    /// `JSONEncoder` took 2 s of the roll's CPU doing it while the other pushes waited for the lock.
    public func encoded() -> Data {
        var json = JSONBytes(capacity: 256 * entries.count + 256)
        json.raw("{")
        json.member("createdAt", 1, first: true)
        json.string(createdAt)
        json.member("entries", 1)
        json.raw("[")
        for (index, entry) in entries.enumerated() {
            if index > 0 { json.raw(",") }
            json.line(2)
            json.raw("{")
            json.member("new", 3, first: true)
            json.string(entry.new)
            if let old = entry.old {
                json.member("old", 3)
                json.string(old)
            }
            if let published = entry.published {
                json.member("published", 3)
                json.bool(published)
            }
            json.member("ref", 3)
            json.string(entry.ref)
            json.member("remote", 3)
            json.string(entry.remote)
            json.member("repository", 3)
            json.string(entry.repository)
            if let undone = entry.undone {
                json.member("undone", 3)
                json.bool(undone)
            }
            json.line(2)
            json.raw("}")
        }
        if entries.isEmpty { json.raw("\n") }
        json.line(1)
        json.raw("]")
        json.member("runId", 1)
        json.string(runId)
        json.member("schemaVersion", 1)
        json.int(schemaVersion)
        if let undoneAt {
            json.member("undoneAt", 1)
            json.string(undoneAt)
        }
        json.line(0)
        json.raw("}")
        return Data(json.bytes)
    }

    /// Every journalled run, oldest first (run ids sort by time). A journal that cannot be read is reported in
    /// `unreadable` (path → reason), not skipped silently.
    public static func all(gitDirectory: String) throws -> (runs: [RollJournal], unreadable: [String: String]) {
        let directory = directory(gitDirectory: gitDirectory)
        guard FileManager.default.fileExists(atPath: directory) else { return ([], [:]) }
        let names = try FileManager.default.contentsOfDirectory(atPath: directory)
            .filter { $0.hasSuffix(".json") && !$0.hasPrefix(".") }.sorted()
        var runs: [RollJournal] = []
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

    /// Reads the journal of a run.
    public static func read(gitDirectory: String, runId: String) throws -> RollJournal {
        guard !runId.contains("/"), !runId.hasPrefix("."), !runId.isEmpty else {
            throw RollError("invalid run id \(runId)")
        }
        let path = Self.path(gitDirectory: gitDirectory, runId: runId)
        guard let data = FileManager.default.contents(atPath: path) else {
            throw RollError(
                "no roll journal \(path); run ids are the file names in \(directory(gitDirectory: gitDirectory))")
        }
        do {
            return try JSONDecoder().decode(RollJournal.self, from: data)
        } catch {
            throw RollError("cannot read the roll journal \(path): \(error)")
        }
    }
}

/// Keeps a run's journal on disk up to date while its pushes land: every outcome is written (temporary file, fsync,
/// rename) as soon as it is known, so an interrupted or failed run still tells `--undo` what reached a remote.
/// Safe to call from the concurrent module pushes.
public final class RollJournalRecorder: Sendable {
    private let journal: Locked<RollJournal>
    private let gitDirectory: String
    /// The first write that failed: no push starts after it.
    private let failure = Locked<DurableFileError?>(nil)

    /// Writes `journal` (every entry not yet published) before anything is pushed.
    public init(_ journal: RollJournal, gitDirectory: String) throws {
        self.journal = Locked(journal)
        self.gitDirectory = gitDirectory
        do {
            try journal.write(gitDirectory: gitDirectory)
        } catch {
            throw RollError("cannot write the roll journal: \(error.description); nothing was published")
        }
    }

    /// Records the answer of one repository's push for the refs it carried: `true` landed, `false` refused, `nil`
    /// unknown (the push broke off).
    /// The outcome is kept in memory even when the file cannot be rewritten: the ``DurableFileError`` thrown then
    /// is turned into a message by ``unrecordedError(_:)`` once publishing stopped.
    public func record(repository: String, refs: [String], published: Bool?) throws(DurableFileError) {
        let refSet = Set(refs)
        let gitDirectory = self.gitDirectory
        let failure = journal.withLock { (journal: inout RollJournal) -> DurableFileError? in
            for index in journal.entries.indices
            where journal.entries[index].repository == repository && refSet.contains(journal.entries[index].ref) {
                journal.entries[index].published = published
            }
            do throws(DurableFileError) {
                try journal.write(gitDirectory: gitDirectory)
                return nil
            } catch {
                return error
            }
        }
        if let failure {
            self.failure.withLock { if $0 == nil { $0 = failure } }
            throw failure
        }
    }

    /// Throws the journal's write failure, if one happened: a push must not start that the journal cannot record.
    public func requireWritable() throws(DurableFileError) {
        if let failure = failure.current { throw failure }
    }

    /// The journal as recorded so far.
    public var current: RollJournal { journal.current }

    /// The error for a journal that could not be rewritten while publishing (`failure`): what already landed, by
    /// repository and branch, that the journal on disk may not show yet, and how to go on.
    public func unrecordedError(_ failure: DurableFileError) -> RollError {
        let journal = current
        var landed: [String: [String]] = [:]
        var order: [String] = []
        for entry in journal.entries where entry.published == true {
            if landed[entry.repository] == nil { order.append(entry.repository) }
            let ref = entry.ref
            landed[entry.repository, default: []].append(
                ref.hasPrefix("refs/heads/") ? String(ref.dropFirst("refs/heads/".count)) : ref)
        }
        let pushed =
            order.isEmpty
            ? "nothing is known to have been pushed"
            : "already pushed: "
                + order.map { "\($0) (\(landed[$0, default: []].joined(separator: ", ")))" }.joined(separator: ", ")
        return RollError(
            "cannot record the roll's pushes in its journal: \(failure.description)\n\(pushed) (the journal "
                + "\(journal.runId) on disk may not say so yet)\nfree some space, then "
                + "run `tenantctl roll` again: it finds what landed on the remotes and finishes the roll; or take it "
                + "back with `tenantctl roll --undo \(journal.runId)`")
    }
}
