import ArgumentParser
import TenantKit

extension CommandContext {
    /// Runs a working-copy command (`switch`, `pin`: its TenantKit entry takes the lock and journals the run): a
    /// refusal (nothing changed) is printed and exits 1; the report is printed as JSON with `--json`, else with `text`.
    func runOnWorkingCopy<Report: Encodable>(
        _ run: (Workspace) throws -> Report, text: (Report) -> Void
    ) throws -> ExitStatus {
        let workspace = try workspace()
        let report: Report
        do {
            report = try run(workspace)
        } catch let refusal as WorkingCopyRefusal {
            console.error(refusal.description)
            return .failure
        }
        if options.json {
            console.data(try JSONOutput.encode(report))
        } else {
            text(report)
        }
        return .success
    }
}
