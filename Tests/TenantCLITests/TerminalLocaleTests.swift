import Foundation
import TenantKit
import TenantTestSupport
import Testing

/// Output for the terminal the person has: the table's glyphs only where the locale says the terminal shows UTF-8
/// (else ASCII, the same legend), and commands to copy quoted for the shell.
@Suite struct TerminalLocaleTests {
    @Test func theLocaleIsReadAsCDoesLCAllThenLCCTypeThenLang() {
        #expect(TerminalLocale.isUTF8(["LC_ALL": "C.UTF-8"]))
        #expect(TerminalLocale.isUTF8(["LANG": "en_US.utf8"]))
        #expect(TerminalLocale.isUTF8(["LC_CTYPE": "de_DE.UTF-8", "LANG": "C"]))
        #expect(!TerminalLocale.isUTF8(["LC_ALL": "C", "LC_CTYPE": "de_DE.UTF-8", "LANG": "en_US.UTF-8"]))
        #expect(!TerminalLocale.isUTF8(["LC_ALL": "", "LC_CTYPE": "POSIX", "LANG": "en_US.UTF-8"]))
        #expect(!TerminalLocale.isUTF8(["LANG": "C"]))
        #expect(!TerminalLocale.isUTF8([:]), "no locale is the C locale")
        #expect(TerminalLocale.ascii("✎3↓1 · 3 tenants × 4 modules") == "+3-1 . 3 tenants x 4 modules")
    }

    @Test func withoutAUTF8LocaleTheTableIsASCIIWithItsLegend() throws {
        let sandbox = try GitSandbox()
        let directory = sandbox.path("erp")
        #expect(sandbox.tenantctl(["example", directory]).status == 0)
        let workspace = directory + "/workspace"
        let glyphs = ["✎", "·", "↓", "×"]
        // The positive control: a UTF-8 locale shows them.
        let utf8 = sandbox.tenantctl(["audit"], in: workspace, environment: ["LC_ALL": "C.UTF-8"])
        for glyph in glyphs { #expect(utf8.stdout.contains(glyph), "\(glyph): \(utf8.stdout)") }
        for environment in [
            ["LC_ALL": "C"], ["LC_ALL": "POSIX"], ["LC_ALL": "", "LANG": "C"],
            ["LC_ALL": "", "LC_CTYPE": "C", "LANG": "en_US.UTF-8"],
        ] {
            let run = sandbox.tenantctl(["audit"], in: workspace, environment: environment)
            #expect(run.status == utf8.status, "\(environment): \(run.stderr)")
            for glyph in glyphs { #expect(!run.stdout.contains(glyph), "\(environment): \(glyph) in \(run.stdout)") }
            #expect(run.stdout.contains(". up to date"), "\(environment): \(run.stdout)")
            #expect(run.stdout.contains("+n customised by n commits"), "\(environment): \(run.stdout)")
            #expect(run.stdout.contains("3 tenants x 4 modules"), "\(environment): \(run.stdout)")
        }
        // JSON is data: the same whatever the locale.
        let json = sandbox.tenantctl(["audit", "--json"], in: workspace, environment: ["LC_ALL": "C"])
        #expect((try? JSONSerialization.jsonObject(with: Data(json.stdout.utf8))) != nil, "\(json.stdout)")
    }

    /// The column of `title` in a table's header line (found by `header`), and whether each of the `count` rows
    /// after it has its cell starting there (or ends before it): a column shifted by a wider stand-in starts a
    /// column later.
    static func columnAligned(_ output: String, header: String, title: String, count: Int) throws -> Bool {
        let lines = output.split(separator: "\n", omittingEmptySubsequences: false).map { Array($0) }
        let start = try #require(lines.firstIndex { String($0).hasPrefix(header) }, "\(output)")
        let column = try #require(String(lines[start]).range(of: title)).lowerBound.utf16Offset(
            in: String(lines[start]))
        let rows = lines[(start + 1)...].prefix(count)
        #expect(rows.count == count, "\(output)")
        return rows.allSatisfy { row in row.count <= column || (row[column - 1] == " " && row[column] != " ") }
    }

    /// A cell whose glyph has a wider ASCII stand-in (`…` three dots, `→` two characters) keeps the columns after it
    /// aligned: the table is measured as the terminal shows it.
    @Test func aWiderStandInInACellKeepsTheColumnsAfterItAligned() throws {
        let table = TextTable(
            header: ["BRANCH", "COMMIT", "DETAILS"],
            rows: [["t1", "abc1234 → def5678", "rolled"], ["t2", "1, 2, …", "listed"], ["general_dev", "-", "up"]])
        let ascii = table.render(ascii: true)
        #expect(!ascii.contains("…") && !ascii.contains("→"), "\(ascii)")
        #expect(try Self.columnAligned(ascii, header: "BRANCH", title: "DETAILS", count: 3), "\(ascii)")
        // The positive control: the UTF-8 table, shown as ASCII afterwards, was not.
        let late = TerminalLocale.ascii(table.render())
        #expect(try !Self.columnAligned(late, header: "BRANCH", title: "DETAILS", count: 3), "\(late)")
        // A console without UTF-8 measures its tables so.
        var console = Console(out: BufferOutputSink(), err: BufferOutputSink())
        console.ascii = true
        #expect(console.table(table) == ascii)
    }

    /// roll's report under `LC_ALL=C`: its COMMIT column's `→` is `->`, and DETAILS stays aligned.
    @Test func rollsTableStaysAlignedWithoutAUTF8Locale() throws {
        let sandbox = try GitSandbox()
        let example = try sandbox.exampleCopy(in: sandbox.path("erp"), stage: .afterUpdates)
        let utf8 = sandbox.tenantctl(["roll", "--dry-run"], in: example.workspace, environment: ["LC_ALL": "C.UTF-8"])
        #expect(utf8.status == 0, "\(utf8.stdout)\(utf8.stderr)")
        #expect(utf8.stdout.contains(" → "), "the positive control has the glyph: \(utf8.stdout)")
        #expect(try Self.columnAligned(utf8.stdout, header: "BRANCH", title: "DETAILS", count: 4), "\(utf8.stdout)")
        let ascii = sandbox.tenantctl(["roll", "--dry-run"], in: example.workspace, environment: ["LC_ALL": "C"])
        #expect(ascii.status == 0, "\(ascii.stdout)\(ascii.stderr)")
        #expect(ascii.stdout.contains(" -> ") && !ascii.stdout.contains("→"), "\(ascii.stdout)")
        #expect(try Self.columnAligned(ascii.stdout, header: "BRANCH", title: "DETAILS", count: 4), "\(ascii.stdout)")
    }

    @Test func examplesNextLineQuotesAPathWithSpaces() throws {
        let sandbox = try GitSandbox()
        let directory = sandbox.path("my erp")
        let run = sandbox.tenantctl(["example", directory])
        #expect(run.status == 0, "\(run.stderr)")
        let next = try #require(run.stdout.split(separator: "\n").first { $0.hasPrefix("Next: ") }, "\(run.stdout)")
        #expect(next == "Next: cd '\(directory)/workspace' && tenantctl switch t2", "\(next)")
        // It runs as printed.
        let shell = try sandbox.run(
            "/bin/sh",
            ["-c", String(next.dropFirst("Next: ".count)).replacingOccurrences(of: "tenantctl switch t2", with: "pwd")])
        #expect(shell.status == 0 && shell.stdout.hasSuffix("/my erp/workspace\n"), "\(shell.stdout)\(shell.stderr)")
    }
}
