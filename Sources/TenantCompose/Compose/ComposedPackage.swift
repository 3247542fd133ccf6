import Foundation

/// One package of the tenant's umbrella package: the merged requirement of every active module that needs it.
public struct ComposedPackage: Sendable, Equatable {
    /// The URL (as the first module in dependency order spells it).
    public var url: String
    /// SwiftPM's identity (`qrcode`).
    public var identity: String
    /// The merged rule.
    public var rule: PackageRequirement.Rule
    /// Every product any module uses, sorted.
    public var products: [String]
    /// The modules that need it, in dependency order.
    public var requiredBy: [String]
    /// Product → the Swift modules it brings, for the products a description says it of (united over the modules).
    public var modules: [String: [String]] = [:]

    /// The Swift modules to re-export: every module a product is declared to bring, sorted.
    public var imports: [String] { Array(Set(modules.values.joined())).sorted() }
}
