import Foundation

/// The facts of one run, gathered once from a ``Snapshot`` (``ObservationReader``): the pins of the general branch
/// and of every tenant branch, each module's commit graph and what it says about those pins, the commits the general
/// branches took from tenant branches, and the orphan module branches.
///
/// Only facts: what they mean is the ``FindingJudge``'s, the one place that decides every finding for audit and
/// verify.
public struct ProjectObservation: Sendable {
    /// The superproject.
    public var superproject: SuperprojectObservation
    /// Module name → its repository (modules that could not be fetched have none).
    public var modules: [String: ModuleObservation]
    /// Module name → why it could not be fetched.
    public var unreachable: [String: String]
    /// Module branches named after a tenant that does not declare the module customised, or after a removed tenant.
    public var orphans: [ObservedOrphan]
    /// Branches of one repository whose names differ only in case or normalisation.
    public var caseCollisions: [BranchCaseCollision]

    public init(
        superproject: SuperprojectObservation, modules: [String: ModuleObservation],
        unreachable: [String: String] = [:], orphans: [ObservedOrphan] = [],
        caseCollisions: [BranchCaseCollision] = []
    ) {
        self.superproject = superproject
        self.modules = modules
        self.unreachable = unreachable
        self.orphans = orphans
        self.caseCollisions = caseCollisions
    }
}

/// The observation could not be gathered.
public struct ObservationError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What went wrong, naming the repository or ref.
    public var description: String

    /// Creates an error.
    public init(_ description: String) { self.description = description }
}
