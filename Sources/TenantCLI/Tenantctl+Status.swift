import ArgumentParser
import TenantKit

extension Tenantctl {
    /// `tenantctl status`: which tenant the working copy is, and where every module stands.
    struct Status: TenantctlCommand {
        static let configuration = CommandConfiguration(
            commandName: "status",
            abstract:
                "Show the current tenant and, per module, branch, HEAD versus pin, dirty files and unpushed commits.",
            discussion: """
                The tenant is the one whose superproject branch is checked out (general_dev is the development \
                view). Per module: the branch (and the one expected for this tenant), HEAD, the commit the \
                superproject's HEAD pins, the relation (at pin / ahead n / behind n / diverged / detached), \
                whether tracked files are changed, how many commits no remote branch contains, and the \
                branch against its remote branch as last fetched (REMOTE: up to date, ahead n, behind n, \
                diverged +a/-b, gone). The superproject line shows its branch against the remote branch that \
                switch and roll last fetched (tenantctl's own refs, not a stale origin/<branch>), or gone. \
                Read-only: nothing is fetched or changed. Exit status 0.

                Examples:
                  tenantctl status
                  tenantctl status --json
                """)

        @OptionGroup(title: "Global Options") var global: GlobalOptions

        func run(context: CommandContext) throws -> ExitStatus {
            let workspace = try context.workspace()
            var report = try StatusReport.inspect(workspace: workspace, git: context.git)
            report.resolution = try ResolutionStatus.inspect(workspace: workspace, git: context.git)
            // A run stopped half-way blocks the other writing commands: say so, with the ways out.
            let unfinished: [RunJournal]
            do {
                unfinished = try RunJournal.unfinished(gitDirectory: workspace.commonDirectory)
            } catch {
                // status reads and changes nothing: it reports the journal it cannot read and goes on.
                context.console.warn(String(describing: error))
                unfinished = []
            }
            for run in unfinished {
                let ways = run.waysOut(currentWorktree: workspace.root)
                context.console.warn(
                    "tenantctl \(run.commandName) run \(run.runId) is unfinished; finish it: \(ways[0])"
                        + (ways.count > 1 ? ", or take it back: \(ways[1])" : ""))
            }
            if context.options.json {
                context.console.data(try JSONOutput.encode(report))
            } else {
                context.console.print(report.renderTable(console: context.console))
            }
            return .success
        }
    }
}
