import Foundation

/// The observed state of one module repository (its mirror).
public struct ModuleRepositoryState: Sendable {
    /// The module's facts (its branches, its commit graph and what it says about the pins), as audit and verify read
    /// them: what blocks a tenant is the ``FindingJudge``'s
    /// (``FindingJudge/rollBlocks(_:tenant:project:pin:facts:acceptMergedBack:)``).
    public var facts: ModuleObservation
    /// Branches that already contain the module's general branch tip.
    public var containGeneral: Set<String>
    /// Superproject branch → tenant branch of this module → that tenant's commits (merged back into the general
    /// branch) which the general branch would bring to the superproject branch: not yet in its pin.
    public var mergedBack: [String: [String: [String]]]
    /// Branch → the general commit it took by a squash or rebase landing (it has its changes, not the commit), for
    /// a branch behind the general tip: its next merge runs on a virtual base (``VirtualBase``).
    public var squashed: [String: String] = [:]

    public init(facts: ModuleObservation, containGeneral: Set<String>, mergedBack: [String: [String: [String]]] = [:]) {
        self.facts = facts
        self.containGeneral = containGeneral
        self.mergedBack = mergedBack
    }

    /// Branch name → commit, as on the remote after the fetch.
    public var branches: [String: String] { facts.branches }
}
