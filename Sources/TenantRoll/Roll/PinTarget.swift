import Foundation

/// Where a module's final pin on a tenant branch comes from.
public enum PinTarget: Sendable, Equatable {
    /// A known commit.
    case commit(ObjectID)
    /// The tip of the module's tenant branch after its merge (a merge commit, or `tip` when no merge is needed).
    case tenantBranch(module: String, tip: ObjectID)
}
