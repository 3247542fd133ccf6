import ArgumentParser
import Foundation
import TenantKit

extension Tenantctl {
    /// `tenantctl module remove <name>`.
    struct ModuleRemove: WritingCommand {
        static let configuration = CommandConfiguration(
            commandName: "remove",
            abstract: "Remove a module from general_dev (refused while a tenant customises it).",
            discussion: """
                One commit on general_dev (pushed) removes the module from modules.json, .gitmodules, the tree \
                (its gitlink) and from every tenant's active modules. The module's repository is left as it is. \
                Refuses while any tenant customises the module or another module depends on it.

                Killed or interrupted, the run stays unfinished in its journal (`tenantctl runs` lists it): the other \
                writing commands refuse, naming the command that finishes it, until the same module remove has run \
                again.

                Examples:
                  tenantctl module remove Invoice
                """)

        @OptionGroup(title: "Global Options") var global: GlobalOptions

        @Argument(help: "The module name.", completion: NameCompletion.modules)
        var name: String

        @OptionGroup var writeOptions: WriteOptions

        func run(context: CommandContext) throws -> ExitStatus {
            try LifecycleOutput.run(
                .moduleRemove(name: name), context: context, options: writeOptions,
                headline: LifecycleHeadline(done: "removed module \(name)", wouldDo: "would remove module \(name)"))
        }
    }
}
