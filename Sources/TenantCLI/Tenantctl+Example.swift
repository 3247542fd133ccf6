import ArgumentParser
import Foundation
import TenantKit

extension Tenantctl {
    /// `tenantctl example <dir>`: the thesis' ERP example as real repositories.
    struct Example: TenantctlCommand {
        static let configuration = CommandConfiguration(
            abstract: "Create the thesis' ERP example: four module repositories, three tenants, a workspace.",
            discussion: """
                Creates, in a new or empty directory:
                  remotes/<Module>.git      bare repositories of Infrastructure, Article, Customer and Order \
                (general_dev; t2 in Infrastructure and Customer, t3 in Order)
                  remotes/Superproject.git  the bare superproject: general_dev, t1, t2, t3, each pinning its modules
                  workspace/                a clone on general_dev, submodules checked out on general_dev

                T1 uses every module unchanged; T2 uses only Infrastructure and Customer, with German strings; \
                T3 receives orders as JSON and keeps an order date in a reserve field. With --stage after-updates \
                the general changes of Infrastructure, Article and Order (AF.5, AF.6) are on the module remotes \
                but not yet pinned: the starting point of a roll. Commit ids are the same on every run.

                Local file remotes are allowed for the directories this command creates.

                Example:
                  tenantctl example /tmp/erp --stage after-updates
                  cd /tmp/erp/workspace && tenantctl audit
                """)

        @OptionGroup var global: GlobalOptions

        @Argument(help: ArgumentHelp("A new or empty directory to create the example in.", valueName: "dir"))
        var directory: String

        @Option(help: "before-updates (tenants customised) or after-updates (AF.5/AF.6 pushed, not yet rolled).")
        var stage: ExampleStage = .beforeUpdates

        func run(context: CommandContext) throws -> ExitStatus {
            let target = URL(
                fileURLWithPath: directory, relativeTo: URL(fileURLWithPath: context.directory, isDirectory: true)
            ).standardizedFileURL.path
            context.console.progress("Creating the ERP example in \(target) (stage \(stage.rawValue))…")
            let result: ExampleResult
            do {
                result = try ExampleBuilder(git: context.git).build(in: target, stage: stage)
            } catch let error as ExampleError {
                context.console.error(error.description)
                return .failure
            }
            if global.json {
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
                context.console.print(String(decoding: try encoder.encode(result), as: UTF8.self))
                return .success
            }
            if global.quiet { return .success }
            context.console.print("Created the ERP example (stage \(result.stage.rawValue)):")
            context.console.print("  remotes    \(result.remotes)")
            context.console.print("  workspace  \(result.workspace)  (general_dev, modules on general_dev)")
            context.console.print("")
            let names = [ExampleBuilder.superprojectName] + ExampleScenario.modules.map(\.name)
            let width = names.map(\.count).max() ?? 0
            for name in names {
                let branches = (result.branches[name] ?? [:]).sorted { Self.order($0.key) < Self.order($1.key) }
                let text = branches.map { "\($0.key) \($0.value.prefix(7))" }.joined(separator: "  ")
                context.console.print("  " + name.padding(toLength: width, withPad: " ", startingAt: 0) + "  " + text)
            }
            context.console.print("")
            context.console.print("Next: cd \(result.workspace) && tenantctl switch t2")
            return .success
        }

        /// `general_dev` first, then tenant branches by name.
        static func order(_ branch: String) -> String {
            branch == ExampleScenario.generalBranch ? "" : branch
        }
    }
}

extension ExampleStage: ExpressibleByArgument {}
