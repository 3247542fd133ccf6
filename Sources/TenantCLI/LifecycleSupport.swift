import ArgumentParser
import Foundation
import TenantKit

/// Shared steps of the repository-wide lifecycle commands: lock, fetch, plan, print, execute.
enum LifecycleRun {
    /// Takes the workspace lock, fetches the remotes, plans with `makePlan`, and executes the plan (or only prints it
    /// with `dryRun`). Prints the changes on stdout.
    static func run(
        context: CommandContext, dryRun: Bool, headline: String,
        makePlan: (Snapshot) throws -> LifecyclePlan
    ) throws -> ExitStatus {
        let workspace = try context.workspace()
        let lock = try WorkspaceLock(gitDirectory: workspace.gitDirectory)
        defer { lock.release() }
        let state = try context.snapshot(workspace)
        let plan = try makePlan(state)
        if dryRun {
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
