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
            let status = try StatusRun.run(workspace: workspace, git: context.git)
            for warning in status.warnings { context.console.warn(warning) }
            let report = status.report
            if context.options.json {
                context.console.data(try JSONOutput.encode(report))
            } else {
                context.console.print(report.renderTable(console: context.console))
            }
            return .success
        }
    }
}
