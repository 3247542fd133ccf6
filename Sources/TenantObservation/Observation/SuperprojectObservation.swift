import Foundation

/// The superproject's branches as observed: heads, pins, and how each tenant branch relates to the general branch.
public struct SuperprojectObservation: Sendable {
    /// The general branch's name.
    public var generalBranch: String
    /// The head of the general branch.
    public var generalTip: String
    /// Tenant branch → head (only branches that exist).
    public var tenantTips: [String: String]
    /// Superproject branch (the general branch and every tenant branch that exists) → module path → pinned commit
    /// (gitlinks of the branch head). A module the branch has at another path (``movedPaths``) is listed under its
    /// path in `modules.json`.
    public var pins: [String: [String: String]]
    /// Superproject branch → module name → the path the branch has the module at, for modules it has at another
    /// path than `modules.json` gives (moved since: ``ModuleLocator``).
    public var movedPaths: [String: [String: String]]
    /// Tenant branch → comparison with the general branch.
    public var comparisons: [String: Comparison]
    /// Tenant branch → files (not gitlinks) changed against the merge base with the general branch.
    public var changedFiles: [String: [String]]
    /// Tenant branch → its commits that the general branch took (merged back).
    public var mergedBack: [String: [String]]
    /// Superproject branch → path → pinned commit of the submodules its `.gitmodules` lists and it pins that
    /// `modules.json` does not name (a repository renamed or added with plain git; not a module that moved).
    public var unnamed: [String: [String: String]] = [:]
    /// Superproject branch → its `.gitmodules` (absent for a branch without the file); nil when not read (roll
    /// does not ask for it). What `gitmodules-drift` is judged from.
    public var gitmodules: [String: Gitmodules]? = nil
    /// Tenant branch → the modules of that branch's own `modules.json` (none when it has no such file or it does not
    /// load); read only when asked (roll: to find the modules a branch has at an older path, and removed ones).
    public var manifests: [String: [Module]] = [:]
    /// The commit graph of the general branch and the tenant branches; nil when there is no tenant branch.
    public var graph: CommitGraph? = nil

    public init(
        generalBranch: String, generalTip: String, tenantTips: [String: String], pins: [String: [String: String]],
        movedPaths: [String: [String: String]] = [:], comparisons: [String: Comparison] = [:],
        changedFiles: [String: [String]] = [:], mergedBack: [String: [String]] = [:]
    ) {
        self.generalBranch = generalBranch
        self.generalTip = generalTip
        self.tenantTips = tenantTips
        self.pins = pins
        self.movedPaths = movedPaths
        self.comparisons = comparisons
        self.changedFiles = changedFiles
        self.mergedBack = mergedBack
    }
}
