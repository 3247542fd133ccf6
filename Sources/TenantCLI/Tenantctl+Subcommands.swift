import ArgumentParser

extension Tenantctl {
    /// Every subcommand, in the order `--help` lists them.
    static let subcommandTypes: [ParsableCommand.Type] = [
        Example.self,
        Switch.self,
        Status.self,
        Diff.self,
        Pin.self,
        TenantGroup.self,
        Roll.self,
        Runs.self,
        Resolve.self,
        Verify.self,
        Audit.self,
        Compose.self,
        Customize.self,
        Uncustomize.self,
        Tag.self,
        Init.self,
        ModuleGroup.self,
        Demo.self,
    ]
}
