import Foundation
import TenantKit
import Testing

@testable import TenantCompose
@testable import TenantExample

/// The four quoted-token formats share one escaper (`Backslashed`); each keeps its own spelling of a control
/// character. These pin every format's output, so a change to the shared part shows in all four.
@Suite("quoting: JSON, Swift literal, .strings, fast-import") struct BackslashedTests {
    let hostile = "a\"b\\c\nd\re\tf\u{1}g\u{7F}h\u{85}i\u{2028}jé"

    @Test func json() throws {
        let quoted = JSONText.quoted(hostile)
        #expect(quoted == #""a\"b\\c\nd\re\tf\u0001g\u007Fh"# + "\u{85}" + #"i\u2028jé""#)
        let decoded = try JSONSerialization.jsonObject(with: Data("[\(quoted)]".utf8)) as? [String]
        #expect(decoded == [hostile])
    }

    @Test func swiftLiteral() {
        #expect(PackageManifestWriter.literal(hostile) == #""a\"b\\c\nd\re\tf\u{1}g\u{7f}h\u{85}i"# + "\u{2028}jé\"")
    }

    @Test func stringsFile() {
        #expect(StringsFileWriter.escaped(hostile) == #"a\"b\\c\nd\re\tf\U0001g\U007Fh\U0085i"# + "\u{2028}jé")
    }

    @Test func fastImportPath() {
        #expect(FastImportStream.quote("plain/path") == "plain/path")
        #expect(FastImportStream.quote("a b\"\\\n\r\u{1}") == #""a b\"\\\n\015\001""#)
    }
}
