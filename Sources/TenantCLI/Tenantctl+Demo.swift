import ArgumentParser
import TenantKit

extension Tenantctl {
    /// `tenantctl demo`: the whole story on a generated example.
    struct Demo: TenantctlCommand {
        static let configuration = CommandConfiguration(
            abstract: "Run the whole story on a generated example (not implemented yet).",
            discussion: """
                Example:
                  tenantctl demo
                """)

        @OptionGroup var global: GlobalOptions

        func run(context: CommandContext) throws -> ExitStatus {
            context.console.error("demo is not implemented yet; see README.md for what works today")
            return .failure
        }
    }
}
