import Foundation

/// What `tenantctl resolve` did, per repository, and the command that comes next.
public struct ResolveReport: Sendable, Equatable, Codable {
    /// One repository's line.
    public struct Repository: Sendable, Equatable, Codable {
        /// `superproject` or the module name.
        public var repository: String
        /// Path relative to the superproject root ("" for the superproject).
        public var path: String
        /// The branch concerned.
        public var branch: String
        /// start: `merged` (cleanly), `conflict`, `up-to-date` (nothing to do); continue: `committed`, `published`,
        /// `up-to-date`; abort: `restored`, `unchanged`.
        public var status: String
        /// Conflicted paths (start) or paths still in conflict.
        public var conflicts: [String]
        /// The commit before (full id).
        public var from: String?
        /// The commit after (full id).
        public var to: String?
        /// The address of the review its proposal opened (continue with `--review`), when known.
        public var url: String?

        public init(
            repository: String, path: String, branch: String, status: String, conflicts: [String] = [],
            from: String? = nil, to: String? = nil
        ) {
            self.repository = repository
            self.path = path
            self.branch = branch
            self.status = status
            self.conflicts = conflicts
            self.from = from
            self.to = to
        }
    }

    /// Format version.
    public var schemaVersion = 1
    /// `start`, `continue` or `abort`.
    public var action: String
    /// The tenant.
    public var tenant: String
    /// Its superproject branch.
    public var branch: String
    /// The superproject first, then the modules in manifest order.
    public var repositories: [Repository]
    /// Pins that changed (continue).
    public var pins: [PinChange]
    /// The run of the `--continue` whose journal records the publication (`tenantctl roll --undo <runId>`).
    public var runId: String?
    /// Whether the resolution is published (continue).
    public var published: Bool
    /// Every push, modules first.
    public var pushes: [PushOutcome]
    /// The command to run next, if any.
    public var next: String?
    /// Further remarks.
    public var notes: [String]
    /// abort: branches left as they are because the resolution did not create them, or they hold commits it did not
    /// make (nil: none).
    public var kept: [KeptBranch]?

    /// A branch `--abort` keeps.
    public struct KeptBranch: Sendable, Equatable, Codable {
        /// `superproject` or the module name.
        public var repository: String
        /// Path relative to the superproject root ("" for the superproject).
        public var path: String
        /// The branch.
        public var branch: String
        /// The commits on it that the resolution did not make (`abc1234 subject`), newest first.
        public var commits: [String]

        public init(repository: String, path: String, branch: String, commits: [String]) {
            self.repository = repository
            self.path = path
            self.branch = branch
            self.commits = commits
        }
    }

    public init(
        action: String, tenant: String, branch: String, repositories: [Repository], pins: [PinChange] = [],
        runId: String? = nil, published: Bool = false, pushes: [PushOutcome] = [], next: String? = nil,
        notes: [String] = []
    ) {
        self.action = action
        self.tenant = tenant
        self.branch = branch
        self.repositories = repositories
        self.pins = pins
        self.runId = runId
        self.published = published
        self.pushes = pushes
        self.next = next
        self.notes = notes
    }

    /// Whether any repository is left in conflict.
    public var hasConflicts: Bool { repositories.contains { $0.status == "conflict" } }

    /// The report as text: a headline, a table per repository, the pins, the next command.
    public func renderTable() -> String {
        var lines: [String] = []
        switch action {
        case "start":
            let count = repositories.filter { $0.status == "conflict" }.count
            lines.append(
                count == 0
                    ? "resolving \(tenant): every merge is clean"
                    : "resolving \(tenant): \(count) repositor\(count == 1 ? "y has" : "ies have") conflicts")
        case "continue":
            lines.append(
                published
                    ? "resolved \(tenant): "
                        + (repositories.contains { $0.status == "proposed" || $0.status == "waiting" }
                            ? "proposed for review" : "published") + (runId.map { " (run \($0))" } ?? "")
                    : "resolved \(tenant): committed locally, not published")
        default:
            let count = kept?.count ?? 0
            lines.append(
                count == 0
                    ? "aborted the resolution of \(tenant): every repository is back where it was"
                    : "aborted the resolution of \(tenant): every repository is back where it was, except \(count) "
                        + "branch\(count == 1 ? "" : "es") kept (below)")
        }
        let rows = repositories.map { entry -> [String] in
            var detail = ""
            if !entry.conflicts.isEmpty {
                detail = entry.conflicts.joined(separator: ", ")
            } else if let from = entry.from, let to = entry.to, from != to {
                detail = "\(ObjectID.short(from)) → \(ObjectID.short(to))"
            }
            if let url = entry.url { detail += (detail.isEmpty ? "" : " ") + TerminalText.escaped(url) }
            return [entry.repository, entry.branch, entry.status, detail]
        }
        lines.append(TextTable(header: ["REPOSITORY", "BRANCH", "STATUS", "DETAIL"], rows: rows).render())
        if !pins.isEmpty {
            lines.append(
                "pins: "
                    + pins.map {
                        "\($0.module) \(ObjectID.short($0.old, none: "none")) → \(ObjectID.short($0.new, none: "none"))"
                    }
                    .joined(separator: ", "))
        }
        for push in pushes where !push.accepted {
            lines.append("push to \(push.repository) rejected: \(push.detail)")
        }
        lines += notes
        if let next { lines.append("next: \(next)") }
        return lines.joined(separator: "\n")
    }
}
