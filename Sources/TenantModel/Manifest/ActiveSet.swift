import Foundation

/// A module dropped from a tenant's effective active set, and why.
public struct DroppedModule: Sendable, Equatable {
    /// The dropped module.
    public var module: String
    /// Its dependencies that were not in the active set when it was dropped.
    public var missing: [String]

    /// Creates a dropped-module record.
    public init(module: String, missing: [String]) {
        self.module = module
        self.missing = missing
    }
}

/// A tenant's effective active modules after the thesis' drop rule.
public struct ActiveSet: Sendable, Equatable {
    /// The effective active modules in manifest order.
    public var effective: [String]
    /// The modules dropped, in the order they were dropped.
    public var dropped: [DroppedModule]

    /// Creates an active set.
    public init(effective: [String], dropped: [DroppedModule]) {
        self.effective = effective
        self.dropped = dropped
    }
}
