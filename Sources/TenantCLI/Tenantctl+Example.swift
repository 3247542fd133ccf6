import ArgumentParser
import Foundation
import TenantExample
import TenantKit

extension Tenantctl {
    /// `tenantctl example <dir>`: the thesis' ERP example as real repositories.
    struct Example: TenantctlCommand {
        static let configuration = CommandConfiguration(
            abstract: "Create the thesis' ERP example: four module repositories, three tenants, a workspace.",
            discussion: """
                Creates, in a new or empty <dir>:
                  remotes/Superproject.git  bare superproject: general_dev, t1, t2, t3
                  remotes/<Module>.git      Infrastructure, Article, Customer, Order
                  workspace/                clone on general_dev, modules on general_dev

                The tenants of the thesis (chapter 5.3): T1 uses every module unchanged. T2 uses only \
                Infrastructure and Customer, with German strings (module branches t2). T3 receives orders as \
                JSON and keeps an order date in a reserve field (Order branch t3). Every superproject branch pins \
                all four modules.

                With --stage after-updates the general changes of Infrastructure, Article and Order (AF.5, AF.6) \
                are on the modules' general_dev remotes but not yet pinned: the starting point of a roll. Commit \
                ids are the same on every run and machine. With --stage conflict, additionally a general edit of \
                a row of Infrastructure's Strings.csv that t2 translated: roll rolls t1 and t3 and leaves t2 \
                conflicted, for `tenantctl resolve t2` (docs/resolve.md).

                Local file remotes are allowed for the directories this command creates.

                Examples:
                  tenantctl example /tmp/erp --stage after-updates
                  cd /tmp/erp/workspace && tenantctl audit
                  tenantctl example /tmp/erp-conflict --stage conflict
                """)

        @OptionGroup(title: "Global Options") var global: GlobalOptions

        @Argument(help: ArgumentHelp("A new or empty directory to create the example in.", valueName: "dir"))
        var directory: String

        @Option(
            help: ArgumentHelp(
                "before-updates (tenants customised), after-updates (AF.5/AF.6 pushed, not yet rolled) or conflict "
                    + "(also a general change that conflicts with t2's strings)."))
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
                context.console.data(try JSONOutput.encode(ExampleJSON(result)))
                return .success
            }
            if global.quiet { return .success }
            context.console.print("Created the ERP example (stage \(result.stage.rawValue)):")
            context.console.print("  remotes    \(result.remotes)")
            context.console.print("  workspace  \(result.workspace)  (general_dev, modules on general_dev)")
            context.console.print("")
            let rows = ([ExampleBuilder.superprojectName] + ExampleScenario.modules.map(\.name)).map { name in
                let branches = (result.branches[name] ?? [:]).sorted { Self.order($0.key) < Self.order($1.key) }
                return [name, branches.map { "\($0.key) \(ObjectID.short($0.value))" }.joined(separator: "  ")]
            }
            let table = TextTable(header: ["REPOSITORY", "BRANCHES"], rows: rows).render(
                width: context.console.width - 2, ascii: context.console.ascii)
            for line in table.split(separator: "\n") { context.console.print("  " + line) }
            context.console.print("")
            context.console.print("Next: cd \(ShellWord.quote(result.workspace)) && tenantctl switch t2")
            return .success
        }

        /// `general_dev` first, then tenant branches by name.
        static func order(_ branch: String) -> String {
            branch == ExampleScenario.generalBranch ? "" : branch
        }
    }
}

extension ExampleStage: ExpressibleByArgument {}

/// `tenantctl example --json`: the example's paths and branches, with the format version.
struct ExampleJSON: Encodable {
    var schemaVersion = 1
    var directory: String
    var remotes: String
    var workspace: String
    var stage: ExampleStage
    var branches: [String: [String: String]]

    init(_ result: ExampleResult) {
        directory = result.directory
        remotes = result.remotes
        workspace = result.workspace
        stage = result.stage
        branches = result.branches
    }
}
