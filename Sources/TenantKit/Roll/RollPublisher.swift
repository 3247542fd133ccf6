import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The result of one `git push --atomic --porcelain`.
public struct PushOutcome: Sendable, Equatable, Codable {
    /// `superproject` or a module name.
    public var repository: String
    /// True when every ref was updated.
    public var accepted: Bool
    /// git's summary of the refs that were refused (empty when accepted).
    public var detail: String
}

/// Publishes new commits: one atomic, fast-forward-only push per repository (never `--force`).
public enum RollPublisher {
    /// Parses `git push --porcelain` output: ref → (flag, summary).
    public static func parsePorcelain(_ text: String) -> [String: (flag: Character, summary: String)] {
        var result: [String: (flag: Character, summary: String)] = [:]
        for line in text.split(separator: "\n") {
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
            guard fields.count >= 3, let flag = fields[0].first, let colon = fields[1].lastIndex(of: ":") else {
                continue
            }
            result[String(fields[1][fields[1].index(after: colon)...])] = (flag, String(fields[2]))
        }
        return result
    }

    /// Pushes `updates` (their `new` commits) from `repository` to `remote` in one atomic push.
    /// - Parameter leases: force the refs back with `--force-with-lease=<ref>:<expected>` (undo only).
    public static func push(
        _ updates: [RefUpdate], repository name: String, from repository: String, to remote: String, git: Git,
        leases: [String: String]? = nil
    ) throws -> PushOutcome {
        guard !updates.isEmpty else { return PushOutcome(repository: name, accepted: true, detail: "") }
        guard !remote.hasPrefix("-") else { throw RollError("refusing remote \(Redaction.redact(remote))") }
        var arguments = ["push", "--atomic", "--porcelain", "--no-verify"]
        if let leases {
            arguments += updates.map { "--force-with-lease=\($0.ref):\(leases[$0.ref] ?? "")" }
        }
        arguments.append(remote)
        arguments += updates.map { ($0.new ?? "") + ":" + $0.ref }
        let output = try git.run(
            arguments, in: repository, context: "push \(name) to \(Redaction.redact(remote))", accepting: [0, 1])
        let refs = parsePorcelain(output.text)
        let refused = updates.filter { refs[$0.ref]?.flag == "!" }
        if output.status == 0 && refused.isEmpty {
            return PushOutcome(repository: name, accepted: true, detail: "")
        }
        guard !refs.isEmpty else {
            throw GitError(
                context: "push \(name)", kind: .failed(status: output.status), command: ["git"] + arguments,
                directory: repository, stderr: output.stderr)
        }
        let detail = refused.map { "\($0.ref): \(refs[$0.ref]?.summary ?? "rejected")" }.joined(separator: "; ")
        return PushOutcome(repository: name, accepted: false, detail: detail.isEmpty ? "rejected" : detail)
    }
}

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
        /// Whether the push of this ref was accepted (nil until publishing ends).
        public var published: Bool?

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
    /// Set when `--undo` restored the old values.
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

    /// Writes the journal: temporary file, fsync, rename.
    public func write(gitDirectory: String) throws {
        let directory = Self.directory(gitDirectory: gitDirectory)
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let data = try encoder.encode(self)
        let target = Self.path(gitDirectory: gitDirectory, runId: runId)
        let temporary = target + ".tmp"
        guard FileManager.default.createFile(atPath: temporary, contents: nil) else {
            throw RollError("cannot write the journal \(temporary)")
        }
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: temporary))
        do {
            try handle.write(contentsOf: data)
            try handle.synchronize()
            try handle.close()
        } catch {
            try? handle.close()
            throw RollError("cannot write the journal \(temporary): \(error)")
        }
        guard rename(temporary, target) == 0 else {
            throw RollError("cannot move the journal into place at \(target): \(String(cString: strerror(errno)))")
        }
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
