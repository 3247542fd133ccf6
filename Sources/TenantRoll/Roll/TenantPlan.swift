import Foundation

/// What roll does for one tenant.
public struct TenantPlan: Sendable, Equatable {
    /// The tenant.
    public var tenant: Tenant
    /// Tip of the tenant's superproject branch (nil when it is missing).
    public var tip: ObjectID?
    /// Reasons the tenant cannot roll, known before any merge.
    public var problems: [RollConflict]
    /// Why rolling the tenant would drop or spread a customisation; non-empty: nothing of the tenant changes.
    public var blocked: [BlockReason] = []
    /// Whether the superproject general branch must be merged into the tenant branch.
    public var mergeGeneral: Bool
    /// Module path → final pin rule.
    public var pins: [String: PinTarget]
    /// Module name for every path in ``pins``.
    public var moduleNames: [String: String]
    /// Gitlink paths of modules removed on the general branch (resolved by deleting them).
    public var removedPaths: [String]
    /// Old gitlink paths of modules the general branch moved to another path (deleted; the module is pinned at its
    /// new path).
    public var renamedPaths: [String] = []
    /// Old path → module name for ``renamedPaths``: where the tree's `.gitmodules` after the merge still puts the
    /// module there (the tenant branch moved it itself), the module stays and is pinned there.
    public var renamedModules: [String: String] = [:]
    /// The tenant's pins before the roll.
    public var oldPins: [String: ObjectID]
    /// The general commit the tenant's superproject branch took by a squash or rebase landing (nil: none): its merge
    /// of the general branch runs on a local virtual base (``VirtualBase``).
    public var virtualGeneral: ObjectID? = nil
}
