import Foundation
import TenantKit

/// What ``ExampleBuilder/build(in:stage:)`` created.
public struct ExampleResult: Sendable, Codable, Equatable {
    /// The example directory (absolute).
    public var directory: String
    /// The directory of the bare remotes.
    public var remotes: String
    /// The superproject clone with initialised submodules.
    public var workspace: String
    /// The stage that was built.
    public var stage: ExampleStage
    /// Repository (`Superproject`, module names) → branch → commit id, as on the remotes.
    public var branches: [String: [String: String]]
}
