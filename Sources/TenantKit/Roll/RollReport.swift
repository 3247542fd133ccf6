import Foundation

/// The report of a roll (`--json` prints it; schema in docs/roll.md).
public struct RollReport: Sendable, Equatable, Codable {
    /// One module merge of a tenant.
    public struct Merge: Sendable, Equatable, Codable {
        /// Module name.
        public var module: String
        /// Module branch.
        public var branch: String
        /// Tenant branch tip before.
        public var from: String
        /// Merge commit (nil when conflicted).
        public var to: String?
        /// `merged`, `conflict`.
        public var status: String
        /// Conflicting paths.
        public var conflicts: [String]
    }

    /// One tenant.
    public struct TenantEntry: Sendable, Equatable, Codable {
        /// Tenant id.
        public var id: String
        /// Superproject branch.
        public var branch: String
        /// `rolled`, `up-to-date`, `conflict`, `rejected` (with `--dry-run`: `would-roll` instead of `rolled`).
        public var status: String
        /// Superproject branch tip before.
        public var from: String?
        /// Superproject branch tip after (nil unless rolled / would roll).
        public var to: String?
        /// Pins that change.
        public var pins: [PinChange]
        /// Module merges of this tenant.
        public var merges: [Merge]
        /// Conflicts (repository and paths) when `status` is `conflict`.
        public var conflicts: [RollConflict]
        /// Why the push was refused when `status` is `rejected`.
        public var rejected: String?
    }

    /// The general branch re-pin.
    public struct General: Sendable, Equatable, Codable {
        /// Tip before.
        public var from: String
        /// New commit (nil when the pins were current).
        public var to: String?
        /// Pins that change.
        public var pins: [PinChange]
        /// `rolled`, `up-to-date`, `rejected`, `would-roll`.
        public var status: String
    }

    /// Counts.
    public struct Totals: Sendable, Equatable, Codable {
        public var rolled = 0
        public var upToDate = 0
        public var conflicts = 0
        public var rejected = 0
        public var moduleMerges = 0
    }

    /// Format version of this JSON.
    public var schemaVersion = 1
    /// The run id (journal name; nil for a dry run or when nothing changed).
    public var runId: String?
    /// True for `--dry-run`.
    public var dryRun: Bool
    /// `general_dev`.
    public var generalBranch: String
    /// The superproject general branch.
    public var general: General
    /// Every selected tenant, by id.
    public var tenants: [TenantEntry]
    /// Every push made.
    public var pushes: [PushOutcome]
    /// Counts.
    public var totals: Totals
    /// Wall-clock seconds.
    public var elapsedSeconds: Double

    /// True when every tenant rolled or was up to date and no push was rejected.
    public var isComplete: Bool { totals.conflicts == 0 && totals.rejected == 0 && general.status != "rejected" }

    /// A table a person reads at a glance, plus totals.
    public func renderTable() -> String {
        var rows: [[String]] = []
        let short: (String?) -> String = { $0.map { String($0.prefix(7)) } ?? "-" }
        rows.append([
            generalBranch, general.status,
            general.to.map { short(general.from) + " → " + short($0) } ?? short(general.from),
            general.pins.map { "\($0.module) \(short($0.old)) → \(short($0.new))" }.joined(separator: ", "),
        ])
        for tenant in tenants {
            var detail: [String] = []
            // Conflicted merges are listed with their paths under the tenant's conflicts.
            for merge in tenant.merges where merge.status != "conflict" {
                detail.append("\(merge.module): merged \(short(merge.to))")
            }
            if !tenant.pins.isEmpty {
                detail.append(
                    tenant.pins.map { "\($0.module) \(short($0.old)) → \(short($0.new))" }.joined(separator: ", "))
            }
            for conflict in tenant.conflicts {
                let paths = conflict.paths.isEmpty ? "" : ": " + conflict.paths.joined(separator: ", ")
                detail.append("\(conflict.repository) — \(conflict.reason)\(paths)")
            }
            if let rejected = tenant.rejected { detail.append("rejected: \(rejected)") }
            let move = tenant.to.map { short(tenant.from) + " → " + short($0) } ?? short(tenant.from)
            rows.append([tenant.id, tenant.status, move, detail.joined(separator: "; ")])
        }
        var text = TextTable(header: ["branch", "status", "commit", "details"], rows: rows).render()
        text +=
            "\n\(totals.rolled) \(dryRun ? "would roll" : "rolled"), \(totals.upToDate) up to date, \(totals.conflicts) with conflicts, "
        text += "\(totals.rejected) rejected; \(totals.moduleMerges) module merge(s); "
        text += String(format: "%.1f s", elapsedSeconds)
        if dryRun { text += " (dry run: nothing was written)" }
        if let runId { text += "\njournal: \(runId) (undo with `tenantctl roll --undo \(runId)`)" }
        return text
    }
}
