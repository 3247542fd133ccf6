import Foundation

/// What compose made of a tenant: the plan and what the report says about it.
public struct ComposeResult: Sendable {
    /// The files to write.
    public var plan: ComposePlan
    /// The effective active modules in dependency order.
    public var active: [String]
    /// Dropped modules, with the missing dependencies.
    public var dropped: [DroppedModule]
    /// The string tables read, in the order applied.
    public var stringTables: [String]
    /// The merged strings.
    public var strings: ComposedStrings
    /// The merged dependencies.
    public var dependencies: ComposedDependencies
    /// The settings of `Tenant.xcconfig`, in the order written.
    public var buildSettings: [(name: String, value: String)]
    /// Warnings (inputs and descriptions).
    public var warnings: [String]
}
