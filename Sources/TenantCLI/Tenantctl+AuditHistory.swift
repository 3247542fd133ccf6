import ArgumentParser
import Foundation
import TenantKit

extension Tenantctl.Audit {
    /// The options that belong to `--history`, and those that do not go with it.
    func validateHistory() throws {
        if !history {
            for (given, name) in [(since != nil, "--since"), (until != nil, "--until"), (every != nil, "--every")]
            where given {
                throw ValidationError("\(name) goes with --history: tenantctl audit --history \(name) …")
            }
            if format == .csv {
                throw ValidationError("--format csv goes with --history: tenantctl audit --history --format csv")
            }
            if maxBehindDays != nil && !check {
                throw ValidationError(
                    "--max-behind-days is a gate: tenantctl audit --check --max-behind-days \(maxBehindDays ?? 0)")
            }
            return
        }
        for (given, name) in [
            (check, "--check"), (matrix, "--matrix"), (summary, "--summary"), (changedFiles, "--changed-files"),
            (maxBehindDays != nil, "--max-behind-days"),
        ] where given {
            throw ValidationError("\(name) does not go with --history")
        }
        if let every, HistoryStep(argument: every) == nil {
            throw ValidationError("--every takes day, week, month or a positive number of commits, not '\(every)'")
        }
        if let maxBehindDays, maxBehindDays < 0 {
            throw ValidationError("--max-behind-days takes a number of days, 0 or more")
        }
    }

    /// `audit --history`: the history read and rendered.
    func runHistory(context: CommandContext) throws -> ExitStatus {
        let workspace = try context.workspace()
        let environment = context.environment.variables
        let epoch = environment["SOURCE_DATE_EPOCH"].flatMap { TimeInterval($0) }
        let now = epoch.map { Date(timeIntervalSince1970: $0) } ?? Date()
        var run = AuditHistoryRun()
        run.tenants = tenants
        run.modules = modules
        run.since = since.map(HistoryBound.init(argument:))
        run.until = until.map(HistoryBound.init(argument:))
        run.every = every.flatMap(HistoryStep.init(argument:)) ?? .month
        run.jobs = jobsOptions.jobs
        run.generatedAt = now
        let chosen = format ?? (global.json ? .json : .table)
        // The report in parts (the JSON and the CSV a tenant at a time: never whole in memory).
        let parts: (_ sink: ([UInt8]) -> Void) throws -> Void
        if chosen == .html {
            let page = try historyPage(run, workspace: workspace, context: context, now: now)
            parts = { $0(Array(page.utf8)) }
        } else {
            let result = try run.run(
                workspace: workspace, fetch: fetchOptions.fetch, wait: lockOptions.wait, console: context.console)
            switch chosen {
            case .json: parts = { try HistoryJSONRenderer.render(result, to: $0) }
            case .csv: parts = { HistoryCSVRenderer.render(result, to: $0) }
            case .markdown: parts = { $0(Array(HistoryTableRenderer.markdown(result).utf8)) }
            case .table, .html:
                // A file is no terminal: it keeps the block characters only where the locale is UTF-8.
                let unicode = HistoryTableRenderer.unicode(environment: environment)
                parts = { $0(Array(HistoryTableRenderer.render(result, unicode: unicode).utf8)) }
            }
        }
        if let output {
            var failure: (any Error)?
            let path = try ReportFile.write(
                parts: { sink in
                    do { try parts(sink) } catch { failure = error }
                    sink(Array("\n".utf8))
                }, to: output, relativeTo: context.directory)
            if let failure { throw failure }
            context.console.print("wrote \(path)")
        } else {
            var failure: (any Error)?
            context.console.data(parts: { sink in
                do { try parts(sink) } catch { failure = error }
            })
            if let failure { throw failure }
        }
        return .success
    }

    /// The audit page with its "Drift over time" section: the audit as `--format html` makes it (fetching unless
    /// `--no-fetch`), then the history from what it fetched.
    func historyPage(_ run: AuditHistoryRun, workspace: Workspace, context: CommandContext, now: Date) throws
        -> String
    {
        let audit = AuditRun(
            tenants: tenants, jobs: jobsOptions.jobs, generatedAt: now,
            validation: ValidationOptions(allowLocalRemotes: context.allowLocalRemotes), page: true)
        let audited = try audit.run(
            workspace: workspace, fetch: fetchOptions.fetch, wait: lockOptions.wait, console: context.console)
        var page = audited.page ?? AuditPage()
        page.drift = try run.run(workspace: workspace, fetch: false, wait: lockOptions.wait, console: nil)
        return AuditHTMLRenderer.render(audited.report, page: page)
    }

    /// The report judged by `--max-behind-days`: how long each tenant has lacked a general commit, read from the
    /// repositories as the audit left them (no second fetch).
    func staleJudged(_ report: AuditReport, maxDays: Int, workspace: Workspace, now: Date) throws -> AuditReport {
        let history = try StaleTenants.run(for: report, now: now, jobs: jobsOptions.jobs)
            .run(workspace: workspace, fetch: false, wait: lockOptions.wait, console: nil)
        return StaleTenants.judged(report, history: history, maxDays: maxDays)
    }
}
