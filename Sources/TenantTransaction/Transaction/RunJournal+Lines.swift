import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The journal file, one line per step: the first line (`{"begin":…}`) holds the run as it began (the envelope and
/// the refs planned before the first change), and every later line one step as it landed, appended (never a rewrite
/// of what is there), like git's sequencer `done` file. Reading replays the lines in order. A last line cut off in
/// the middle (a full disk, a power loss) is left out and the run is taken as unfinished; a journal written by an
/// earlier version (one pretty-printed JSON object) still reads.
extension RunJournal {
    /// One line of a journal file: exactly one of its members is set.
    package struct Line: Codable, Equatable, Sendable {
        /// The run as it began: always the first line.
        var begin: RunJournal?
        /// Refs that changed, or the outcome of refs already recorded (``Transaction/record(_:published:landed:)``).
        var record: Record?
        /// A push's answer for refs already recorded: `published` true (landed), false (refused), absent (unknown).
        var answer: Answer?
        /// Refs that were taken back again (a compensation, an abort's step, an undo).
        var undone: Refs?
        /// Each repository's state before the first change, or a later version of that record.
        var before: [RunJournal.Before]?
        /// A repository a switch starts changing (its `before` record marked started).
        var started: String?
        /// The run got to its first change.
        var changed: Bool?
        /// How the run ended, or a later word on it (finished by its re-run, aborted, forgotten).
        var end: End?
        /// `roll --undo` restored every ref of this roll that landed.
        var undoneAt: String?
        /// A review roll's proposals as they now stand: each replaces the one of its repository and tenant, or is
        /// added.
        var reviews: [Review]?
        /// A resolution as it now stands after a step of a resolve run (it replaces the one recorded before).
        var resolution: Resolution?

        package init(
            begin: RunJournal? = nil, record: Record? = nil, answer: Answer? = nil, undone: Refs? = nil,
            before: [RunJournal.Before]? = nil, started: String? = nil, changed: Bool? = nil, end: End? = nil,
            undoneAt: String? = nil, reviews: [Review]? = nil, resolution: Resolution? = nil
        ) {
            self.begin = begin
            self.record = record
            self.answer = answer
            self.undone = undone
            self.before = before
            self.started = started
            self.changed = changed
            self.end = end
            self.undoneAt = undoneAt
            self.reviews = reviews
            self.resolution = resolution
        }
    }

    /// Steps recorded in one repository (refs that changed, a checkout's HEAD, a checkout's move).
    package struct Record: Codable, Equatable, Sendable {
        var repository: String
        var remote: String
        var refs: [JournalStep]
        var published: Bool?
        var landed: Bool?

        package init(repository: String, remote: String, refs: [JournalStep], published: Bool?, landed: Bool?) {
            self.repository = repository
            self.remote = remote
            self.refs = refs
            self.published = published
            self.landed = landed
        }
    }

    /// A push's answer.
    package struct Answer: Codable, Equatable, Sendable {
        var repository: String
        var refs: [String]
        var published: Bool?

        package init(repository: String, refs: [String], published: Bool?) {
            self.repository = repository
            self.refs = refs
            self.published = published
        }
    }

    /// Refs of one repository.
    package struct Refs: Codable, Equatable, Sendable {
        var repository: String
        var refs: [String]

        package init(repository: String, refs: [String]) {
            self.repository = repository
            self.refs = refs
        }
    }

    /// A run's end.
    package struct End: Codable, Equatable, Sendable {
        var state: State
        var error: String?
        var finishedBy: String?

        package init(state: State, error: String? = nil, finishedBy: String? = nil) {
            self.state = state
            self.error = error
            self.finishedBy = finishedBy
        }
    }

    /// Applies one line to the journal: what the writer did in memory, done again by the reader.
    mutating func apply(_ line: Line) {
        if let begin = line.begin { self = begin }
        if let record = line.record { apply(record) }
        if let answer = line.answer {
            let refs = Set(answer.refs)
            for index in entries.indices
            where entries[index].repository == answer.repository && refs.contains(entries[index].ref) {
                entries[index].published = answer.published
            }
        }
        if let undone = line.undone {
            let refs = Set(undone.refs)
            for index in entries.indices
            where entries[index].repository == undone.repository && refs.contains(entries[index].ref) {
                entries[index].undone = true
            }
        }
        if let before = line.before {
            self.before = before
            changed = true
        }
        if let started = line.started, let index = before?.firstIndex(where: { $0.repository == started }) {
            before?[index].started = true
            changed = true
        }
        if line.changed == true { changed = true }
        if let end = line.end {
            state = end.state
            if let error = end.error { self.error = error }
            if let finishedBy = end.finishedBy { self.finishedBy = finishedBy }
        }
        if let undoneAt = line.undoneAt { self.undoneAt = undoneAt }
        if let reviews = line.reviews { apply(reviews) }
        if let resolution = line.resolution { self.resolution = resolution }
    }

    /// Replaces each proposal of the same repository and tenant, or adds it.
    private mutating func apply(_ updated: [Review]) {
        var all = self.reviews ?? []
        for review in updated {
            if let index = all.firstIndex(where: { $0.repository == review.repository && $0.tenant == review.tenant }) {
                all[index] = review
            } else {
                all.append(review)
            }
        }
        self.reviews = all
    }

    /// Adds refs to the entries, or updates the outcome (and new value) of refs already there.
    private mutating func apply(_ record: Record) {
        changed = true
        var indices: [String: Int] = [:]
        for (index, entry) in entries.enumerated() where entry.repository == record.repository {
            indices[entry.ref] = index
        }
        for step in record.refs {
            if let index = indices[step.name] {
                if let published = record.published { entries[index].published = published }
                if let landed = record.landed { entries[index].landed = landed }
                if let new = step.newValue { entries[index].new = new }
            } else {
                var entry = Entry(
                    repository: record.repository, remote: record.remote, ref: step.name, old: step.oldValue,
                    new: step.newValue ?? "", published: record.published)
                entry.landed = record.landed
                indices[step.name] = entries.count
                entries.append(entry)
            }
        }
    }

    /// The bytes of lines: compact JSON, one line each, sorted keys.
    static func encode(_ lines: [Line]) -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        var data = Data()
        for line in lines {
            // Encoding these plain value types cannot fail; an empty line would be skipped by the reader.
            if let bytes = try? encoder.encode(line) { data.append(bytes) }
            data.append(0x0A)
        }
        return data
    }

    /// Whether a journal file's bytes are in the line format (its first line begins the run).
    static func isLineFormat(_ data: Data) -> Bool {
        data.starts(with: Data(#"{"begin":"#.utf8))
    }

    /// Reads a journal in the line format: the lines replayed in order. A last line that does not decode (cut off)
    /// is left out and the run taken as unfinished (``salvaged``); a line in the middle that does not decode was cut
    /// off by a writer that stopped, and a later writer went on after it: it is skipped.
    static func replay(_ data: Data, path: String, runId: String) throws -> RunJournal {
        let decoder = JSONDecoder()
        var lines = data.split(separator: 0x0A, omittingEmptySubsequences: true)
        var torn = false
        if let last = lines.last, data.last != 0x0A || (try? decoder.decode(Line.self, from: Data(last))) == nil {
            lines.removeLast()
            torn = true
        }
        guard let first = lines.first, let begin = try? decoder.decode(Line.self, from: Data(first)).begin else {
            throw WorkspaceError(
                "cannot read the run journal \(path): it is cut off before its first step (a full disk?), so how run "
                    + "\(runId) ended is unknown; check each repository with git status, then give it up: "
                    + "tenantctl runs --forget \(runId)")
        }
        var journal = begin
        for line in lines.dropFirst() {
            guard let step = try? decoder.decode(Line.self, from: Data(line)) else { continue }
            journal.apply(step)
        }
        if torn {
            journal.salvaged = true
            journal.state = .running
        }
        return journal
    }

    /// How a line-format journal ended, from its last lines only (`tail`: the file's last bytes, `whole`: whether
    /// they are the whole file): the state of its last `end` line when it is complete and nothing after it can
    /// change that. Nil when the tail does not tell (no end line in it, or a cut-off last line): read it whole.
    static func endState(tail: Data, whole: Bool) -> State? {
        guard tail.last == 0x0A else { return nil }
        var lines = tail.split(separator: 0x0A, omittingEmptySubsequences: true)
        if !whole, !lines.isEmpty { lines.removeFirst() }  // may start in the middle of a line
        let decoder = JSONDecoder()
        for line in lines.reversed() {
            guard let step = try? decoder.decode(Line.self, from: Data(line)) else { return nil }
            if let end = step.end { return end.state }
            if let begin = step.begin { return begin.state }
        }
        return nil
    }
}

/// Appends lines to a journal file: written, flushed to the disk, and on a failure cut back to the bytes it had, so
/// that a failed write leaves no half line behind it. A last line that an earlier writer left cut off (killed in the
/// middle of a write) is ended first, so the new lines stand on lines of their own.
enum JournalAppend {
    static func append(_ data: Data, to path: String) throws(DurableFileError) {
        let descriptor = open(path, O_RDWR | O_APPEND | O_CLOEXEC)
        guard descriptor >= 0 else { throw DurableFileError(path: path, reason: String(cString: strerror(errno))) }
        let size = lseek(descriptor, 0, SEEK_END)
        guard size >= 0 else {
            let error = DurableFileError(path: path, reason: String(cString: strerror(errno)))
            close(descriptor)
            throw error
        }
        var bytes = data
        if size > 0 {
            var last: UInt8 = 0
            if pread(descriptor, &last, 1, size - 1) == 1, last != 0x0A { bytes.insert(0x0A, at: 0) }
        }
        func fail() -> DurableFileError {
            let error = DurableFileError(path: path, reason: String(cString: strerror(errno)))
            _ = ftruncate(descriptor, size)
            _ = DurableFile.syncFile(descriptor)
            close(descriptor)
            return error
        }
        var written = 0
        while written < bytes.count {
            let count = bytes.withUnsafeBytes { buffer in
                systemWrite(descriptor, buffer.baseAddress.map { $0 + written }, bytes.count - written)
            }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { throw fail() }
            written += count
        }
        guard DurableFile.syncFile(descriptor) == 0 else { throw fail() }
        guard close(descriptor) == 0 else {
            throw DurableFileError(path: path, reason: String(cString: strerror(errno)))
        }
    }
}
