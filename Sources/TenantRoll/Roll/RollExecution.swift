import Foundation

/// The objects roll wrote and the ref changes it wants to publish, per repository.
public struct RollExecution: Sendable {
    /// Every module merge, in plan order.
    public var moduleMerges: [ModuleMergeOutcome]
    /// The new general branch commit of the superproject, if any.
    public var generalCommit: String?
    /// Tenant id → outcome.
    public var tenants: [String: TenantOutcome]
    /// Module name → branch updates (old → new) for tenants that roll.
    public var moduleUpdates: [String: [RefUpdate]]
    /// Superproject branch updates (`refs/heads/<branch>`, old → new).
    public var superprojectUpdates: [RefUpdate]
    /// Tenant id → the modules its superproject commit needs on the module remotes.
    public var tenantNeeds: [String: Set<String>]
}
