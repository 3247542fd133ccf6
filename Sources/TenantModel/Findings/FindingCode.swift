import Foundation

/// The kinds of finding, one set for audit and verify: the same problem has the same code whichever
/// command reports it.
public enum FindingCode: String, Sendable, Equatable, Hashable, Codable, CaseIterable {
    /// The pin is not on the module's general branch, but the tenant does not declare the module customised.
    case undeclaredCustomisation = "undeclared-customisation"
    /// A branch that should exist on a remote does not: a tenant's superproject branch, a declared module tenant
    /// branch, or the branch a tenant should track.
    case missingBranch = "missing-branch"
    /// The pinned commit is on no branch of the module's remote.
    case missingCommit = "missing-commit"
    /// The module is declared customised but the pin is not the head of its tenant branch.
    case stalePin = "stale-pin"
    /// The module is customised (declared or in fact) but not in the tenant's effective active set.
    case inactiveButCustomised = "inactive-but-customised"
    /// The tenant branch has no gitlink for a module of the manifest.
    case notPinned = "not-pinned"
    /// The tenant branch has the module (the same submodule name, else the same URL) at another path than
    /// `modules.json` gives: it moved since; roll moves the gitlink.
    case movedPath = "moved-path"
    /// Commits made on a tenant branch are reachable from the general branch of the same repository.
    case tenantMergedBack = "tenant-merged-back"
    /// A tenant file is invalid.
    case invalidTenantFile = "invalid-tenant-file"
    /// `modules.json` (or another project file) is invalid.
    case invalidFile = "invalid-file"
    /// A remote could not be fetched.
    case unreachableRemote = "unreachable-remote"
    /// `.gitmodules` disagrees with `modules.json`.
    case gitmodulesDrift = "gitmodules-drift"
    /// A module branch named after a tenant that does not declare the module customised, or after a removed tenant.
    case orphanBranch = "orphan-branch"
    /// Two branches of one repository whose names differ only in case or Unicode normalisation (`T1`, `t1`): on a
    /// case-insensitive file system (macOS by default) they are one file and cannot both be fetched.
    case branchCaseCollision = "branch-case-collision"
    /// A superproject branch pins a submodule at a path `modules.json` does not name (a repository renamed or added
    /// with plain git): switch checks it out at its pin; roll, pin and audit leave it as the branch has it.
    case unnamedSubmodule = "unnamed-submodule"
    /// A review roll's proposal is open (or a superproject proposal waits for its module proposals): the tenant
    /// rolls once the forge lands it and `tenantctl roll --land` follows it.
    case pendingReview = "pending-review"
    /// A review roll's proposal no longer proposes what a roll would: the general branch moved on since, or the
    /// proposal was closed without landing.
    case staleReview = "stale-review"
    /// The target of a review roll's proposal moved so that the proposal no longer merges cleanly.
    case reviewConflict = "review-conflict"
    /// A review landed by a squash or a rebase: the target has the general branch's changes but not its commit by
    /// ancestry, so it counts as behind until the next roll.
    case squashedRoll = "squashed-roll"
    /// A tenant has lacked a commit of a general branch for longer than `audit --check --max-behind-days` allows:
    /// rolling it fixes it.
    case staleTenant = "stale-tenant"

    /// Whether a finding of this kind only informs: it is reported, but fails neither `verify` nor `audit --check`.
    /// A module path that moved is such a case: roll moves the gitlink, nothing needs fixing before it (a CI gate
    /// stays green until the first roll); so is a review that landed by squash or rebase (nothing to fix).
    public var isInformation: Bool { self == .movedPath || self == .squashedRoll }

    /// Whether any of `codes` fails a gate (`verify`, `audit --check`): anything but information.
    public static func failsGate(_ codes: some Sequence<FindingCode>) -> Bool {
        codes.contains { !$0.isInformation }
    }
}
