import Foundation

/// A git object id of any hash algorithm (SHA-1: 40 hex digits, SHA-256: 64), always full and lower case.
///
/// A value can only hold a valid id: ``init(_:)`` checks it. It encodes as the plain hex string (JSON, journals),
/// prints as it (`"\(id)"`), and orders as it. The static helpers below work on ids still held as `String`.
public struct ObjectID: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The full id, lower-case hexadecimal.
    public let hex: String

    /// The id `hex` names; nil unless it is a full lower-case hexadecimal id (as git prints one).
    public init?(_ hex: String) {
        guard Self.isValid(hex) else { return nil }
        self.hex = hex
    }

    /// The first ``shortLength`` characters, for a person to read (tables, messages).
    public var short: String { Self.short(hex) }

    /// The number of raw bytes of the id (20 or 32).
    public var byteLength: Int { Self.byteLength(ofHex: hex) }

    public var description: String { hex }

    public static func < (lhs: ObjectID, rhs: ObjectID) -> Bool { lhs.hex < rhs.hex }
}

extension ObjectID: Codable {
    /// Decodes the plain hex string; anything else is a data-corrupted error naming the value.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let id = ObjectID(text) else {
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "\(text) is not a full hexadecimal object id")
        }
        self = id
    }

    /// Encodes the plain hex string, so an id reads the same as one held in a `String`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(hex)
    }
}

extension ObjectID {
    /// True for a full lower-case hexadecimal object id.
    public static func isValid(_ text: String) -> Bool {
        (text.utf8.count == 40 || text.utf8.count == 64)
            && text.utf8.allSatisfy { ($0 >= 48 && $0 <= 57) || ($0 >= 97 && $0 <= 102) }
    }

    /// The number of raw bytes of an id written as `hex` (20 or 32).
    public static func byteLength(ofHex hex: String) -> Int { hex.utf8.count / 2 }

    /// The length of a commit id a person reads (tables, messages). JSON always has the full id.
    public static let shortLength = 7

    /// The first ``shortLength`` characters of `id`.
    public static func short(_ id: String) -> String { String(id.prefix(shortLength)) }

    /// The short id of `id`, or `none` when there is none.
    public static func short(_ id: String?, none: String) -> String { id.map { short($0) } ?? none }

    /// The short id of `id`, or `none` when there is none.
    public static func short(_ id: ObjectID?, none: String) -> String { id?.short ?? none }
}
