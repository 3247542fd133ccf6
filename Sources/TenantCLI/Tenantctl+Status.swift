import ArgumentParser
import TenantKit

extension Tenantctl {
    /// `tenantctl status`: which tenant the working copy is, and where every module stands.
    struct Status: LockingCommand {
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
                Read-only: nothing is fetched or changed (unless --fetch). Exit status 0.

                tenantctl's own pushes of the superproject (pin --push, roll, roll --undo, resolve --continue, \
                the tenant and module commands) record what they pushed, so the superproject line right after \
                them compares with what the remote now has; a module line does so too: pin --push and resolve \
                --continue push from the checkout, and roll and the tenant and module commands, which push \
                modules from tenantctl's own mirrors, then set origin/<branch> of each branch that landed in \
                every module checkout (roll --undo does not: the next switch, or --fetch, brings the checkout's \
                remote branches up to date). --fetch fetches \
                the superproject and every module checkout first, for the view of the remotes as they are now; \
                it fetches under the workspace lock, as audit and compose do, so it never fetches while roll or \
                switch works: it waits up to 2 minutes for another tenantctl run on this superproject (--wait: as \
                long as it takes). Without --fetch status takes no lock. --short (-s) prints, in the style of `git status -sb`, a line for the superproject \
                (## branch...upstream [ahead n, behind n]  tenant: t) and one line per module that is not clean, \
                not at its pin, not on the tenant's branch or has unpushed commits: two letters (HEAD against the \
                pin: space at pin, > ahead, < behind, X diverged, - not initialised, ? no pin; then M for changed \
                files), the module's path and what is off, in brackets.

                A review roll waiting for its reviews (roll --review) is shown after the modules: its counts (open, \
                waiting, landed, needing attention), each proposal still followed, and the way on (tenantctl roll \
                --land); --json has them as reviews.

                Examples:
                  tenantctl status
                  tenantctl status --short
                  tenantctl status --fetch
                  tenantctl status --json
                  tenantctl status --json | jq '.reviews'
                """)

        @Flag(name: .shortAndLong, help: "One line per module that needs attention, in the style of git status -sb.")
        var short = false

        @Flag(help: "Fetch the superproject and every module checkout first, then report.")
        var fetch = false

        @OptionGroup var lockOptions: LockOptions

        @OptionGroup(title: "Global Options") var global: GlobalOptions

        var pagesOutput: Bool { true }

        func run(context: CommandContext) throws -> ExitStatus {
            let workspace = try context.workspace()
            let status = try StatusRun.run(
                workspace: workspace, fetch: fetch, wait: lockOptions.wait, console: context.console)
            for warning in status.warnings { context.console.warn(warning) }
            var report = status.report
            // The review rolls that wait: a journal that cannot be read is already one of the warnings.
            if let waiting = try? ReviewRunCounts.waiting(gitDirectory: workspace.commonDirectory), !waiting.isEmpty {
                report.reviews = waiting
            }
            if context.options.json {
                context.console.data(try JSONOutput.encode(report))
                return .success
            }
            context.console.print(
                short ? report.renderShort(console: context.console) : report.renderTable(console: context.console))
            for run in report.reviews ?? [] {
                context.console.print(run.lines().map { TerminalText.escaped($0) }.joined(separator: "\n"))
            }
            return .success
        }
    }
}
