import Foundation

/// The observed state of the superproject's remote branches.
public struct SuperprojectState: Sendable, Equatable {
    /// Branch name → commit on the remote.
    public var branches: [String: String]
    /// Branches that already contain the general branch tip.
    public var containGeneral: Set<String>
    /// Branch → module path → pinned commit (gitlinks only).
    public var pins: [String: [String: String]]
    /// Branch → module paths declared in that branch's own `modules.json` (to find removed modules).
    public var modulePaths: [String: [String]]
    /// Branch → old path → module name, for modules of the general manifest that the branch's own `modules.json`
    /// has at another path, or (without such a file) its `.gitmodules` (``ModuleLocator``): a module moved on the
    /// general branch, not a removed module.
    public var renamedPaths: [String: [String: String]]
    /// Tenant branch → its commits that the general branch took (merged back), as audit and verify read them
    /// (``SuperprojectObservation/mergedBack``).
    public var mergedBack: [String: [String]]
    /// Tenant branch → the commits of ``mergedBack`` (of any tenant) that its head already contains: what the
    /// general branch would not bring it.
    public var containsMergedBack: [String: Set<String>]
    /// Branch → the general commit it took by a squash or rebase landing (it has its changes, not the commit), for
    /// a branch behind the general tip: its next merge runs on a virtual base (``VirtualBase``).
    public var squashed: [String: String] = [:]

    public init(
        branches: [String: String], containGeneral: Set<String>, pins: [String: [String: String]],
        modulePaths: [String: [String]], renamedPaths: [String: [String: String]] = [:],
        mergedBack: [String: [String]] = [:], containsMergedBack: [String: Set<String>] = [:]
    ) {
        self.branches = branches
        self.containGeneral = containGeneral
        self.pins = pins
        self.modulePaths = modulePaths
        self.renamedPaths = renamedPaths
        self.mergedBack = mergedBack
        self.containsMergedBack = containsMergedBack
    }
}
