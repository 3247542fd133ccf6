import ArgumentParser

extension Tenantctl {
    /// Every subcommand, in the order `--help` lists them.
    static let subcommandTypes: [ParsableCommand.Type] = [
        Example.self,
        TenantGroup.self,
        Verify.self,
        Customize.self,
        Uncustomize.self,
        Tag.self,
        Init.self,
        ModuleGroup.self,
        Demo.self,
    ]
}
