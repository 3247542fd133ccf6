/// Pieces of JSON written as bytes, exactly as Foundation's `JSONEncoder` writes them with `.prettyPrinted`,
/// `.sortedKeys` and `.withoutEscapingSlashes` (`"key" : value`, two spaces per level, `"` `\` and control characters
/// escaped, everything else as UTF-8). For the large documents (the audit report's strings, the roll journal), where
/// `JSONEncoder` costs tens of milliseconds each time; their tests compare the bytes with `JSONEncoder`'s.
struct JSONBytes {
    private(set) var bytes: [UInt8] = []

    init(capacity: Int = 1 << 16) { bytes.reserveCapacity(capacity) }

    mutating func raw(_ text: StaticString) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    /// A new line and the indentation of `level`.
    mutating func line(_ level: Int) {
        bytes.append(UInt8(ascii: "\n"))
        bytes.append(contentsOf: repeatElement(UInt8(ascii: " "), count: 2 * level))
    }

    /// `"key" : ` (the caller has written the line and its indentation).
    mutating func key(_ name: StaticString) {
        bytes.append(UInt8(ascii: "\""))
        raw(name)
        raw("\" : ")
    }

    mutating func int(_ value: Int) { bytes.append(contentsOf: String(value).utf8) }

    mutating func bool(_ value: Bool) { value ? raw("true") : raw("false") }

    /// `,` (unless `first`), a new line at `level` and `"name" : `: the start of an object member.
    mutating func member(_ name: StaticString, _ level: Int, first: Bool = false) {
        if !first { bytes.append(UInt8(ascii: ",")) }
        line(level)
        key(name)
    }

    mutating func string(_ value: String) { Self.appendString(value, to: &bytes) }

    /// Appends `value` as a JSON string: the runs between the bytes that need escaping are copied whole (ids, names
    /// and paths have none); a quote, a backslash or a control character is escaped as `JSONEncoder` escapes it.
    static func appendString(_ value: String, to bytes: inout [UInt8]) {
        var value = value
        bytes.append(UInt8(ascii: "\""))
        value.withUTF8 { utf8 in
            var start = 0
            for index in 0..<utf8.count {
                let byte = utf8[index]
                guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start..<index]))
                appendEscape(byte, to: &bytes)
                start = index + 1
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start..<utf8.count]))
        }
        bytes.append(UInt8(ascii: "\""))
    }

    /// The escape of a quote, a backslash or a control character, as `JSONEncoder` writes it.
    private static func appendEscape(_ byte: UInt8, to bytes: inout [UInt8]) {
        func raw(_ text: StaticString) { text.withUTF8Buffer { bytes.append(contentsOf: $0) } }
        switch byte {
        case UInt8(ascii: "\""): raw("\\\"")
        case UInt8(ascii: "\\"): raw("\\\\")
        case 0x08: raw("\\b")
        case 0x0C: raw("\\f")
        case 0x0A: raw("\\n")
        case 0x0D: raw("\\r")
        case 0x09: raw("\\t")
        default:
            raw("\\u00")
            bytes.append(hex[Int(byte >> 4)])
            bytes.append(hex[Int(byte & 0xF)])
        }
    }

    private static let hex = Array("0123456789abcdef".utf8)
}
