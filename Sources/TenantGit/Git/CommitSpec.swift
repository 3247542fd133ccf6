import Foundation

/// A commit object to write.
public struct CommitSpec: Sendable, Equatable {
    /// Tree id.
    public var tree: String
    /// Parents, first parent first.
    public var parents: [String]
    /// Message (one paragraph or more).
    public var message: String

    public init(tree: String, parents: [String], message: String) {
        self.tree = tree
        self.parents = parents
        self.message = message
    }
}
