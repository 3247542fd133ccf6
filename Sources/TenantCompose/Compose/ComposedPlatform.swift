import Foundation

/// The strictest minimum version of one platform over the active modules and the tenant.
public struct ComposedPlatform: Sendable, Equatable, Codable {
    /// The platform as `Package.swift` spells it (`iOS`).
    public var platform: String
    /// The highest minimum version required.
    public var version: String
    /// Who requires that version: modules in dependency order, then `tenant <id>`.
    public var requiredBy: [String]

    /// Creates a platform requirement.
    public init(platform: String, version: String, requiredBy: [String]) {
        self.platform = platform
        self.version = version
        self.requiredBy = requiredBy
    }
}
