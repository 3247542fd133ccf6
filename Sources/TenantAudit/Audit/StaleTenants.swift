import Foundation

/// The gate `audit --check --max-behind-days N`: a tenant that has lacked a general commit for more than N days gets
/// the finding `stale-tenant`, with the roll that fixes it; being behind for less no longer fails the gate.
public enum StaleTenants {
    /// `report` with a `stale-tenant` finding on the superproject entry of every tenant whose oldest lacked general
    /// commit (``HistoryPoint/behindDays`` at the history's one point, now) is more than `maxDays` days old, and
    /// ``AuditReport/behindFailsGate`` off.
    public static func judged(_ report: AuditReport, history: AuditHistory, maxDays: Int) -> AuditReport {
        var result = report
        result.behindFailsGate = false
        var days: [String: Int] = [:]
        for tenant in history.tenants {
            if let last = tenant.points.last?.behindDays { days[tenant.id] = last }
        }
        for index in result.tenants.indices {
            let tenant = result.tenants[index]
            guard let lacked = days[tenant.id], lacked > maxDays else { continue }
            result.tenants[index].superproject.findings.append(
                AuditFinding(
                    .staleTenant,
                    "\(tenant.id) has lacked a general commit for \(lacked) days, more than \(maxDays): roll it with "
                        + "tenantctl roll --tenant \(ShellWord.quote(tenant.id))"))
        }
        return result
    }

    /// The history that says, for each tenant of `report`, how long it has lacked a general commit: one point, `now`.
    public static func run(for report: AuditReport, now: Date, jobs: Int) -> AuditHistoryRun {
        var run = AuditHistoryRun()
        run.tenants = report.tenants.map(\.id)
        run.since = .time(Int(now.timeIntervalSince1970))
        run.until = .time(Int(now.timeIntervalSince1970))
        run.jobs = jobs
        run.generatedAt = now
        return run
    }
}
