import ArgumentParser
import Foundation
import TenantKit

extension Tenantctl {
    /// `tenantctl tenant add <id>`.
    struct TenantAdd: WritingCommand {
        static let configuration = CommandConfiguration(
            commandName: "add",
            abstract: "Add a tenant: its file on general_dev, its superproject branch, its module branches.",
            discussion: """
                Adds Tenants/<id>.json on general_dev and creates the superproject branch <id>. From general_dev \
                (the default) the new branch is the new general_dev commit and the tenant customises nothing. \
                With --from <tenant> the branch starts at that tenant's branch (its branding, its pins) and every \
                module the source customises (and the new tenant keeps active) gets a branch <id> at the source's \
                pin. Active modules are --modules, else the source's, else every module.

                Works on the remotes with plumbing (modules pushed first, then the superproject, atomic); the \
                working copy is not touched. Refuses an invalid or existing id, an existing branch <id> in the \
                superproject or any module, and unknown modules. A module branch <id> exactly at the source's pin \
                is what a run stopped before its superproject push leaves: the re-run takes it over and finishes.

                Killed or interrupted, the run stays unfinished in its journal (`tenantctl runs` lists it): the other \
                writing commands refuse, naming the command that finishes it, until the same tenant add has run again.

                Examples:
                  tenantctl tenant add t4 --name "Tenant Four AG"
                  tenantctl tenant add t7 --from t2
                  tenantctl tenant add t5 --modules Infrastructure,Customer --dry-run
                  tenantctl tenant add t6 --wait    # wait for a running roll, do not fail
                """)

        @OptionGroup(title: "Global Options") var global: GlobalOptions

        @Argument(help: "The new tenant's id (also its branch name).")
        var id: String

        @Option(help: "Display name.")
        var name: String?

        @Option(help: ArgumentHelp("general_dev or a tenant to copy.", valueName: "general_dev|tenant"))
        var from: String?

        @Option(
            help: ArgumentHelp("Active modules, comma-separated.", valueName: "A,B"),
            transform: { $0.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) } })
        var modules: [String]?

        @OptionGroup var writeOptions: WriteOptions

        /// A tenant id that cannot be a branch or a file name is a usage error, found before anything is fetched.
        func validate() throws {
            if let problem = RefName.validateBranch(id) {
                throw ValidationError("invalid tenant id \"\(id)\": \(problem) (the id is the tenant's branch name)")
            }
            if id.contains("/") {
                throw ValidationError(
                    "invalid tenant id \"\(id)\": it names the file Tenants/<id>.json and cannot contain /")
            }
        }

        func run(context: CommandContext) throws -> ExitStatus {
            try LifecycleOutput.run(
                .tenantAdd(TenantLifecycle.AddRequest(id: id, name: name, from: from, modules: modules)),
                context: context, options: writeOptions,
                headline: LifecycleHeadline(done: "added tenant \(id)", wouldDo: "would add tenant \(id)"))
        }
    }
}
