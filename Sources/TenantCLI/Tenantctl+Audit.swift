import ArgumentParser
import Foundation
import TenantKit

/// Output formats of `tenantctl audit`.
enum AuditFormat: String, ExpressibleByArgument, CaseIterable, Sendable {
    case table, json, markdown, html, csv
}

extension Tenantctl {
    /// `tenantctl audit`: what each tenant customised and how far behind it is.
    struct Audit: LockingCommand {
        static let configuration = CommandConfiguration(
            abstract: "Show what each tenant customised and how far behind general_dev it is.",
            discussion: """
                Reads fetched refs only, never a working tree: the tenant files and every tenant branch's pins \
                from origin/general_dev and origin/<tenant> of the superproject, and every module's branches from \
                tenantctl's private module mirrors. Works in a plain clone whose submodules were never \
                initialised (a CI job) and leaves initialised submodules alone.

                For every tenant and module it reports the pin, the branch the tenant tracks, whether the module \
                is customised (declared, and in fact: non-merge commits not on general_dev), how many commits of \
                general_dev the pin lacks, and findings: undeclared-customisation, missing-branch, \
                missing-commit, stale-pin, inactive-but-customised, not-pinned, moved-path (the branch has the \
                module at another path, found by its submodule name or URL), tenant-merged-back (general_dev \
                took a tenant's commits), invalid-tenant-file (that tenant is reported, the others audited), \
                unreachable-remote (that module's cells are ?, exit 1), orphan-branch (a module branch named \
                after a tenant that does not declare the module, or after a removed tenant), unnamed-submodule (the \
                branch pins a submodule modules.json does not name), branch-case-collision (branches of one remote \
                differing only in case, as T1 and t1: one file on macOS), and of review rolls (roll --review): \
                pending-review (open: tenantctl roll --land), stale-review (general_dev moved on, or closed without \
                landing: tenantctl roll --review), review-conflict (tenantctl resolve <t> --review), squashed-roll \
                (landed by squash or rebase; information). Per tenant it also compares the \
                superproject branch with general_dev. Annotated-tag pins are peeled.

                Changed files (what each customisation and each tenant branch changes against its merge base \
                with general_dev; nested submodules of a module count) are listed where the format shows them: \
                the table's matrix (up to 30 tenants, or with --matrix), Markdown and the HTML page. The JSON \
                has them only with --changed-files; without it every changedFiles is null (not computed: one \
                diff-tree per repository less). The compact table and --summary show none.

                With --check the gate also fails on every finding verify reports (.gitmodules drift), except \
                moved-path and squashed-roll, which only inform (roll moves the gitlink), and on a \
                pull request (HEAD is not the fetched general_dev) the checked-out modules.json and Tenants/ \
                are validated too.

                Table legend: · up to date, ✎n customised by n commits, ✎0 customised but no commit of its own \
                yet, ↓n behind general_dev by n, ! finding, (…) module not in the tenant's effective active set. \
                Without a UTF-8 locale (the first of LC_ALL, LC_CTYPE and LANG set: C, POSIX, or none) the \
                glyphs are ASCII, in the legend too: . up to date, +n customised, -n behind, x in "3 tenants x 4 \
                modules". \
                --summary prints the table and its summary line alone. On a terminal a report taller than the \
                window goes through the pager (see tenantctl --help; --no-pager prints it directly).

                --format html writes one self-contained page (no external resource: it works opened from a file \
                and as a CI artifact): a tenants × modules heatmap coloured by how far behind, with sticky \
                headers, a filter by tenant and module name, sorting by behind, customisations or findings, and \
                a detail panel per cell (pin, branch, ahead/behind, changed files, findings, and the commits \
                behind and customised, 10 per list; at most 400 commit ranges per page: cells with findings \
                first, then the ranges most cells share). Only the rows in view are drawn, so 10,000 tenants scroll like 10. The URL fragment keeps \
                the view, a link to a cell scrolls to it: audit.html#tenant=t2&sort=behind&cell=t2/Order.

                The proposals of the review runs still followed are listed under the matrix, one line per cell \
                (t2/Infrastructure: review open 3d — branch tenantctl/roll/t2 into t2, rolls in …), and in the \
                JSON as reviews (state, forge kind, proposal ref, the general commit it rolls in, what landed). \
                Where modules.json has a review object, a landing by squash or rebase is also found from what the \
                remotes show (the Rolled-by trailer, the proposal branch, and the forge's own review refs where a \
                forge kind is set), so a fresh clone without the run's journal shows squashed-roll too ("from": \
                "remotes" in the JSON).

                The JSON, Markdown and HTML reports name what they describe: the general branch's commit, the \
                remote (credentials redacted), the time (SOURCE_DATE_EPOCH when set) and the tenantctl version.

                --history shows the same cells at points in time: which tenants drift, since when, how fast. \
                Points from --since (a date, 2026-01-31, or a superproject revision; default twelve months before \
                --until) to --until (default now), one per --every (day, week, month, or N: every N-th \
                first-parent commit of general_dev), the last one at --until. At a point each branch is taken at \
                its last first-parent commit whose committer date is at or before it; a tenant is absent before \
                its first own commit. Per tenant and module: the pin, behind and ahead (audit's rules, against the \
                module's general branch then), the lines added and removed by the customisation (from the merge \
                base to the pin), and per tenant behindDays, the age of the oldest general commit it lacked. As \
                a table with trend lines (the tenants that drifted most first), csv (one row per point, tenant and \
                module), json, markdown, or html: the audit page with a "Drift over time" section (a chart per \
                tenant, no script). --tenant and --module (repeatable) narrow it.

                With --check --max-behind-days N, being behind fails the gate only where a tenant has lacked a \
                general commit for more than N days (finding stale-tenant, with the roll that fixes it).

                Exit status: 0 report printed; with --check, 2 when any tenant is behind (or, with \
                --max-behind-days, stale) or has a finding; 1 when the audit could not run or a module remote \
                could not be fetched.

                Examples:
                  tenantctl audit
                  tenantctl audit --tenant t2 --tenant t3
                  tenantctl audit --tenant t2 --module Order   # that cell's commits
                  tenantctl audit --matrix      # every cell, also for many tenants
                  tenantctl audit --summary     # the table alone
                  tenantctl audit --format markdown > audit.md
                  tenantctl audit --format html -o audit.html   # open it in a browser
                  tenantctl audit --json --no-fetch
                  tenantctl audit --json --changed-files   # with every cell's changed files
                  tenantctl audit --check        # CI gate
                  tenantctl audit --json | jq '.reviews[] | select(.state == "open")'
                  tenantctl audit --history --since 2013-01-01 --every week
                  tenantctl audit --history --since 2013-01-01 --format csv -o drift.csv
                  tenantctl audit --history --every 1 --tenant t3 --module Order --json
                  tenantctl audit --history --since 2013-01-01 --format html -o audit.html
                  tenantctl audit --check --max-behind-days 30   # no month-old lag
                """)

        @OptionGroup(title: "Global Options") var global: GlobalOptions

        /// The table and Markdown on a terminal are paged; a file, JSON and HTML never.
        var pagesOutput: Bool { output == nil && (format ?? .table) != .json && format != .html && format != .csv }

        @Option(
            name: .customLong("tenant"), help: ArgumentHelp("Audit only this tenant (repeatable).", valueName: "id"),
            completion: NameCompletion.tenants())
        var tenants: [String] = []

        @Option(
            name: .customLong("module"),
            help: ArgumentHelp(
                "With one --tenant: list that cell's commits (behind and customised: ids, authors, subjects). "
                    + "With --history: show only this module (repeatable).",
                valueName: "name"),
            completion: NameCompletion.modules)
        var modules: [String] = []

        /// The one cell's module (without `--history`).
        var module: String? { history ? nil : modules.first }

        @Option(help: "Output format: table, json, markdown, html, csv (--json is --format json; csv with --history).")
        var format: AuditFormat?

        @Flag(help: "Show the divergence over time: the cells at points from --since to --until.")
        var history = false

        @Option(
            help: ArgumentHelp(
                "With --history: the first point, a date (2026-01-31) or a superproject revision (default: "
                    + "twelve months before --until).", valueName: "date|rev"))
        var since: String?

        @Option(
            help: ArgumentHelp(
                "With --history: the last point, a date or a superproject revision (default: now).",
                valueName: "date|rev"))
        var until: String?

        @Option(
            help: ArgumentHelp(
                "With --history: a point every day, week, month (default), or N first-parent commits of "
                    + "general_dev.", valueName: "day|week|month|N"))
        var every: String?

        @Option(
            help: ArgumentHelp(
                "With --check: fail only where a tenant has lacked a general commit for more than this many days "
                    + "(finding stale-tenant), not for being behind at all.", valueName: "days"))
        var maxBehindDays: Int?

        @Option(
            name: .shortAndLong,
            help: ArgumentHelp(
                "Write the report to this file (replaced in one step) instead of standard output.",
                valueName: "file"))
        var output: String?

        @Flag(
            help: ArgumentHelp(
                "Show every cell in the table, also above \(AuditTableRenderer.compactAbove) tenants (where the "
                    + "table is compact: the tenants that need attention first, a line each)."))
        var matrix = false

        @Flag(help: "Print the table and its one-line summary alone (no legend, customisations or findings).")
        var summary = false

        @Flag(help: "Exit with status 2 when any tenant is behind or has a finding (a CI gate).")
        var check = false

        @Flag(
            help: ArgumentHelp(
                "List the files each customisation changes in the JSON too (without it every changedFiles is "
                    + "null: not computed). The table's matrix, Markdown and HTML always list them."))
        var changedFiles = false

        @OptionGroup var fetchOptions: FetchOptions

        @OptionGroup var jobsOptions: JobsOptions

        @OptionGroup var lockOptions: LockOptions

        func validate() throws {
            if global.json, let format, format != .json {
                throw ValidationError("--json conflicts with --format \(format.rawValue)")
            }
            try validateHistory()
            if modules.count > 1 && !history {
                throw ValidationError("--module is given more than once: repeat it with --history only")
            }
            if let module, tenants.count != 1 {
                throw ValidationError(
                    "--module \(module) lists one cell's commits: give exactly one --tenant too "
                        + "(tenantctl audit --tenant <id> --module \(module))")
            }
        }

        func run(context: CommandContext) throws -> ExitStatus {
            if history { return try runHistory(context: context) }
            let workspace = try context.workspace()
            let epoch = context.environment.variables["SOURCE_DATE_EPOCH"].flatMap { TimeInterval($0) }
            let chosen = format ?? (global.json ? .json : .table)
            var audit = AuditRun(
                tenants: tenants, module: module, check: check, jobs: jobsOptions.jobs,
                generatedAt: epoch.map { Date(timeIntervalSince1970: $0) } ?? Date(),
                validation: ValidationOptions(allowLocalRemotes: context.allowLocalRemotes), page: chosen == .html)
            audit.changedFiles = changedFilesNeeded(format: chosen)
            // The review rolls' proposals, from the run journal (each review's forge kind as the project says it).
            let gitDirectory = workspace.commonDirectory
            audit.reviews = { project in
                try RunJournal.observedReviews(gitDirectory: gitDirectory, manifest: project.manifest)
            }
            // The landings by squash or rebase the remotes show (nothing without review settings).
            let jobs = jobsOptions.jobs
            audit.remoteLandings = AuditRemoteLandings(
                fetch: { snapshot in try RemoteReviewLandings.fetch(snapshot: snapshot, jobs: jobs) },
                read: { snapshot, observation in
                    try RemoteReviewLandings.observed(snapshot: snapshot, observation: observation, jobs: jobs)
                })
            let audited = try audit.run(
                workspace: workspace, fetch: fetchOptions.fetch, wait: lockOptions.wait,
                console: context.console)
            var report = audited.report
            let page = audited.page
            if let maxBehindDays {
                report = try staleJudged(report, maxDays: maxBehindDays, workspace: workspace, now: audit.generatedAt)
            }
            let view: AuditTableView? = matrix ? .matrix : nil
            if let output {
                // A file is no terminal: nothing is wrapped or cut.
                var plain = context.console
                plain.color = false
                plain.width = TerminalWidth.unlimited
                // The report in parts, in order (the JSON tenants a part at a time: never whole in memory).
                let parts: (_ sink: ([UInt8]) -> Void) -> Void
                switch chosen {
                case .table, .csv:  // csv: with --history only (validate)
                    let text = AuditTableRenderer.render(report, console: plain, view: view, summary: summary)
                    parts = { $0(Array((text + "\n").utf8)) }
                case .json:
                    parts = { sink in
                        AuditJSONRenderer.render(report, to: sink)
                        sink(Array("\n".utf8))
                    }
                case .markdown:
                    let text = AuditMarkdownRenderer.render(report)
                    parts = { $0(Array((text + "\n").utf8)) }
                case .html:
                    let text = AuditHTMLRenderer.render(report, page: page ?? AuditPage())
                    parts = { $0(Array((text + "\n").utf8)) }
                }
                let path = try ReportFile.write(parts: parts, to: output, relativeTo: context.directory)
                context.console.print("wrote \(path)")
            } else {
                switch chosen {
                case .table, .csv:
                    context.console.print(
                        AuditTableRenderer.render(report, console: context.console, view: view, summary: summary))
                case .json: context.console.data(parts: { AuditJSONRenderer.render(report, to: $0) })
                case .markdown: context.console.print(AuditMarkdownRenderer.render(report))
                case .html: context.console.data(AuditHTMLRenderer.render(report, page: page ?? AuditPage()))
                }
            }
            if report.isPartial { return .failure }
            return check && report.needsAttention ? .findings : .success
        }

        /// The changed files are computed for the reports that show them: Markdown, HTML, the table's matrix (not
        /// its compact view, not `--summary`), the JSON with `--changed-files`.
        func changedFilesNeeded(format: AuditFormat) -> AuditRun.ChangedFiles {
            if changedFiles { return .computed }
            switch format {
            case .markdown, .html: return .computed
            case .json: return .notComputed
            case .table, .csv:
                if summary { return .notComputed }
                return matrix ? .computed : .upToTenants(AuditTableRenderer.compactAbove)
            }
        }

    }
}
