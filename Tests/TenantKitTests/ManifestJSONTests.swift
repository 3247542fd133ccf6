import Foundation
import TenantKit
import Testing

private func parse(_ text: String) -> Result<JSONValue, JSONSyntaxError> {
    do {
        return .success(try JSONParser.parse(Data(text.utf8)))
    } catch {
        return .failure(error)
    }
}

private func syntaxError(_ text: String) -> JSONSyntaxError? {
    if case .failure(let error) = parse(text) { return error }
    return nil
}

@Suite("JSON parser")
struct ManifestJSONTests {
    @Test func parsesNestedValuesWithPositions() throws {
        let value = try JSONParser.parse(Data("{\n  \"a\": [1, -2.5e3, true, null],\n  \"b\": \"x\"\n}".utf8))
        guard case .object(let members, let position) = value else {
            Issue.record("expected an object")
            return
        }
        #expect(position == JSONPosition(line: 1, column: 1))
        #expect(members.map(\.key) == ["a", "b"])
        #expect(members[0].keyPosition == JSONPosition(line: 2, column: 3))
        #expect(members[1].value == .string("x", JSONPosition(line: 3, column: 8)))
        guard case .array(let elements, _) = members[0].value else {
            Issue.record("expected an array")
            return
        }
        #expect(elements[1] == .number("-2.5e3", JSONPosition(line: 2, column: 12)))
        #expect(elements[2] == .bool(true, JSONPosition(line: 2, column: 20)))
    }

    @Test func decodesEscapesAndSurrogatePairs() throws {
        let value = try JSONParser.parse(Data(#""a\"b\\c\/\n\t\u00e9\ud83d\ude00""#.utf8))
        #expect(value == .string("a\"b\\c/\n\té😀", JSONPosition(line: 1, column: 1)))
    }

    @Test func columnsCountUnicodeScalars() {
        let error = syntaxError("{\"é😀\": x}")
        #expect(error?.position == JSONPosition(line: 1, column: 8))
    }

    @Test func truncatedInputReportsEndPosition() {
        let error = syntaxError("{\n  \"version\": 1,\n  \"modules\": [\n")
        #expect(error?.message.contains("unexpected end of input") == true)
        #expect(error?.position.line == 4)
        #expect(error?.position.column == 1)
    }

    @Test(arguments: [
        ("{\"a\": 1,}", "expected a key"),
        ("[1, 2", "unexpected end of input"),
        ("{\"a\" 1}", "expected ':'"),
        ("01", "leading zeros"),
        ("1.", "expected a digit after '.'"),
        ("\"\\x\"", "invalid escape"),
        ("\"\\ud83d\"", "unpaired high surrogate"),
        ("\"\\ude00\"", "unpaired low surrogate"),
        ("\"a\nb\"", "control character"),
        ("{\"a\": 1, \"a\": 2}", "duplicate key \"a\""),
        ("tru", "unexpected end of input"),
        ("nul!", "invalid literal"),
        ("{} x", "after the end of the document"),
        ("\"abc", "unterminated string"),
        ("", "unexpected end of input"),
    ])
    func rejectsInvalidJSON(text: String, expected: String) {
        let error = syntaxError(text)
        #expect(error != nil)
        #expect(error?.message.contains(expected) == true, "\(String(describing: error))")
    }

    @Test func duplicateKeyPointsAtSecondKey() {
        let error = syntaxError("{\n  \"a\": 1,\n  \"a\": 2\n}")
        #expect(error?.position == JSONPosition(line: 3, column: 3))
    }

    @Test func deepNestingIsRefusedNotCrashing() {
        let text = String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000)
        #expect(syntaxError(text)?.message.contains("nesting deeper") == true)
    }

    @Test func invalidUTF8InStringIsRefused() {
        var data = Data("\"a".utf8)
        data.append(contentsOf: [0xFF, 0x22])
        #expect(throws: JSONSyntaxError.self) { try JSONParser.parse(data) }
    }
}
