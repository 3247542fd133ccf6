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
