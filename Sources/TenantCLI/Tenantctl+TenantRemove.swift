import ArgumentParser
import Foundation
import TenantKit

extension Tenantctl {
    /// `tenantctl tenant remove <id>`.
    struct TenantRemove: WritingCommand {
        static let configuration = CommandConfiguration(
            commandName: "remove",
            abstract: "Remove a tenant: its file, its superproject branch and its module branches.",
            discussion: """
                Removes Tenants/<id>.json from general_dev and deletes the tenant's superproject branch and the \
                module branches it declares as customised (each deletion with a lease on the value read). Refuses \
                while any of these branches holds commits that no other branch of the same remote has, unless \
                --archive: then each such branch is first tagged archive/<branch> in its repository.

                A removal stopped after the superproject push (the tenant file is gone) is finished by running \
                it again: the module branches of the removed tenant are deleted (tagged first with --archive). \
                verify reports such branches meanwhile.

                Killed or interrupted, the run stays unfinished in its journal (`tenantctl runs` lists it): the other \
                writing commands refuse, naming the command that finishes it, until the same tenant remove has run \
                again.

                Examples:
                  tenantctl tenant remove t4
                  tenantctl tenant remove t2 --archive
                """)

        @OptionGroup(title: "Global Options") var global: GlobalOptions

        @Argument(help: "The tenant id.", completion: NameCompletion.tenants())
        var id: String

        @Flag(help: "Tag the branches archive/<branch> before deleting them.")
        var archive = false

        @OptionGroup var writeOptions: WriteOptions

        func run(context: CommandContext) throws -> ExitStatus {
            try LifecycleOutput.run(
                .tenantRemove(id: id, archive: archive), context: context, options: writeOptions,
                headline: LifecycleHeadline(done: "removed tenant \(id)", wouldDo: "would remove tenant \(id)"))
        }
    }
}
