import ArgumentParser
import Foundation
import TenantKit

extension Tenantctl {
    /// `tenantctl diff <tenant> [module]`: the tenant's customisation against the general branch.
    struct Diff: TenantctlCommand {
        static let configuration = CommandConfiguration(
            abstract: "Show what a tenant customised: per module, the diff between general_dev's pin and the tenant's.",
            discussion: """
                For every module whose pin on the tenant's superproject branch differs from general_dev's, \
                prints `git diff <general_dev's pin> <tenant's pin>` as git prints it, the paths named from the \
                superproject (a/Modules/Order/…), after a `Submodule <path> <from>..<to>:` line as `git diff \
                --submodule=diff` writes it. --stat prints git's --stat instead. A tenant that pins every module \
                where general_dev does prints nothing more than a line saying so.

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
            guard !report.modules.isEmpty else {
                let what = module ?? "every module"
                context.console.print(
                    "\(report.tenant) pins \(what) where \(report.generalBranch) does: nothing customised")
                return .success
            }
            for entry in report.modules {
                let range = "\(ObjectID.short(entry.from, none: "(none)"))..\(ObjectID.short(entry.to, none: "(none)"))"
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
