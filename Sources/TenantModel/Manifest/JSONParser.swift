import Foundation

/// A strict RFC 8259 JSON parser that reports line and column and refuses duplicate keys.
public enum JSONParser {
    /// The deepest nesting accepted, so hostile input cannot exhaust the stack.
    public static let maximumDepth = 256

    /// Parses one JSON document (surrounding whitespace allowed, a leading UTF-8 BOM skipped).
    public static func parse(_ data: Data) throws(JSONSyntaxError) -> JSONValue {
        var parser = Parser(bytes: [UInt8](data))
        return try parser.parseDocument()
    }
}

private struct Parser {
    let bytes: [UInt8]
    var index = 0
    var line = 1
    var column = 1
    var depth = 0

    init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    var position: JSONPosition { JSONPosition(line: line, column: column) }

    mutating func parseDocument() throws(JSONSyntaxError) -> JSONValue {
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3 }
        skipWhitespace()
        let value = try parseValue()
        skipWhitespace()
        if index < bytes.count {
            throw error("unexpected \(describeCurrent()) after the end of the document")
        }
        return value
    }

    func error(_ message: String, at position: JSONPosition? = nil) -> JSONSyntaxError {
        JSONSyntaxError(message: message, position: position ?? self.position)
    }

    func describeCurrent() -> String {
        guard index < bytes.count else { return "end of input" }
        let byte = bytes[index]
        if byte >= 0x21 && byte < 0x7F { return "character '\(Character(UnicodeScalar(byte)))'" }
        return String(format: "byte 0x%02X", byte)
    }

    mutating func advance() {
        let byte = bytes[index]
        index += 1
        if byte == 0x0A {
            line += 1
            column = 1
        } else if byte & 0xC0 != 0x80 {
            column += 1
        }
    }

    mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: advance()
            default: return
            }
        }
    }

    mutating func expect(_ byte: UInt8, _ what: String) throws(JSONSyntaxError) {
        guard index < bytes.count else { throw error("unexpected end of input, expected \(what)") }
        guard bytes[index] == byte else { throw error("expected \(what), found \(describeCurrent())") }
        advance()
    }

    mutating func parseValue() throws(JSONSyntaxError) -> JSONValue {
        guard index < bytes.count else { throw error("unexpected end of input") }
        let start = position
        switch bytes[index] {
        case UInt8(ascii: "{"): return try parseObject()
        case UInt8(ascii: "["): return try parseArray()
        case UInt8(ascii: "\""): return .string(try parseString(), start)
        case UInt8(ascii: "t"):
            try parseLiteral("true")
            return .bool(true, start)
        case UInt8(ascii: "f"):
            try parseLiteral("false")
            return .bool(false, start)
        case UInt8(ascii: "n"):
            try parseLiteral("null")
            return .null(start)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return .number(try parseNumber(), start)
        default:
            throw error("unexpected \(describeCurrent()), expected a value")
        }
    }

    mutating func parseLiteral(_ literal: String) throws(JSONSyntaxError) {
        let start = position
        for byte in literal.utf8 {
            guard index < bytes.count else { throw error("unexpected end of input in '\(literal)'") }
            guard bytes[index] == byte else { throw error("invalid literal, expected '\(literal)'", at: start) }
            advance()
        }
    }

    mutating func enter() throws(JSONSyntaxError) {
        depth += 1
        if depth > JSONParser.maximumDepth {
            throw error("nesting deeper than \(JSONParser.maximumDepth) levels")
        }
    }

    mutating func parseObject() throws(JSONSyntaxError) -> JSONValue {
        let start = position
        try enter()
        advance()  // {
        var members: [JSONValue.Member] = []
        var seen: Set<String> = []
        skipWhitespace()
        if index < bytes.count && bytes[index] == UInt8(ascii: "}") {
            advance()
            depth -= 1
            return .object(members, start)
        }
        while true {
            skipWhitespace()
            guard index < bytes.count else { throw error("unexpected end of input, expected a key") }
            guard bytes[index] == UInt8(ascii: "\"") else {
                throw error("expected a key in double quotes, found \(describeCurrent())")
            }
            let keyPosition = position
            let key = try parseString()
            if !seen.insert(key).inserted {
                throw error("duplicate key \"\(key)\"", at: keyPosition)
            }
            skipWhitespace()
            try expect(UInt8(ascii: ":"), "':' after key \"\(key)\"")
            skipWhitespace()
            let value = try parseValue()
            members.append(JSONValue.Member(key: key, keyPosition: keyPosition, value: value))
            skipWhitespace()
            guard index < bytes.count else { throw error("unexpected end of input, expected ',' or '}'") }
            if bytes[index] == UInt8(ascii: ",") {
                advance()
                continue
            }
            if bytes[index] == UInt8(ascii: "}") {
                advance()
                depth -= 1
                return .object(members, start)
            }
            throw error("expected ',' or '}', found \(describeCurrent())")
        }
    }

    mutating func parseArray() throws(JSONSyntaxError) -> JSONValue {
        let start = position
        try enter()
        advance()  // [
        var elements: [JSONValue] = []
        skipWhitespace()
        if index < bytes.count && bytes[index] == UInt8(ascii: "]") {
            advance()
            depth -= 1
            return .array(elements, start)
        }
        while true {
            skipWhitespace()
            elements.append(try parseValue())
            skipWhitespace()
            guard index < bytes.count else { throw error("unexpected end of input, expected ',' or ']'") }
            if bytes[index] == UInt8(ascii: ",") {
                advance()
                continue
            }
            if bytes[index] == UInt8(ascii: "]") {
                advance()
                depth -= 1
                return .array(elements, start)
            }
            throw error("expected ',' or ']', found \(describeCurrent())")
        }
    }

    mutating func parseHex4() throws(JSONSyntaxError) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard index < bytes.count else { throw error("unexpected end of input in \\u escape") }
            let byte = bytes[index]
            let digit: UInt32
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
            default: throw error("invalid hex digit in \\u escape")
            }
            value = value * 16 + digit
            advance()
        }
        return value
    }

    mutating func parseString() throws(JSONSyntaxError) -> String {
        let start = position
        advance()  // opening quote
        var buffer: [UInt8] = []
        while true {
            guard index < bytes.count else { throw error("unterminated string (started at line \(start.line))") }
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                advance()
                break
            }
            if byte < 0x20 {
                throw error("control character U+\(String(format: "%04X", byte)) in string; use an escape")
            }
            if byte != UInt8(ascii: "\\") {
                buffer.append(byte)
                advance()
                continue
            }
            let escapePosition = position
            advance()
            guard index < bytes.count else { throw error("unexpected end of input in escape") }
            let escaped = bytes[index]
            advance()
            switch escaped {
            case UInt8(ascii: "\""): buffer.append(0x22)
            case UInt8(ascii: "\\"): buffer.append(0x5C)
            case UInt8(ascii: "/"): buffer.append(0x2F)
            case UInt8(ascii: "b"): buffer.append(0x08)
            case UInt8(ascii: "f"): buffer.append(0x0C)
            case UInt8(ascii: "n"): buffer.append(0x0A)
            case UInt8(ascii: "r"): buffer.append(0x0D)
            case UInt8(ascii: "t"): buffer.append(0x09)
            case UInt8(ascii: "u"):
                var code = try parseHex4()
                if (0xD800...0xDBFF).contains(code) {
                    guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"),
                        bytes[index + 1] == UInt8(ascii: "u")
                    else { throw error("unpaired high surrogate in \\u escape", at: escapePosition) }
                    advance()
                    advance()
                    let low = try parseHex4()
                    guard (0xDC00...0xDFFF).contains(low) else {
                        throw error("invalid low surrogate in \\u escape", at: escapePosition)
                    }
                    code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                } else if (0xDC00...0xDFFF).contains(code) {
                    throw error("unpaired low surrogate in \\u escape", at: escapePosition)
                }
                guard let scalar = Unicode.Scalar(code) else {
                    throw error("invalid \\u escape", at: escapePosition)
                }
                buffer.append(contentsOf: Array(String(Character(scalar)).utf8))
            default:
                throw error("invalid escape sequence", at: escapePosition)
            }
        }
        // ASCII (names, ids, paths: nearly every string of 1000 tenant files) needs no validation.
        if buffer.allSatisfy({ $0 < 0x80 }) { return String(decoding: buffer, as: UTF8.self) }
        guard let string = String(bytes: buffer, encoding: .utf8) else {
            throw error("string is not valid UTF-8", at: start)
        }
        return string
    }

    mutating func digits() -> Int {
        var count = 0
        while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) {
            advance()
            count += 1
        }
        return count
    }

    mutating func parseNumber() throws(JSONSyntaxError) -> String {
        let startIndex = index
        if bytes[index] == UInt8(ascii: "-") { advance() }
        guard index < bytes.count else { throw error("unexpected end of input in number") }
        if bytes[index] == UInt8(ascii: "0") {
            advance()
            if index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) {
                throw error("leading zeros are not allowed in numbers")
            }
        } else if digits() == 0 {
            throw error("expected a digit, found \(describeCurrent())")
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            advance()
            if digits() == 0 { throw error("expected a digit after '.', found \(describeCurrent())") }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            advance()
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                advance()
            }
            if digits() == 0 { throw error("expected a digit in exponent, found \(describeCurrent())") }
        }
        return String(decoding: bytes[startIndex..<index], as: UTF8.self)
    }
}
