import ArgumentParser

extension Tenantctl {
    /// Every subcommand, in the order `--help` lists them.
    static let subcommandTypes: [ParsableCommand.Type] = [
        Example.self,
        TenantGroup.self,
        Verify.self,
        Demo.self,
    ]
}
