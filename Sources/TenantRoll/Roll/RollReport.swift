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
        /// `rolled`, `up-to-date`, `conflict`, `blocked`, `rejected` (with `--dry-run`: `would-roll` instead of
        /// `rolled`).
        public var status: String
        /// Superproject branch tip before.
        public var from: String?
        /// Superproject branch tip after (nil unless rolled / would roll).
        public var to: String?
        /// Pins that change.
        public var pins: [PinChange]
        /// Module merges of this tenant that land (for a conflicted tenant only the conflicting ones).
        public var merges: [Merge]
        /// Conflicts (repository and paths) when `status` is `conflict`.
        public var conflicts: [RollConflict]
        /// Why the push was refused when `status` is `rejected`.
        public var rejected: String?
        /// Why the tenant is blocked, each with the command that fixes it, when `status` is `blocked`.
        public var reasons: [BlockReason] = []
        /// The command that finishes a conflicted tenant (`tenantctl resolve <id>`), or proposes a tenant whose
        /// branches are protected (`tenantctl roll --review`).
        public var next: String?
        /// True when `status` is `rejected` because a branch of the tenant is protected (changes go through a
        /// review).
        public var protected: Bool?
        /// What must happen before ``next`` can run: a review roll's conflicting tenant is resolved once the general
        /// branch's re-pin it proposed landed (`once general_dev's re-pin landed (tenantctl roll --land)`).
        public var after: String?
    }

    /// The general branch re-pin.
    public struct General: Sendable, Equatable, Codable {
        /// Tip before.
        public var from: String
        /// New commit (nil when the pins were current).
        public var to: String?
        /// Pins that change.
        public var pins: [PinChange]
        /// `rolled`, `up-to-date`, `rejected`, `blocked`, `would-roll`; `proposed` when a review roll proposes the
        /// re-pin (it lands once the forge lands it).
        public var status: String
        /// Why the general branch is blocked (a pin its module's remote lacks), each with the command that fixes
        /// it, when `status` is `blocked`: none of its pins moved.
        public var reasons: [BlockReason] = []
    }

    /// Counts.
    public struct Totals: Sendable, Equatable, Codable {
        public var rolled = 0
        public var upToDate = 0
        public var conflicts = 0
        public var rejected = 0
        public var blocked = 0
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
    /// Modules whose remote could not be fetched → the fetch error. Their pins were kept on every branch and the
    /// tenants that customise them are blocked; the roll is not complete (exit 2) until they can be fetched.
    public var unreachable: [String: String] = [:]
    /// A review roll's proposals (`roll --review`, `roll --land`); nil for a plain roll.
    public var reviews: [RunJournal.Review]?
    /// True when a branch was refused as protected and modules.json has no `review` object naming the forge kind:
    /// the next steps name the kinds `--forge` takes. Nil otherwise.
    public var forgeKindUnnamed: Bool?

    /// True when every tenant rolled or was up to date and no push was rejected.
    public var isComplete: Bool {
        totals.conflicts == 0 && totals.rejected == 0 && totals.blocked == 0 && general.status != "rejected"
            && unreachable.isEmpty
    }

    /// Above this many tenants the table is compact unless every detail is asked for (`roll --details`).
    public static let compactAbove = 30

    /// A table a person reads at a glance, plus totals, fitted to `console.width` (details wrap); with colour,
    /// conflicts, blocked and rejected branches stand out. `compact` (default: above ``compactAbove`` tenants)
    /// lists the branches that need attention first and names the modules whose pins moved without their ids.
    public func renderTable(
        console: Console = Console(out: BufferOutputSink(), err: BufferOutputSink()), compact: Bool? = nil
    ) -> String {
        let compact = compact ?? (tenants.count > Self.compactAbove)
        var rows = [generalRow(console: console, compact: compact)]
        let attention: Set<String> = ["conflict", "blocked", "rejected"]
        let ordered =
            compact
            ? tenants.filter { attention.contains($0.status) } + tenants.filter { !attention.contains($0.status) }
            : tenants
        for tenant in ordered { rows.append(tenantRow(tenant, console: console, compact: compact)) }
        // The table fits itself (branches and ids are never cut); only the prose below it is wrapped.
        let table = console.table(
            TextTable(header: ["BRANCH", "STATUS", "COMMIT", "DETAILS"], rows: rows, text: [1, 3]))
        return table + "\n" + TextTable.fit(prose(compact: compact), width: console.width)
    }

    /// A commit id in the table: 7 characters, `-` for none.
    static func short(_ id: String?) -> String { ObjectID.short(id, none: "-") }

    /// The general branch's row: its status, its move and the pins that moved (or why it is blocked).
    func generalRow(console: Console, compact: Bool) -> [String] {
        let short = Self.short
        let generalDetail: String
        if !general.reasons.isEmpty {
            // Blocked: none of its pins moved; the reasons name commits and what a remote said.
            generalDetail = TerminalText.escaped(
                general.reasons.map { "\($0.module.map { $0 + ": " } ?? "")\($0.code.rawValue): \($0.message)" }
                    .joined(separator: "; "))
        } else if compact && !general.pins.isEmpty {
            generalDetail = "\(English.count(general.pins.count, "pin")) moved"
        } else {
            generalDetail = general.pins.map { "\($0.module) \(short($0.old?.hex)) → \(short($0.new.hex))" }
                .joined(separator: ", ")
        }
        return [
            generalBranch, Self.styled(general.status, console: console),
            general.to.map { short(general.from) + " → " + short($0) } ?? short(general.from), generalDetail,
        ]
    }

    /// One tenant's row: its status, its move and the details (merges, pins, conflicts, why it was refused).
    func tenantRow(_ tenant: TenantEntry, console: Console, compact: Bool) -> [String] {
        let short = Self.short
        let move = tenant.to.map { short(tenant.from) + " → " + short($0) } ?? short(tenant.from)
        // Paths, reasons and what a remote said come from repositories: control characters escaped.
        return [
            tenant.id,
            Self.styled(tenant.status, console: console) + (tenant.protected == true ? " (protected)" : ""), move,
            TerminalText.escaped(details(of: tenant, compact: compact).joined(separator: "; ")),
        ]
    }

    /// The details of a tenant's row, unescaped.
    func details(of tenant: TenantEntry, compact: Bool) -> [String] {
        let short = Self.short
        var detail: [String] = []
        // Conflicted merges are listed with their paths under the tenant's conflicts.
        let merged = tenant.merges.filter { $0.status != "conflict" }
        if compact, !merged.isEmpty {
            detail.append("merged " + merged.map(\.module).joined(separator: ", "))
        } else {
            for merge in merged { detail.append("\(merge.module): merged \(short(merge.to))") }
        }
        if compact, !tenant.pins.isEmpty {
            detail.append("\(English.count(tenant.pins.count, "pin")) moved")
        } else if !tenant.pins.isEmpty {
            detail.append(
                tenant.pins.map { "\($0.module) \(short($0.old?.hex)) → \(short($0.new.hex))" }.joined(separator: ", "))
        }
        for conflict in tenant.conflicts {
            let paths = conflict.paths.isEmpty ? "" : ": " + conflict.paths.joined(separator: ", ")
            detail.append("\(conflict.repository) — \(conflict.reason)\(paths)")
        }
        if let rejected = tenant.rejected { detail.append("rejected: \(rejected)") }
        for reason in tenant.reasons {
            detail.append("\(reason.module.map { $0 + ": " } ?? "")\(reason.code.rawValue): \(reason.message)")
        }
        if (tenant.status == "rolled" || tenant.status == "would-roll") && tenant.pins.isEmpty
            && tenant.merges.isEmpty
        {
            detail.append("files only: \(generalBranch)'s file changes merged, no pin moved")
        }
        return detail
    }

    /// The prose under the table: the next steps, the totals, the journal (or the proposals), and what a compact
    /// view leaves out.
    func prose(compact: Bool) -> String {
        var text = ""
        let next = nextSteps()
        if !next.isEmpty { text += "next steps:\n" + next.map { "  " + $0 }.joined(separator: "\n") + "\n" }
        text +=
            "\(totals.rolled) \(dryRun ? "would roll" : "rolled"), \(totals.upToDate) up to date, \(totals.conflicts) with conflicts, "
        text += "\(totals.blocked) blocked, \(totals.rejected) rejected; "
        text += "\(English.count(totals.moduleMerges, "module merge")); "
        text += String(format: "%.1f s", elapsedSeconds)
        if dryRun { text += " (dry run: nothing was written)" }
        if let reviews {
            text += ReviewReport.proposalLines(reviews, runId: runId)
        } else if let runId {
            text += "\njournal: \(runId) (undo with `tenantctl roll --undo \(runId)`)"
        }
        if compact {
            text +=
                "\nA compact view of \(English.count(tenants.count, "tenant")), those that need attention first: "
                + "--details lists every merge and pin with its commit ids (--json has them too)."
        }
        return text
    }

    /// Each command that goes on from this roll, by branch, and each module that could not be fetched.
    func nextSteps() -> [String] {
        var next: [String] = []
        for fix in Array(Set(general.reasons.map(\.fix))).sorted() { next.append("\(generalBranch): \(fix)") }
        if forgeKindUnnamed == true {
            next.append(
                "modules.json names no forge kind (no `review` object), so name yours: tenantctl roll --review --forge "
                    + "gitlab (GitLab), --forge agit (Gitea, Forgejo), --forge gerrit, or --forge branch (GitHub, "
                    + "Bitbucket, any host: proposal branches; `create` in a `review` object opens their pull requests)"
            )
        }
        for tenant in tenants {
            if let command = tenant.next {
                next.append("\(tenant.id): \(tenant.after.map { $0 + ": " } ?? "")\(command)")
            }
            for fix in Array(Set(tenant.reasons.map(\.fix))).sorted() { next.append("\(tenant.id): \(fix)") }
        }
        for (module, error) in unreachable.sorted(by: { $0.key < $1.key }) {
            next.append(
                "\(module) could not be fetched, so its pins were kept everywhere; roll again once its remote answers ("
                    + TerminalText.escaped(error.split(separator: "\n").joined(separator: " ")) + ")")
        }
        return next
    }

    /// A branch's status, coloured when it needs attention (conflict, blocked, rejected) or rolled.
    static func styled(_ status: String, console: Console) -> String {
        switch status {
        case "conflict", "would-conflict", "rejected": return console.styled(status, .red)
        case "blocked": return console.styled(status, .yellow)
        case "rolled", "would-roll": return console.styled(status, .green)
        default: return status
        }
    }
}

extension RollReport {
    /// The report of a run: what was planned, executed and published.
    static func make(
        plan: RollPlan, execution: RollExecution, publication: RollPublication, runId: String?, dryRun: Bool,
        start: Date
    ) -> RollReport {
        let rolledWord = dryRun ? "would-roll" : "rolled"
        var totals = RollReport.Totals()
        var general = RollReport.General(
            from: plan.generalTip.hex, to: execution.generalCommit, pins: plan.repin?.changes ?? [],
            status: publication.generalRejected
                ? "rejected" : (execution.generalCommit == nil ? "up-to-date" : rolledWord))
        if !plan.generalBlocked.isEmpty {
            general.status = "blocked"
            general.reasons = plan.generalBlocked
            totals.blocked += 1
        }
        var tenants: [RollReport.TenantEntry] = []
        for tenant in plan.tenants {
            let merges = execution.moduleMerges.filter { $0.merge.tenant == tenant.tenant.id }.map {
                RollReport.Merge(
                    module: $0.merge.module, branch: $0.merge.branch, from: $0.merge.ours.hex, to: $0.commit,
                    status: $0.commit == nil ? "conflict" : "merged", conflicts: $0.conflicts)
            }
            var entry = RollReport.TenantEntry(
                id: tenant.tenant.id, branch: tenant.tenant.branch, status: "up-to-date", from: tenant.tip?.hex,
                to: nil,
                pins: [], merges: merges, conflicts: [], rejected: nil)
            switch execution.tenants[tenant.tenant.id] ?? .upToDate {
            case .upToDate:
                totals.upToDate += 1
            case .rolled(let commit, let pins):
                entry.to = commit
                entry.pins = pins
                if let reason = publication.rejected[tenant.tenant.id] {
                    entry.status = "rejected"
                    entry.rejected = reason
                    if publication.protectedTenants[tenant.tenant.id] != nil {
                        entry.protected = true
                        entry.next = ReviewProtectedBranches.nextStep
                    }
                    totals.rejected += 1
                } else {
                    entry.status = rolledWord
                    totals.rolled += 1
                    totals.moduleMerges += merges.count
                }
            case .conflict(let conflicts):
                entry.status = "conflict"
                entry.conflicts = conflicts
                // Nothing of the tenant changes: only the merges that conflicted are listed.
                entry.merges = merges.filter { $0.status == "conflict" }
                // Planned as this roll was: with the merge-backs it accepted.
                entry.next =
                    "tenantctl resolve \(tenant.tenant.id)"
                    + plan.acceptedMergedBack.map { " --accept-merged-back \($0)" }.joined()
                totals.conflicts += 1
            case .blocked(let reasons):
                entry.status = "blocked"
                entry.reasons = reasons
                entry.merges = []
                totals.blocked += 1
            }
            tenants.append(entry)
        }
        var report = RollReport(
            runId: runId, dryRun: dryRun, generalBranch: plan.generalBranch, general: general, tenants: tenants,
            pushes: publication.pushes, totals: totals, elapsedSeconds: Date().timeIntervalSince(start))
        report.unreachable = plan.unreachable
        return report
    }
}
