import ArgumentParser
import Foundation
import TenantKit

extension Tenantctl {
    /// `tenantctl customize <tenant> <module>`: fork a module for a tenant (or `--undo` it).
    struct Customize: WritingCommand {
        static let configuration = CommandConfiguration(
            abstract: "Fork a module for a tenant: create its tenant branch, declare it, re-pin.",
            discussion: """
                Creates the module's branch named after the tenant at the commit the tenant's superproject branch \
                pins (or at --from), pushes it, adds the module to `customised` in Tenants/<id>.json on \
                general_dev and on the tenant's branch, and re-pins the tenant to the new branch. Works on the \
                remotes (fetched first) with plumbing: the working tree, index, HEAD and local branches stay as \
                they are. The module branch is pushed first, then the superproject, each push atomic.

                Refuses (changing nothing) an unknown tenant or module, a module the tenant does not effectively \
                use, a module already customised and an existing module branch of the tenant's name.

                --branch <branch> adopts a branch the module already has instead of creating one (a release \
                line whose tenant release/31.0 builds obs-websocket from its branch release/5.5.6): it writes \
                "branches": {"<module>": "<branch>"} in Tenants/<id>.json on general_dev and on the tenant's \
                branch, creates and pushes nothing in the module, and keeps the tenant's pin (roll moves it to \
                the branch's head). From then on every command uses that branch for the tenant's module. It \
                refuses a branch the module's remote does not have, the module's general branch, and a branch \
                that does not have the tenant's pin.

                --undo gives the fork back: only when the module's tenant branch has no commits beyond \
                general_dev; otherwise it refuses and lists them. A module on a branch --branch adopted is given \
                back by removing the mapping (when the tenant's pin is on general_dev); the branch itself stays.

                A run stopped between its pushes is finished by running it again: customize takes over a module \
                branch at the commit it would create it at, and --undo deletes a module branch that the tenant \
                no longer declares. verify reports such a branch meanwhile, with both commands.

                Killed or interrupted, the run stays unfinished in its journal (`tenantctl runs` lists it): the other \
                writing commands refuse, naming the command that finishes it, until the same customize (or customize \
                --undo) has run again.

                Examples:
                  tenantctl customize t1 Order --from general_dev~1 --dry-run
                  tenantctl customize t1 Order
                  tenantctl customize t1 Article --branch release/2.x --dry-run
                  tenantctl customize --undo t1 Order
                """)

        @OptionGroup(title: "Global Options") var global: GlobalOptions

        @Argument(help: "The tenant id.", completion: NameCompletion.tenants())
        var tenant: String

        @Argument(help: "The module name.", completion: NameCompletion.modules)
        var module: String

        @Option(help: ArgumentHelp("Start the branch at this module commit instead of the pin.", valueName: "commit"))
        var from: String?

        @Option(
            help: ArgumentHelp(
                "Follow this existing module branch instead of creating one named after the tenant (written as "
                    + "\"branches\" in the tenant file).", valueName: "branch"))
        var branch: String?

        @Flag(help: "Undo a customisation that has no commits of its own.")
        var undo = false

        @OptionGroup var writeOptions: WriteOptions

        func validate() throws {
            if undo && from != nil { throw ValidationError("--from makes no sense with --undo") }
            if undo && branch != nil { throw ValidationError("--branch makes no sense with --undo") }
            if from != nil && branch != nil {
                throw ValidationError("--from and --branch cannot be combined: --branch keeps the tenant's pin")
            }
            if let branch, let problem = RefName.validateBranch(branch) {
                throw ValidationError("--branch \(branch): \(problem)")
            }
        }

        func run(context: CommandContext) throws -> ExitStatus {
            try Customize.run(
                tenant: tenant, module: module, from: from, branch: branch, undo: undo, options: writeOptions,
                context: context)
        }

        static func run(
            tenant: String, module: String, from: String?, branch: String? = nil, undo: Bool, options: WriteOptions,
            context: CommandContext
        ) throws -> ExitStatus {
            let headline =
                undo
                ? LifecycleHeadline(
                    done: "tenant \(tenant) no longer customises \(module)",
                    wouldDo: "tenant \(tenant) would no longer customise \(module)")
                : LifecycleHeadline(
                    done: "tenant \(tenant) customises \(module)" + (branch.map { " on its branch \($0)" } ?? ""),
                    wouldDo: "tenant \(tenant) would customise \(module)"
                        + (branch.map { " on its branch \($0)" } ?? ""))
            let change: LifecycleRun.Change =
                undo
                ? .uncustomize(tenant: tenant, module: module)
                : branch.map { .adoptBranch(tenant: tenant, module: module, branch: $0) }
                    ?? .customize(tenant: tenant, module: module, from: from)
            return try LifecycleOutput.run(
                change,
                context: context, options: options, headline: headline)
        }
    }

    /// `tenantctl uncustomize <tenant> <module>`: the same as `customize --undo`.
    struct Uncustomize: WritingCommand {
        static let configuration = CommandConfiguration(
            abstract: "Undo a customisation that has no commits of its own (same as customize --undo).",
            discussion: """
                Removes the module from `customised` in Tenants/<id>.json (general_dev and the tenant's branch), \
                then deletes the module's tenant branch on its remote (with a lease on the value read). Refuses, \
                listing them, when the branch or the tenant's pin has commits that are not on general_dev.

                Examples:
                  tenantctl uncustomize t1 Order
                """)

        @OptionGroup(title: "Global Options") var global: GlobalOptions

        @Argument(help: "The tenant id.", completion: NameCompletion.tenants())
        var tenant: String

        @Argument(help: "The module name.", completion: NameCompletion.modules)
        var module: String

        @OptionGroup var writeOptions: WriteOptions

        func run(context: CommandContext) throws -> ExitStatus {
            try Customize.run(
                tenant: tenant, module: module, from: nil, undo: true, options: writeOptions,
                context: context)
        }
    }
}
