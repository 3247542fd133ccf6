import ArgumentParser
import Foundation
import TenantKit

extension Tenantctl {
    /// `tenantctl diff <tenant> [module]`: the tenant's customisation against the general branch.
    struct Diff: TenantctlCommand {
        static let configuration = CommandConfiguration(
            abstract: "Show what a tenant customised since it forked off general_dev, as git diff general_dev...t2.",
            discussion: """
                A tenant's customisation is what it changed since its merge base with general_dev, as `git diff \
                general_dev...<tenant>` and audit's ✎ count see it: general_dev's newer work is never shown \
                (reversed) as the tenant's. First the superproject's own files the tenant branch changed (not \
                its gitlinks: the files audit lists), after a `Superproject <from>...<to>:` line; then every \
                module whose pin on the tenant's branch has commits general_dev's pin lacks, as `git diff \
                <general_dev's pin>...<tenant's pin>` prints it, the paths named from the superproject \
                (a/Modules/Order/…), after a `Submodule <path> <from>...<to>:` line. --stat prints git's --stat \
                instead. A tenant that changed nothing (pins where general_dev does, or only behind it) prints \
                one line saying it customised nothing. A module named on the command line shows that module \
                only. At a terminal the output goes through the pager, as git diff's does (--no-pager: not).

                Reads the superproject's branches as tenantctl last fetched them (audit, roll, switch and verify \
                fetch) and the modules' commits from their checkouts or tenantctl's mirrors: diff fetches and \
                changes nothing. The patch is coloured on a terminal (--color).

                Examples:
                  tenantctl diff t2
                  tenantctl diff t2 Customer --stat
                  tenantctl diff t3 --json | jq -r '.modules[].module'
                """)

        @Argument(
            help: ArgumentHelp("The tenant (id or branch).", valueName: "tenant"),
            completion: NameCompletion.tenants())
        var tenant: String

        @Argument(
            help: ArgumentHelp("Only this module.", valueName: "module"),
            completion: NameCompletion.modules)
        var module: String?

        @Flag(help: "Print git's --stat per module instead of the patch.")
        var stat = false

        @OptionGroup(title: "Global Options") var global: GlobalOptions

        var pagesOutput: Bool { true }

        func run(context: CommandContext) throws -> ExitStatus {
            let workspace = try context.workspace()
            let report = try TenantDiff(
                tenant: tenant, module: module, format: stat ? .stat : .patch,
                color: context.console.color && !global.json
            ).run(
                workspace: workspace, validation: ValidationOptions(allowLocalRemotes: context.allowLocalRemotes))
            if global.json {
                context.console.data(try JSONOutput.encode(report))
                return .success
            }
            guard !report.modules.isEmpty || report.superproject != nil else {
                let what = module.map { "in \($0)" } ?? "(its superproject files and every module)"
                context.console.print(
                    "\(report.tenant) customised nothing \(what) since it forked off \(report.generalBranch): "
                        + "its pins are \(report.generalBranch)'s or behind them")
                return .success
            }
            if let superproject = report.superproject {
                context.console.print(
                    "Superproject \(ObjectID.short(superproject.from))...\(ObjectID.short(superproject.to)):")
                context.console.print(
                    String(superproject.diff.dropLast(superproject.diff.hasSuffix("\n") ? 1 : 0)))
            }
            for entry in report.modules {
                let dots = entry.from != nil && entry.to != nil ? "..." : ".."
                let range =
                    "\(ObjectID.short(entry.from, none: "(none)"))\(dots)\(ObjectID.short(entry.to, none: "(none)"))"
                var header = "Submodule \(entry.path) \(range):"
                if entry.from == nil { header += " not pinned on \(report.generalBranch)" }
                if entry.to == nil { header += " not pinned on \(report.branch)" }
                context.console.print(header)
                if !entry.diff.isEmpty {
                    context.console.print(String(entry.diff.dropLast(entry.diff.hasSuffix("\n") ? 1 : 0)))
                }
            }
            return .success
        }
    }
}
