import Foundation

/// Something in the observed state that makes roll impossible.
public struct RollError: Error, Sendable, Equatable, CustomStringConvertible {
    public var description: String

    public init(_ description: String) { self.description = description }
}
