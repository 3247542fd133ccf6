import Foundation
import TenantTestSupport
import Testing

/// No function in `Sources/` grows over 80 lines: a longer one is split into named steps.
///
/// The scan: every `func`, `init` and `subscript` declaration, from its first line to the brace that closes its body,
/// with comments and string literals (multi-line, raw and interpolated ones included) blanked first, so a brace in
/// a string or a comment does not count.
@Suite(.tags(.slow), .notInTheFastSet) struct FunctionLengthTests {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let sources = packageRoot.appendingPathComponent("Sources").path
    static let limit = 80

    /// Code that is being reworked in parallel and whose long functions are split there, not here: a folder of
    /// that name anywhere under `Sources/`, or a file whose name starts with the prefix. Remove an entry once its
    /// code has no function over the limit; the list is meant to end empty.
    static let allowedFolders: Set<String> = []
    static let allowedFilePrefixes: [String] = []

    struct LongFunction: CustomStringConvertible {
        var file: String
        var line: Int
        var name: String
        var lines: Int
        var description: String { "\(file):\(line) \(name) is \(lines) lines" }
    }

    /// `text` with every comment and the contents of every string literal replaced by spaces, newlines kept (an
    /// interpolation's code is kept: its braces are code).
    static func codeOnly(_ text: String) -> [UInt8] {
        let bytes = Array(text.utf8)
        let quote = UInt8(ascii: "\""), hash = UInt8(ascii: "#"), slash = UInt8(ascii: "/")
        let star = UInt8(ascii: "*"), backslash = UInt8(ascii: "\\"), newline = UInt8(ascii: "\n")
        let space = UInt8(ascii: " "), open = UInt8(ascii: "("), close = UInt8(ascii: ")")
        var out = bytes
        // The strings open around the current position: their delimiter (`"` or `"""`), `#` count, and the paren
        // depth at which the interpolation that is being read closes (nil: reading the string itself).
        struct Literal {
            var triple: Bool
            var hashes: Int
            var interpolationDepth: Int?
        }
        var literals: [Literal] = []
        var depth = 0
        var index = 0
        func starts(_ pattern: [UInt8], at position: Int) -> Bool {
            position + pattern.count <= bytes.count && Array(bytes[position..<position + pattern.count]) == pattern
        }
        func blank(_ range: Range<Int>) {
            for position in range where bytes[position] != newline { out[position] = space }
        }
        while index < bytes.count {
            let byte = bytes[index]
            if let literal = literals.last, literal.interpolationDepth == nil {
                // Inside a string literal.
                let delimiter =
                    (literal.triple ? [quote, quote, quote] : [quote]) + Array(repeating: hash, count: literal.hashes)
                let interpolation = [backslash] + Array(repeating: hash, count: literal.hashes) + [open]
                if starts(interpolation, at: index) {
                    blank(index..<index + interpolation.count)
                    index += interpolation.count
                    literals[literals.count - 1].interpolationDepth = depth
                    depth += 1
                } else if byte == backslash && literal.hashes == 0 {
                    blank(index..<min(index + 2, bytes.count))
                    index += 2
                } else if starts(delimiter, at: index) {
                    blank(index..<index + delimiter.count)
                    index += delimiter.count
                    literals.removeLast()
                } else {
                    blank(index..<index + 1)
                    index += 1
                }
                continue
            }
            if starts([slash, slash], at: index) {
                let end = bytes[index...].firstIndex(of: newline) ?? bytes.count
                blank(index..<end)
                index = end
            } else if starts([slash, star], at: index) {
                var nesting = 0
                var end = index
                while end < bytes.count {
                    if starts([slash, star], at: end) {
                        nesting += 1
                        end += 2
                    } else if starts([star, slash], at: end) {
                        nesting -= 1
                        end += 2
                        if nesting == 0 { break }
                    } else {
                        end += 1
                    }
                }
                blank(index..<min(end, bytes.count))
                index = end
            } else if byte == quote || byte == hash {
                var hashes = 0
                while index + hashes < bytes.count && bytes[index + hashes] == hash { hashes += 1 }
                guard index + hashes < bytes.count, bytes[index + hashes] == quote else {
                    index += max(hashes, 1)
                    continue
                }
                let triple = starts([quote, quote, quote], at: index + hashes)
                let length = hashes + (triple ? 3 : 1)
                blank(index..<index + length)
                index += length
                literals.append(Literal(triple: triple, hashes: hashes, interpolationDepth: nil))
            } else if byte == open {
                depth += 1
                index += 1
            } else if byte == close {
                depth -= 1
                index += 1
                if let literal = literals.last, literal.interpolationDepth == depth {
                    out[index - 1] = space
                    literals[literals.count - 1].interpolationDepth = nil
                }
            } else {
                index += 1
            }
        }
        return out
    }

    static let declaration = try? NSRegularExpression(
        pattern: #"^\s*(?:@\w+(?:\([^)]*\))?\s+)*(?:(?:public|package|internal|fileprivate|private|open|static|class|"#
            + #"final|override|mutating|nonmutating|nonisolated|convenience|required|dynamic)\s+)*"#
            + #"(func\s+[^\s(<]+|init[?!]?\s*[(<]|subscript\s*[(<])"#)

    /// The functions of `text` longer than `limit` lines (declaration to closing brace).
    static func longFunctions(in text: String, file: String, limit: Int) throws -> [LongFunction] {
        let declaration = try #require(Self.declaration)
        let lines = String(decoding: codeOnly(text), as: UTF8.self).components(separatedBy: "\n").map { Array($0.utf8) }
        var result: [LongFunction] = []
        for (number, line) in lines.enumerated() {
            let string = String(decoding: line, as: UTF8.self)
            guard
                let match = declaration.firstMatch(
                    in: string, range: NSRange(string.startIndex..., in: string)),
                let nameRange = Range(match.range(at: 1), in: string)
            else { continue }
            let start = string.utf8.distance(from: string.startIndex, to: nameRange.upperBound)
            guard let end = closingLine(lines, from: number, column: start) else { continue }
            let length = end - number + 1
            if length > limit {
                var name = String(string[nameRange])
                if name.hasPrefix("func") { name.removeFirst(4) }
                name = name.trimmingCharacters(in: CharacterSet(charactersIn: "(< ").union(.whitespaces))
                result.append(LongFunction(file: file, line: number + 1, name: name, lines: length))
            }
        }
        return result
    }

    /// The line of the brace that closes the body starting after `column` of line `first`; nil for a declaration
    /// without a body (a protocol requirement).
    static func closingLine(_ lines: [[UInt8]], from first: Int, column: Int) -> Int? {
        var nesting = 0
        var bodyStarted = false
        for number in first..<lines.count {
            if !bodyStarted && number - first > 30 { return nil }
            let line = lines[number]
            for position in (number == first ? column : 0)..<max(line.count, number == first ? column : 0) {
                switch line[position] {
                case UInt8(ascii: "("), UInt8(ascii: "["):
                    if !bodyStarted { nesting += 1 }
                case UInt8(ascii: ")"), UInt8(ascii: "]"):
                    if !bodyStarted { nesting -= 1 }
                case UInt8(ascii: "{"):
                    if bodyStarted {
                        nesting += 1
                    } else if nesting == 0 {
                        bodyStarted = true
                        nesting = 1
                    }
                case UInt8(ascii: "}"):
                    guard bodyStarted else {
                        if nesting == 0 { return nil }
                        continue
                    }
                    nesting -= 1
                    if nesting == 0 { return number }
                default: continue
                }
            }
        }
        return nil
    }

    /// Whether a source file (path relative to `Sources/`) is in an area whose long functions are allowed for now.
    static func isAllowed(_ relativePath: String) -> Bool {
        let components = relativePath.split(separator: "/").map(String.init)
        let name = components.last ?? ""
        return components.dropLast().contains { allowedFolders.contains($0) }
            || allowedFilePrefixes.contains { name.hasPrefix($0) }
    }

    @Test func noFunctionInSourcesIsLongerThanTheLimit() throws {
        var long: [LongFunction] = []
        let enumerator = FileManager.default.enumerator(atPath: Self.sources)
        while let file = enumerator?.nextObject() as? String {
            guard file.hasSuffix(".swift"), !Self.isAllowed(file) else { continue }
            let text = try String(contentsOfFile: "\(Self.sources)/\(file)", encoding: .utf8)
            long += try Self.longFunctions(in: text, file: file, limit: Self.limit)
        }
        let list = long.sorted { $0.file < $1.file }.map(\.description).joined(separator: "\n")
        #expect(long.isEmpty, "split these into named steps (at most \(Self.limit) lines each):\n\(list)")
    }

    static let typeDeclaration = try? NSRegularExpression(
        pattern:
            #"^(?:@\w+(?:\([^)]*\))?\s+)*(?:(?:public|package|internal|fileprivate|private|open|final|indirect)\s+)*"#
            + #"(?:struct|enum|class|actor|protocol)\s+(\w+)"#)

    /// The types declared at the top level of `text` (not nested ones, not extensions).
    static func topLevelTypes(in text: String) throws -> [String] {
        let declaration = try #require(Self.typeDeclaration)
        return String(decoding: codeOnly(text), as: UTF8.self).components(separatedBy: "\n").compactMap { line in
            guard let match = declaration.firstMatch(in: line, range: NSRange(line.startIndex..., in: line)),
                let range = Range(match.range(at: 1), in: line)
            else { return nil }
            return String(line[range])
        }
    }

    /// A file holds one main type, named after it, with at most a few small ones that belong to it: four or more
    /// top-level types in one file are split into files of their own (the same areas exempt for now).
    @Test func noFileInSourcesHoldsFourOrMoreTypes() throws {
        var crowded: [String] = []
        let enumerator = FileManager.default.enumerator(atPath: Self.sources)
        while let file = enumerator?.nextObject() as? String {
            guard file.hasSuffix(".swift"), !Self.isAllowed(file) else { continue }
            let types = try Self.topLevelTypes(
                in: try String(contentsOfFile: "\(Self.sources)/\(file)", encoding: .utf8))
            if types.count >= 4 { crowded.append("\(file): \(types.joined(separator: ", "))") }
        }
        #expect(crowded.isEmpty, "one main type per file, named after it:\n\(crowded.sorted().joined(separator: "\n"))")
        // The positive control: four types in one text are found, nested and commented ones are not.
        let four =
            "public struct A {\n    struct Nested {}\n}\nenum B {}\n// struct C {}\nfinal class C {}\nprotocol D {}\n"
        #expect(try Self.topLevelTypes(in: four) == ["A", "B", "C", "D"])
    }

    /// The positive control: the scan finds a function one line over the limit, and braces in strings and comments
    /// neither end nor lengthen a body.
    @Test func theScanFindsAFunctionOneLineOverTheLimit() throws {
        func function(_ name: String, bodyLines: Int) -> String {
            let tricky = [
                #"let a = "}""#, "// }", "/* { /* } */ */", #"let b = "\(["}"].map { $0 + "}" })""#,
                ##"let c = #"\"}"#"##, "let d = \"\"\"", "  }", "  \"\"\"",
            ]
            let body = (0..<bodyLines).map { index in "    " + (tricky[index % tricky.count]) }
            return
                (["    @discardableResult public static func \(name)(", "        x: Int = { 1 }()", "    ) -> Int {"]
                + body + ["    }"]).joined(separator: "\n")
        }
        let text = ["struct S {", function("long", bodyLines: 77), function("fits", bodyLines: 76), "}"]
            .joined(separator: "\n")
        let found = try Self.longFunctions(in: text, file: "S.swift", limit: 80)
        #expect(found.map(\.name) == ["long"])
        #expect(found.first?.lines == 81)
        #expect(found.first?.line == 2)
        // A protocol requirement has no body.
        #expect(try Self.longFunctions(in: "protocol P {\n    func f()\n}\n", file: "P.swift", limit: 0).isEmpty)
        // Only the listed areas are exempt.
        #expect(!Self.isAllowed("TenantTransaction/Transaction/Transaction.swift"))
        #expect(!Self.isAllowed("TenantRoll/Roll/RollUndo.swift"))
        #expect(!Self.isAllowed("TenantObservation/Observation/ObservationReader.swift"))
        #expect(!Self.isAllowed("TenantKit/WorkingCopy/WorkingCopySwitch.swift"))
        #expect(!Self.isAllowed("TenantKit/WorkingCopy/WorkingCopyPin.swift"))
        #expect(!Self.isAllowed("TenantKit/Resolve/Rollout.swift"))
    }
}
