import Foundation

/// A lifecycle command (customize, tenant add/remove, tag, init, module add/remove) refused or failed.
///
/// A refusal is raised before anything is written; its text names the tenant, module, repository or branch.
public struct LifecycleError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The message for the user.
    public var description: String

    /// Creates an error with a message.
    public init(_ description: String) { self.description = description }
}
