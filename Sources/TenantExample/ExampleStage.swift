import Foundation
import TenantKit

/// How far the example's story has progressed.
public enum ExampleStage: String, Sendable, CaseIterable, Codable {
    /// All tenant customisations done (AF.1–AF.4); every pin is the tip of its module branch.
    case beforeUpdates = "before-updates"
    /// Additionally the general changes AF.5/AF.6 are on the modules' `general_dev` remotes, not yet pinned by the
    /// superproject: the state a `roll` starts from.
    case afterUpdates = "after-updates"
    /// Additionally a general change that conflicts with a tenant's customisation (``ExampleScenario/conflicts``: a
    /// row of Infrastructure's `Strings.csv` that t2 translated): `roll` rolls t1 and t3 and leaves t2 conflicted,
    /// for `tenantctl resolve t2`.
    case conflict
}
