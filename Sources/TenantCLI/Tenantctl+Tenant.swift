import ArgumentParser
import Foundation
import TenantKit

extension Tenantctl {
    /// `tenantctl tenant …`: the tenants of the superproject.
    struct TenantGroup: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "tenant",
            abstract: "List and manage tenants.",
            subcommands: [TenantList.self, TenantAdd.self, TenantRemove.self],
            defaultSubcommand: TenantList.self)
    }

    /// `tenantctl tenant list`.
    struct TenantList: TenantctlCommand {
        static let configuration = CommandConfiguration(
            commandName: "list",
            abstract: "List the tenants with their branch, active and customised modules.",
            discussion: """
                Reads modules.json and Tenants/*.json from the working tree. The effective active set follows \
                the dependency rule: an active module whose dependencies are not all active is dropped (and \
                named), repeatedly, until nothing changes.

                Examples:
                  tenantctl tenant list
                  tenantctl tenant list --json | jq -r '.tenants[].id'     # a CI build matrix
                """)

        @OptionGroup(title: "Global Options") var global: GlobalOptions

        var pagesOutput: Bool { true }

        func run(context: CommandContext) throws -> ExitStatus {
            let workspace = try context.workspace()
            let project = try ProjectReader.workingTree(
                workspace, options: ValidationOptions(allowLocalRemotes: context.allowLocalRemotes))
            let rows = project.tenants.map { TenantRow(tenant: $0, active: project.activeSet(for: $0)) }
            if context.options.json {
                context.console.data(
                    try JSONOutput.encode(TenantListJSON(generalBranch: project.manifest.generalBranch, tenants: rows)))
                return .success
            }
            let table = TextTable(
                header: ["TENANT", "BRANCH", "NAME", "ACTIVE MODULES", "CUSTOMISED"],
                rows: rows.map {
                    [
                        $0.id, $0.branch, TerminalText.escaped($0.name ?? ""), $0.activeModules.joined(separator: ", "),
                        $0.customisedColumn,
                    ]
                }, text: [2, 3, 4])
            context.console.print(context.console.table(table))
            for row in rows where !row.droppedModules.isEmpty {
                for dropped in row.droppedModules {
                    context.console.print(
                        "note: \(row.id): \(dropped.module) is inactive: it needs \(dropped.missing.joined(separator: ", ")), which \(English.isAre(dropped.missing.count)) not active"
                    )
                }
            }
            return .success
        }
    }
}

/// One tenant in `tenant list --json`.
struct TenantRow: Encodable {
    var id: String
    var name: String?
    var branch: String
    var modules: [String]
    var activeModules: [String]
    var droppedModules: [DroppedJSON]
    /// Every module the tenant customises (the file's `customised`, then the modules only `branches` maps).
    var customised: [String]
    /// Module → the module branch the tenant follows when it is not named after the tenant.
    var branches: [String: String]

    struct DroppedJSON: Encodable {
        var module: String
        var missing: [String]
    }

    init(tenant: Tenant, active: ActiveSet) {
        id = tenant.id
        name = tenant.name
        branch = tenant.branch
        modules = tenant.modules
        activeModules = active.effective
        droppedModules = active.dropped.map { DroppedJSON(module: $0.module, missing: $0.missing) }
        customised = tenant.customisedModules
        branches = tenant.branches
    }

    /// The CUSTOMISED column: each module, with its branch where `branches` maps it (`obs-websocket (release/5.5.6)`).
    var customisedColumn: String {
        customised.isEmpty
            ? "-"
            : customised.map { module in branches[module].map { "\(module) (\($0))" } ?? module }
                .joined(separator: ", ")
    }
}

struct TenantListJSON: Encodable {
    var schemaVersion = 1
    var generalBranch: String
    var tenants: [TenantRow]
}
