import ArgumentParser
import Foundation
import TenantKit

extension Tenantctl {
    /// `tenantctl module …`: the modules of the superproject.
    struct ModuleGroup: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "module",
            abstract: "Add and remove modules on general_dev.",
            subcommands: [ModuleAdd.self, ModuleRemove.self])
    }
}
