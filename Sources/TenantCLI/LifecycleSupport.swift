import ArgumentParser
import Foundation
import TenantKit

/// Shared steps of the repository-wide lifecycle commands: lock, fetch, plan, print, execute.
enum LifecycleRun {
    /// Takes the workspace lock (waiting for it with `--wait`), fetches the remotes, plans with `makePlan`, and
    /// executes the plan (or only prints it with `--dry-run`). Prints the changes on stdout.
    static func run(
        context: CommandContext, options: WriteOptions, headline: String,
        makePlan: (Snapshot) throws -> LifecyclePlan
    ) throws -> ExitStatus {
        let workspace = try context.workspace()
        let lock = try context.lock(workspace, wait: options.wait)
        defer { lock.release() }
        let state = try context.snapshot(workspace)
        let plan = try makePlan(state)
        if options.dryRun {
            context.console.print("\(headline) (dry run, nothing written):")
            for line in plan.lines { context.console.print("  " + line) }
            return .success
        }
        try LifecycleExecutor(state: state, git: context.git).execute(plan, console: context.console)
        context.console.print(headline + ":")
        for line in plan.lines { context.console.print("  " + line) }
        return .success
    }
}
