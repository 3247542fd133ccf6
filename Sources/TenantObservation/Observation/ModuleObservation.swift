import Foundation

/// One module repository as observed: its branches, the commit graph of every branch and every pin, and what the
/// graph says about the pins.
public struct ModuleObservation: Sendable {
    /// The module's general branch (the branch its untouched tenants track).
    public var generalBranch: String
    /// Branch name → head, as on the module's remote.
    public var branches: [String: String]
    /// The commit graph of every branch and every pin.
    public var graph: CommitGraph
    /// Pin → the commit it names (annotated tags peeled); a pin the mirror does not have is absent.
    public var pinCommits: [String: String]
    /// The pins reachable from some branch or tag of the remote.
    public var pinsOnRemote: Set<String>
    /// Pin → comparison with the module's general branch (pins in the graph, when the general branch exists).
    public var comparisons: [String: Comparison]
    /// Pin → files changed against the merge base with the general branch (customised pins only), nested gitlinks
    /// (the module's own submodules) included. Empty when the reader was asked not to list them.
    public var changedFiles: [String: [String]]
    /// Tenant branch of this module → its commits the module's general branch took (merged back).
    public var mergedBack: [String: [String]]

    public init(
        generalBranch: String, branches: [String: String], graph: CommitGraph, pinCommits: [String: String] = [:],
        pinsOnRemote: Set<String> = [], comparisons: [String: Comparison] = [:], changedFiles: [String: [String]] = [:],
        mergedBack: [String: [String]] = [:]
    ) {
        self.generalBranch = generalBranch
        self.branches = branches
        self.graph = graph
        self.pinCommits = pinCommits
        self.pinsOnRemote = pinsOnRemote
        self.comparisons = comparisons
        self.changedFiles = changedFiles
        self.mergedBack = mergedBack
    }

    /// The head of the general branch, when the remote has it.
    public var generalTip: String? { branches[generalBranch] }

    /// The commit a pin names, or the pin when unknown.
    public func commit(_ pin: String) -> String { pinCommits[pin] ?? pin }
}
