import Foundation
import TenantKit

/// Why the example could not be created.
public struct ExampleError: Error, Sendable, CustomStringConvertible {
    /// The message for the user.
    public var description: String
}
