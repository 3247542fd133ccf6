import Foundation

/// A parsed JSON value that remembers where each value starts in its source.
public indirect enum JSONValue: Sendable, Equatable {
    /// One `"key": value` pair of an object, in source order.
    public struct Member: Sendable, Equatable {
        /// The decoded key.
        public var key: String
        /// Where the key starts.
        public var keyPosition: JSONPosition
        /// The value.
        public var value: JSONValue
    }

    /// `null`.
    case null(JSONPosition)
    /// `true` or `false`.
    case bool(Bool, JSONPosition)
    /// A number, kept as its literal text so integers are exact.
    case number(String, JSONPosition)
    /// A string with escapes decoded.
    case string(String, JSONPosition)
    /// An array.
    case array([JSONValue], JSONPosition)
    /// An object; members in source order, keys unique.
    case object([Member], JSONPosition)

    /// Where the value starts.
    public var position: JSONPosition {
        switch self {
        case .null(let p), .bool(_, let p), .number(_, let p), .string(_, let p), .array(_, let p),
            .object(_, let p):
            return p
        }
    }

    /// A short description of the value's kind for messages ("a string", "an object").
    public var kindDescription: String {
        switch self {
        case .null: return "null"
        case .bool: return "a boolean"
        case .number: return "a number"
        case .string: return "a string"
        case .array: return "an array"
        case .object: return "an object"
        }
    }
}
