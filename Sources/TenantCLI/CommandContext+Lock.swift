import ArgumentParser
import TenantKit

extension CommandContext {
    /// Runs a working-copy command (`switch`, `pin`) under the workspace lock: a refusal (nothing changed) is
    /// printed and exits 1; the report is printed as JSON with `--json`, else with `text`.
    /// With `journal` (the command's words; nil for a dry run) the run is journalled (``journalled(_:command:arguments:aborting:unfinished:_:)``)
    /// and `run` gets its transaction; with `aborting`, the stopped runs of the same command it went on from end
    /// aborted (a switch puts back what a stopped switch moved), not finished.
    func runOnWorkingCopy<Report: Encodable>(
        wait: Bool, journal command: String? = nil, aborting: Bool = false,
        unfinished: (any Error) -> Bool = { _ in false }, _ run: (Workspace, Transaction?) throws -> Report,
        text: (Report) -> Void
    ) throws -> ExitStatus {
        let workspace = try workspace()
        let lock = try lock(workspace, wait: wait)
        defer { lock.release() }
        let report: Report
        do {
            if let command {
                report = try journalled(workspace, command: command, aborting: aborting, unfinished: unfinished) {
                    try run(workspace, $0)
                }
            } else {
                report = try run(workspace, nil)
            }
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

extension CommandContext {
    /// Takes the workspace lock of `workspace`: fails fast naming the holder, or waits for it with `wait`.
    /// Every command that changes refs, mirrors or files of a superproject takes it through here, except compose,
    /// which takes it around its fetch only, in `ComposeRun`.
    func lock(_ workspace: Workspace, wait: Bool) throws -> WorkspaceLock {
        try WorkspaceLock(gitDirectory: workspace.commonDirectory, wait: wait)
    }
}
