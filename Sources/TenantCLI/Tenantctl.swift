import ArgumentParser
import TenantKit

public struct Tenantctl: ParsableCommand {
    public static let configuration = CommandConfiguration(commandName: "tenantctl", version: TenantKitInfo.version)
    public init() {}
}
