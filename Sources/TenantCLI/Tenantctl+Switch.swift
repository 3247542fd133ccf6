import ArgumentParser
import TenantKit

extension Tenantctl {
    /// `tenantctl switch <tenant>`: the working copy becomes a tenant.
    struct Switch: LockingCommand {
        static let configuration = CommandConfiguration(
            commandName: "switch",
            abstract: "Make the working copy a tenant: superproject and every module on its branch at the pin.",
            discussion: """
                Checks out the tenant's superproject branch (created tracking origin, or fast-forwarded when \
                only behind), initialises missing modules, syncs their URLs, and puts every module on a named \
                branch: the tenant's branch where the tenant customised the module, else general_dev. That \
                branch's tip is the pinned commit: it is created at the pin with its upstream set, or \
                fast-forwarded to it. A local branch ahead of the pin is kept and reported, never reset. Only \
                repositories whose state differs are touched.

                Before changing anything, every repository is checked: no modified, staged or conflicted files, \
                no merge/rebase/cherry-pick/revert/bisect in progress, no stale lock file, no detached HEAD \
                holding commits no branch or remote contains, no local branch that has diverged from its target. \
                On any finding every problem is listed, nothing is changed, and the exit status is 1. \
                Untracked files are preserved.

                Examples:
                  tenantctl switch t2
                  tenantctl switch general_dev --no-fetch
                  tenantctl switch t3 --json
                """)

        @OptionGroup var global: GlobalOptions

        @Argument(help: "The tenant (id or branch), or general_dev for the development view.")
        var tenant: String

        @OptionGroup var fetchOptions: FetchOptions

        @OptionGroup var lockOptions: LockOptions

        func run(context: CommandContext) throws -> ExitStatus {
            try context.runOnWorkingCopy(wait: lockOptions.wait) { workspace in
                try WorkingCopySwitch(
                    workspace: workspace, git: context.git, fetch: fetchOptions.fetch, console: context.console
                ).run(target: tenant)
            } text: { report in
                context.console.print("switched to \(report.tenant) (superproject branch \(report.branch))")
                let rows = report.repositories.map { entry -> [String] in
                    var change = entry.change
                    if entry.aheadOfTarget > 0 {
                        change += " (kept: \(entry.aheadOfTarget) ahead of \(entry.target.prefix(12)))"
                    }
                    return [entry.repository, entry.branch, String(entry.commit.prefix(12)), change]
                }
                context.console.print(
                    TextTable(header: ["REPOSITORY", "BRANCH", "COMMIT", "CHANGE"], rows: rows).render())
                for module in report.unpinned {
                    context.console.print("\(module): not pinned on \(report.branch), left alone")
                }
            }
        }
    }
}
