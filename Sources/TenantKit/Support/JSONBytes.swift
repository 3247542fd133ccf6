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

    /// `"name" : "value"` as a member when `value` is set; `first` says whether no member came before, and is
    /// cleared once one is written.
    mutating func member(_ name: StaticString, _ value: String?, _ level: Int, first: inout Bool) {
        guard let value else { return }
        member(name, level, first: first)
        string(value)
        first = false
    }

    /// `"name" : true|false` as a member when `value` is set, as for a string.
    mutating func member(_ name: StaticString, _ value: Bool?, _ level: Int, first: inout Bool) {
        guard let value else { return }
        member(name, level, first: first)
        bool(value)
        first = false
    }

    /// Appends `value` as a JSON string, as `JSONEncoder` escapes it (``JSONString/Format/encoder``).
    static func appendString(_ value: String, to bytes: inout [UInt8]) {
        JSONString.append(value, .encoder, to: &bytes)
    }
}
