import Foundation

/// The whole roll, computed from a ``RollState`` without touching git.
public struct RollPlan: Sendable, Equatable {
    /// The superproject's general branch.
    public var generalBranch: String
    /// Superproject general tip before the roll.
    public var generalTip: ObjectID
    /// Modules of the general manifest.
    public var modules: [Module]
    /// The general branch re-pin (nil when the pins are current, or when the general branch is blocked).
    public var repin: GeneralRepin?
    /// Why re-pinning the general branch would drop a pin (a module commit not pushed); non-empty: nothing of the
    /// general branch changes.
    public var generalBlocked: [BlockReason] = []
    /// Every module merge needed, in module then tenant order.
    public var moduleMerges: [ModuleMerge]
    /// Selected tenants, in id order.
    public var tenants: [TenantPlan]
    /// Modules whose remote could not be fetched → the fetch error: their pins were kept everywhere.
    public var unreachable: [String: String] = [:]
    /// The `--accept-merged-back` names the roll was planned with: a conflicted tenant's resolve needs them too.
    public var acceptedMergedBack: [String] = []
}
