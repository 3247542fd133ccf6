import Foundation

/// Merge the general branch of a module into its tenant branch.
public struct ModuleMerge: Sendable, Equatable, Codable {
    /// Module name.
    public var module: String
    /// Tenant id.
    public var tenant: String
    /// The module branch merged into (the tenant's branch).
    public var branch: String
    /// Tip of the tenant branch before the merge (first parent).
    public var ours: ObjectID
    /// Tip of the module's general branch (second parent).
    public var theirs: ObjectID
    /// The general commit the tenant branch took by a squash or rebase landing (nil: none): the merge runs on a
    /// local virtual base with the tenant branch's tree and this commit as a second parent (``VirtualBase``), and the
    /// merge commit keeps `ours` and `theirs` as its parents.
    public var virtualGeneral: ObjectID? = nil

    /// The key of this merge among all of a roll.
    var key: MergeKey { MergeKey(module: module, tenant: tenant) }
}

/// A module merge of one tenant.
struct MergeKey: Hashable, Sendable {
    var module: String
    var tenant: String
}
