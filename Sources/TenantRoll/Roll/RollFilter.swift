import Foundation

/// Which tenants and modules a roll covers (empty = all).
public struct RollFilter: Sendable, Equatable {
    /// Tenant ids; empty means every tenant.
    public var tenants: [String]
    /// Module names that move; empty means every module.
    public var modules: [String]
    /// Modules whose general branch deliberately took a tenant's commits (`--accept-merged-back`): they roll anyway.
    /// `superproject` accepts the superproject's general branch taking a tenant's superproject commits.
    public var acceptMergedBack: [String]

    public init(tenants: [String] = [], modules: [String] = [], acceptMergedBack: [String] = []) {
        self.tenants = tenants
        self.modules = modules
        self.acceptMergedBack = acceptMergedBack
    }
}
