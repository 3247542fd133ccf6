import Foundation

/// Ref changes of one module repository, pushed atomically.
public struct ModulePush: Sendable, Equatable {
    /// The module.
    public var module: String
    /// The refs.
    public var refs: [RefUpdate]

    /// Creates a module push.
    public init(module: String, refs: [RefUpdate]) {
        self.module = module
        self.refs = refs
    }
}
