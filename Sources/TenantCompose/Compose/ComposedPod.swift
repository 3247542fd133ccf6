import Foundation

/// One pod of the tenant's Podfile.
public struct ComposedPod: Sendable, Equatable {
    /// The pod name.
    public var name: String
    /// The requirement, if any module gave one.
    public var version: String?
    /// The modules that need it, in dependency order.
    public var requiredBy: [String]
}
