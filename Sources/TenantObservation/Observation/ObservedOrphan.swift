import Foundation

/// An ``OrphanBranch`` with what its finding says: the pin of the tenant whose name it has, and for a removed
/// tenant how many commits only that branch holds.
public struct ObservedOrphan: Sendable, Equatable {
    /// The branch.
    public var branch: OrphanBranch
    /// The module's pin on the tenant's superproject branch (a current tenant's only).
    public var tenantPin: String?
    /// Commits reachable from the branch and from no other branch of the module (a removed tenant's only).
    public var uniqueCommits: Int?

    public init(branch: OrphanBranch, tenantPin: String? = nil, uniqueCommits: Int? = nil) {
        self.branch = branch
        self.tenantPin = tenantPin
        self.uniqueCommits = uniqueCommits
    }
}
