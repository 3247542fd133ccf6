import Foundation

/// Object ids of any hash algorithm (SHA-1: 40 hex digits, SHA-256: 64).
public enum ObjectID {
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
}
