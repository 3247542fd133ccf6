/// Text from repositories (tenant names, commit subjects, paths, what a remote said) made safe for a terminal or a
/// CI log: a control character — C0, DEL or C1, such as ESC starting a terminal sequence, BEL, a carriage return
/// that overwrites the line — is shown as an escape (`\e`, `\a`, `\r`, `\x7f`, `\u{9b}`) instead of acting. The one
/// escaper of every text, table and Markdown output; JSON keeps the exact text (JSON's own escaping).
public enum TerminalText {
    /// `text` with every control character escaped; with `keepingLayout`, line feeds and tabs are kept (multi-line
    /// messages), else they are escaped too (`\n`, `\t`: one table cell, one line). Text without control characters
    /// is returned as it is, without a copy.
    public static func escaped(_ text: String, keepingLayout: Bool = false) -> String {
        guard needsEscaping(text, keepingLayout: keepingLayout) else { return text }
        var out = ""
        out.reserveCapacity(text.utf8.count + 8)
        for scalar in text.unicodeScalars {
            if let spelled = spelling(scalar, keepingLayout: keepingLayout) {
                out += spelled
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// Whether `text` holds a character ``escaped(_:keepingLayout:)`` changes (a scan of its UTF-8 bytes).
    static func needsEscaping(_ text: String, keepingLayout: Bool) -> Bool {
        var previous: UInt8 = 0
        for byte in text.utf8 {
            if byte < 0x20 {
                if !(keepingLayout && (byte == 0x0A || byte == 0x09)) { return true }
            } else if byte == 0x7F || (previous == 0xC2 && (0x80...0x9F).contains(byte)) {
                return true
            }
            previous = byte
        }
        return false
    }

    /// How a control scalar is shown, or nil for any other.
    static func spelling(_ scalar: Unicode.Scalar, keepingLayout: Bool) -> String? {
        switch scalar.value {
        case 0x0A: return keepingLayout ? nil : "\\n"
        case 0x09: return keepingLayout ? nil : "\\t"
        case 0x0D: return "\\r"
        case 0x1B: return "\\e"
        case 0x07: return "\\a"
        case 0x00..<0x20, 0x7F: return "\\x" + hex(scalar.value)
        case 0x80...0x9F: return "\\u{" + hex(scalar.value) + "}"
        default: return nil
        }
    }

    static func hex(_ value: UInt32) -> String {
        let digits = String(value, radix: 16)
        return digits.count < 2 ? "0" + digits : digits
    }
}
