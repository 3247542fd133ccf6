import Foundation
import TenantKit
import Testing

@testable import TenantAudit

/// The bytes each JSON writer writes for a string with quotes, backslashes, every kind of control character,
/// U+2028/U+2029, non-ASCII and `</script>`: pinned, so that folding the writers onto one escaper changes none.
@Suite struct JSONEscapingTests {
    static let hostile = "q\"b\\c\u{0}\u{1}\u{8}\u{9}\u{A}\u{C}\u{D}\u{1F}\u{7F}\u{2028}\u{2029}äé😀</script>"

    /// The audit report and the run journal: as `JSONEncoder` writes it.
    @Test func theReportAndJournalWriterEscapesAsJSONEncoder() throws {
        var json = JSONBytes()
        json.string(Self.hostile)
        let expected =
            #""q\"b\\c\u0000\u0001\b\t\n\f\r\u001f"# + "\u{7F}\u{2028}\u{2029}äé😀</script>\""
        #expect(String(decoding: json.bytes, as: UTF8.self) == expected)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        #expect(json.bytes == Array(try encoder.encode(Self.hostile)))
    }

    /// The files compose and the manifest writers produce.
    @Test func theFileWriterEscapesControlsDELAndLineSeparators() {
        let expected =
            #""q\"b\\c\u0000\u0001\u0008\t\n\u000C\r\u001F\u007F\u2028\u2029"# + "äé😀</script>\""
        #expect(JSONText.quoted(Self.hostile) == expected)
        #expect(JSONText.inlineArray(["a", "\u{2028}"]) == #"["a", "\u2028"]"#)
    }

    /// The HTML page's data block: controls shown as `[U+XXXX]` first, then pure printable ASCII without `<>&'`.
    @Test func theHTMLPageWritesPureASCIIAndNoMarkup() {
        let expected =
            #""q\"b\\c[U+0000][U+0001][U+0008]\t\n[U+000C][U+000D][U+001F][U+007F]\u2028\u2029"#
            + #"\u00e4\u00e9\ud83d\ude00\u003c/script\u003e""#
        #expect(AuditHTMLRenderer.jsonString(Self.hostile) == expected)
        #expect(AuditHTMLRenderer.jsonString("a&b'c") == #""a\u0026b\u0027c""#)
    }

    /// The audit report's own writer writes the same string as the journal's.
    @Test func theAuditJSONWriterWritesStringsAsTheJournal() throws {
        var json = JSONBytes()
        json.string(Self.hostile)
        let report = AuditReport(generalBranch: Self.hostile, modules: [], tenants: [], findings: [])
        let written = String(decoding: AuditJSONWriter.bytes(report), as: UTF8.self)
        #expect(written.contains(String(decoding: json.bytes, as: UTF8.self)), "\(written)")
    }

    /// Every writer's output is JSON that reads back as the string.
    @Test func everyWriterWritesJSONThatReadsBack() throws {
        var json = JSONBytes()
        json.string(Self.hostile)
        for (writer, text) in [
            ("encoder", String(decoding: json.bytes, as: UTF8.self)), ("file", JSONText.quoted(Self.hostile)),
        ] {
            let read = try JSONSerialization.jsonObject(with: Data(text.utf8), options: .fragmentsAllowed) as? String
            #expect(read == Self.hostile, "\(writer)")
        }
    }
}
