import Foundation

/// The one JSON string escaper of tenantctl's writers. JSON's rule: `"` and `\` and every control character below
/// U+0020 are escaped; everything else may be written as is. A format escapes more scalars as `\uXXXX` on top of that
/// rule (``Format/extra``), and spells the control characters its own way (``Format/controls``):
///
/// - ``Format/encoder``: as Foundation's `JSONEncoder` (`\b \f \n \r \t`, else `\u00xx`): the audit report, the run
///   journal (``JSONBytes``);
/// - ``Format/file``: the files compose and the manifest writers produce (`\n \r \t`, else `\uXXXX`), with DEL and
///   U+2028/U+2029 (which some JavaScript parsers reject) escaped too;
/// - ``Format/script``: pure printable ASCII without `<`, `>`, `&`, `'`, for a JSON block inside an HTML page's
///   `<script>` (the HTML page's layer: everything else as `\uxxxx`, UTF-16 surrogate pairs above U+FFFF).
package enum JSONString {
    /// How a format spells what it escapes.
    package struct Format: Sendable {
        /// The spelling of the control characters below U+0020.
        enum Controls: Sendable {
            /// `\b \f \n \r \t`, else `\u00xx` (lowercase).
            case encoder
            /// `\n \r \t`, else `\uXXXX` (uppercase).
            case file
            /// `\n \t`, else `\uxxxx` (lowercase).
            case script
        }

        var controls: Controls
        /// Scalars escaped as `\uXXXX` on top of JSON's rule; nil: none.
        var extra: (@Sendable (Unicode.Scalar) -> Bool)?

        static let encoder = Format(controls: .encoder, extra: nil)
        package static let file = Format(controls: .file) { [0x7F, 0x2028, 0x2029].contains($0.value) }
        package static let script = Format(controls: .script) { scalar in
            !(scalar.value >= 0x20 && scalar.value < 0x7F) || "<>&'".unicodeScalars.contains(scalar)
        }

        var uppercase: Bool { controls == .file }
    }

    /// `value` as a JSON string literal in `format`.
    package static func quoted(_ value: String, _ format: Format) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(value.utf8.count + 2)
        append(value, format, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends `value` as a JSON string literal in `format`. Without extra escapes, the runs between the bytes that
    /// need escaping are copied whole (ids, names and paths have none).
    package static func append(_ value: String, _ format: Format, to bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "\""))
        if let extra = format.extra {
            for scalar in value.unicodeScalars {
                if scalar.value < 0x80 && (scalar.value < 0x20 || scalar == "\"" || scalar == "\\") {
                    appendEscape(UInt8(scalar.value), format, to: &bytes)
                } else if extra(scalar) {
                    appendHex(scalar.value, format, to: &bytes)
                } else {
                    bytes.append(contentsOf: String(scalar).utf8)
                }
            }
        } else {
            var value = value
            value.withUTF8 { utf8 in
                var start = 0
                for index in 0..<utf8.count {
                    let byte = utf8[index]
                    guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
                    bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start..<index]))
                    appendEscape(byte, format, to: &bytes)
                    start = index + 1
                }
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start..<utf8.count]))
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    /// The escape of a quote, a backslash or a control character below U+0020.
    private static func appendEscape(_ byte: UInt8, _ format: Format, to bytes: inout [UInt8]) {
        func raw(_ text: StaticString) { text.withUTF8Buffer { bytes.append(contentsOf: $0) } }
        switch (byte, format.controls) {
        case (UInt8(ascii: "\""), _): raw("\\\"")
        case (UInt8(ascii: "\\"), _): raw("\\\\")
        case (0x0A, _): raw("\\n")
        case (0x09, _): raw("\\t")
        case (0x0D, .encoder), (0x0D, .file): raw("\\r")
        case (0x08, .encoder): raw("\\b")
        case (0x0C, .encoder): raw("\\f")
        default: appendHex(UInt32(byte), format, to: &bytes)
        }
    }

    /// `\uXXXX` (a UTF-16 surrogate pair above U+FFFF).
    private static func appendHex(_ value: UInt32, _ format: Format, to bytes: inout [UInt8]) {
        let digits = format.uppercase ? upper : lower
        func unit(_ unit: UInt32) {
            bytes.append(UInt8(ascii: "\\"))
            bytes.append(UInt8(ascii: "u"))
            for shift in stride(from: 12, through: 0, by: -4) {
                bytes.append(digits[Int((unit >> UInt32(shift)) & 0xF)])
            }
        }
        if value <= 0xFFFF {
            unit(value)
        } else {
            let offset = value - 0x10000
            unit(0xD800 + (offset >> 10))
            unit(0xDC00 + (offset & 0x3FF))
        }
    }

    private static let lower = Array("0123456789abcdef".utf8)
    private static let upper = Array("0123456789ABCDEF".utf8)
}
