import Foundation

/// A new superproject commit: `edits` applied to the tree of `base`, pushed to `branch`.
public struct PlannedCommit: Sendable, Equatable {
    /// The superproject branch the commit goes to.
    public var branch: String
    /// The commit it builds on (the branch's current remote value, or the source of a new branch).
    public var base: String
    /// The path changes.
    public var edits: [PathEdit]
    /// The commit message.
    public var message: String
    /// New branches created at the same commit (e.g. a new tenant branched from the new `general_dev`).
    public var alsoCreates: [String]

    /// Creates a planned commit.
    public init(branch: String, base: String, edits: [PathEdit], message: String, alsoCreates: [String] = []) {
        self.branch = branch
        self.base = base
        self.edits = edits
        self.message = message
        self.alsoCreates = alsoCreates
    }
}
