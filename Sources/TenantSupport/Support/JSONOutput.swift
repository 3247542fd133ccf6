import Foundation

/// JSON for reports: sorted keys, pretty, stable.
public enum JSONOutput {
    /// Encodes `value` as pretty JSON with sorted keys.
    public static func encode<T: Encodable>(_ value: T) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }
}
