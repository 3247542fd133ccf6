import Foundation

/// What happened to one tenant.
public enum TenantOutcome: Sendable, Equatable {
    /// Nothing to do.
    case upToDate
    /// A new superproject commit for the tenant branch.
    case rolled(commit: String, pins: [PinChange])
    /// Nothing of the tenant changes; why.
    case conflict([RollConflict])
    /// Nothing of the tenant changes: rolling it would drop or spread a customisation.
    case blocked([BlockReason])
}
