import Foundation

/// A content conflict (or another reason a tenant cannot roll) in one repository.
public struct RollConflict: Sendable, Equatable, Codable {
    /// `superproject` or a module name.
    public var repository: String
    /// Conflicting paths (may be empty when `reason` says why).
    public var paths: [String]
    /// Why, in words.
    public var reason: String

    public init(repository: String, paths: [String], reason: String) {
        self.repository = repository
        self.paths = paths
        self.reason = reason
    }
}
