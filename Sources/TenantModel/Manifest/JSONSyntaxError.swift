import Foundation

/// A syntax error found by ``JSONParser``.
public struct JSONSyntaxError: Error, Sendable, Equatable {
    /// What is wrong, e.g. "unexpected end of input".
    public var message: String
    /// Where it was found.
    public var position: JSONPosition
}
