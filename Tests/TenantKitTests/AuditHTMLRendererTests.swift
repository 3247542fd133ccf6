import Foundation
import TenantKit
import TenantTestSupport
import Testing

@testable import TenantAudit

/// `AuditHTMLRenderer` on synthetic reports: escaping of hostile names (`<script>`, quotes, bidi characters), no
/// external resource, the data block.
@Suite struct AuditHTMLRendererTests {
    /// Values a repository can hold that must never become markup: a script end tag inside the JSON block, quotes,
    /// `&`, and every bidirectional control (U+202A–U+202E, U+2066–U+2069).
    static let hostile =
        "</script><script>alert(1)</script><!-- \"q\" 'a' &amp; <img src=x onerror=alert(2)> "
        + "\u{202A}\u{202B}\u{202C}\u{202D}\u{202E}\u{2066}\u{2067}\u{2068}\u{2069}end"

    static let bidi: [Unicode.Scalar] =
        (0x202A...0x202E).compactMap(Unicode.Scalar.init)
        + (0x2066...0x2069).compactMap(Unicode.Scalar.init)

    static func report(_ text: String) -> AuditReport {
        let finding = AuditFinding(.missingBranch, "module has no branch \(text)")
        let module = ModuleAudit(
            module: "M<b>&\"'", pin: String(repeating: "a", count: 40), branch: "t2/\(text)", customised: true,
            ahead: 2, behind: 3, pinIsTip: true, active: true, changedFiles: ["dir/\(text).swift"], findings: [finding])
        let tenant = TenantAudit(
            id: "t<2>", branch: "t2/\(text)",
            superproject: SuperprojectAudit(ahead: 1, behind: 0, changedFiles: [text], findings: [finding]),
            modules: [module])
        return AuditReport(
            generalBranch: "general_dev", modules: ["M<b>&\"'"], tenants: [tenant],
            findings: [AuditFinding(.unreachableRemote, text)])
    }

    /// The text of the JSON data block.
    static func dataBlock(_ html: String) throws -> String {
        let start = try #require(html.range(of: "<script type=\"application/json\" id=\"d\">"))
        let end = try #require(html.range(of: "</script>", range: start.upperBound..<html.endIndex))
        return String(html[start.upperBound..<end.lowerBound])
    }

    func containsBidi(_ text: String) -> Bool { text.unicodeScalars.contains { Self.bidi.contains($0) } }

    @Test func hostileValuesNeverBecomeMarkupAndBidiControlsAreShown() throws {
        let html = AuditHTMLRenderer.render(
            Self.report(Self.hostile), tenantNames: ["t<2>": Self.hostile], modulePaths: ["M<b>&\"'": Self.hostile])
        // Exactly the page's own two script elements; nothing of the data opens or closes one.
        #expect(html.components(separatedBy: "<script").count - 1 == 2)
        #expect(html.lowercased().components(separatedBy: "</script").count - 1 == 2)
        #expect(!html.contains("alert(1)</script>"))
        #expect(!html.contains("<img"))
        #expect(!html.contains("<!--"))
        #expect(!html.contains("M<b>"))
        // No raw bidirectional control anywhere in the bytes; each is shown as [U+XXXX].
        #expect(!containsBidi(html))
        // Positive control: the detector sees one.
        #expect(containsBidi(Self.hostile))
        let block = try Self.dataBlock(html)
        #expect(block.unicodeScalars.allSatisfy { $0 == "\n" || ($0.value >= 0x20 && $0.value < 0x7F) })
        #expect(!block.contains("<") && !block.contains(">") && !block.contains("&") && !block.contains("'"))
        // The data reaches the page unchanged but for the visible code points.
        let decoded = try #require(
            try JSONSerialization.jsonObject(with: Data(block.utf8)) as? [String: Any])
        let shown = AuditHTMLRenderer.visible(Self.hostile)
        #expect(shown.contains("</script><script>alert(1)</script>"))
        #expect(shown.contains("[U+202E]") && shown.contains("[U+2066]") && shown.contains("[U+2069]"))
        let tenant = try #require((decoded["t"] as? [[Any]])?.first)
        #expect(tenant[0] as? String == "t<2>")
        #expect(tenant[1] as? String == shown)
        #expect(tenant[2] as? String == "t2/" + shown)
        let modules = try #require(decoded["m"] as? [[String]])
        #expect(modules == [["M<b>&\"'", shown]])
        let cell = try #require((tenant[4] as? [[Any]])?.first)
        #expect(cell[5] as? [String] == ["dir/\(shown).swift"])
        #expect((cell[6] as? [[String]])?.first == ["missing-branch", "module has no branch \(shown)"])
        let top = try #require(decoded["f"] as? [[String]])
        #expect(top == [["unreachable-remote", shown]])
    }

    @Test func scriptSafeJSONStringsEscapeEverythingAboveASCII() throws {
        #expect(AuditHTMLRenderer.jsonString("</script>") == "\"\\u003c/script\\u003e\"")
        #expect(AuditHTMLRenderer.jsonString("a&b'c\"d\\e") == "\"a\\u0026b\\u0027c\\\"d\\\\e\"")
        #expect(AuditHTMLRenderer.jsonString("ä😀\u{2028}") == "\"\\u00e4\\ud83d\\ude00\\u2028\"")
        #expect(AuditHTMLRenderer.jsonString("a\u{202E}b\u{7}\tc\n") == "\"a[U+202E]b[U+0007]\\tc\\n\"")
        for text in ["ä😀\u{2028}", "a\"b\\c", "x\ny\tz", "<>&'"] {
            let decoded = try JSONSerialization.jsonObject(
                with: Data(AuditHTMLRenderer.jsonString(text).utf8), options: .fragmentsAllowed)
            #expect(decoded as? String == text)
        }
        #expect(AuditHTMLRenderer.htmlText("<a href=\"x\">&'") == "&lt;a href=&quot;x&quot;&gt;&amp;&#39;")
    }

    /// The page names no external resource and allows none (its Content-Security-Policy).
    @Test func thePageLoadsNoExternalResource() {
        let html = AuditHTMLRenderer.render(AuditRendererTests.report)
        for forbidden in ["http://", "https://", "src=", "href=", "@import", "url(", "@font-face", "//cdn"] {
            #expect(!html.contains(forbidden), "\(forbidden)")
        }
        #expect(html.contains("default-src 'none'"))
        #expect(html.contains("script-src '\(AuditHTMLRenderer.scriptHash)'"))
        #expect(!html.contains("unsafe-inline'; script") && !html.contains("script-src 'unsafe-inline'"))
    }

    /// The policy lets the page's script run only if the hash is the script's: checked with `sha256sum`.
    /// An inactive cell stays readable however far behind it is: no faded text, dark text on the lighter stripes
    /// (the darkest background, 20 or more behind, included), a contrast of at least 4.5 : 1 against the red.
    @Test func inactiveCellsAreReadableAtEveryShade() {
        let style = AuditHTMLRenderer.style
        let inactive = style.components(separatedBy: ".i{").dropFirst().first?.prefix { $0 != "}" } ?? ""
        #expect(!inactive.isEmpty && !inactive.contains("opacity"), "\(inactive)")
        #expect(style.contains(".i,.i.b4,.i.b4.f{color:#000}"))
        // Contrast of black on the red of .b4 (#d9534f), by the WCAG formula.
        func luminance(_ hex: Int) -> Double {
            let weights: [Double] = [0.2126, 0.7152, 0.0722]
            var total = 0.0
            for (index, shift) in [16, 8, 0].enumerated() {
                let channel = Double((hex >> shift) & 0xFF) / 255
                let linear = channel <= 0.03928 ? channel / 12.92 : pow((channel + 0.055) / 1.055, 2.4)
                total += weights[index] * linear
            }
            return total
        }
        #expect((luminance(0xD9534F) + 0.05) / (luminance(0x000000) + 0.05) >= 4.5)
        // Positive control: the white text of an active .b4 cell is below that against the same red.
        #expect((luminance(0xFFFFFF) + 0.05) / (luminance(0xD9534F) + 0.05) < 4.5)
    }

    @Test func theContentSecurityPolicyHashIsTheScripts() throws {
        let sandbox = try GitSandbox()
        try sandbox.write("script.js", AuditHTMLRenderer.script)
        let result = try sandbox.run("/usr/bin/env", ["sha256sum", sandbox.path("script.js")])
        #expect(result.status == 0, "\(result.stderr)")
        let hex = try #require(result.stdout.split(separator: " ").first)
        var bytes: [UInt8] = []
        var index = hex.startIndex
        while index < hex.endIndex {
            let next = hex.index(index, offsetBy: 2)
            bytes.append(try #require(UInt8(hex[index..<next], radix: 16)))
            index = next
        }
        let expected = "sha256-" + Data(bytes).base64EncodedString()
        #expect(
            AuditHTMLRenderer.scriptHash == expected,
            "set AuditHTMLRenderer.scriptHash to \"\(expected)\" (the script changed)")
    }

    @Test func cellsAreInternedCompactAndInvalidTenantsHaveNoCells() throws {
        let report = AuditRendererTests.report
        let invalid = TenantAudit(
            id: "bad", branch: "bad",
            superproject: SuperprojectAudit(
                ahead: nil, behind: nil, changedFiles: [], findings: [AuditFinding(.invalidTenantFile, "x")]),
            modules: [])
        var withInvalid = report
        withInvalid.tenants.append(invalid)
        let block = try Self.dataBlock(AuditHTMLRenderer.render(withInvalid))
        let decoded = try #require(try JSONSerialization.jsonObject(with: Data(block.utf8)) as? [String: Any])
        let tenants = try #require(decoded["t"] as? [[Any]])
        #expect(tenants.count == report.tenants.count + 1)
        let strings = try #require(decoded["s"] as? [String])
        #expect(Set(strings).count == strings.count)
        for (tenant, row) in zip(report.tenants, tenants) {
            let cells = try #require(row[4] as? [[Any]])
            #expect(cells.count == tenant.modules.count)
            for (module, cell) in zip(tenant.modules, cells) {
                let pin = try #require(cell[0] as? Int)
                #expect(module.pin.map { strings[pin] == $0 } ?? (pin == -1))
                #expect(strings[try #require(cell[1] as? Int)] == module.branch)
                let flags = try #require(cell[2] as? Int)
                #expect((flags & 1 != 0) == module.customised)
                #expect((flags & 2 != 0) == module.pinIsTip)
                #expect((flags & 4 != 0) == module.active)
                #expect(cell[3] as? Int == module.ahead)
                #expect(cell[4] as? Int == module.behind)
                // The lists only when there is something in them.
                #expect(cell.count == ((module.changedFiles ?? []).isEmpty && module.findings.isEmpty ? 5 : 7))
            }
        }
        #expect((tenants.last?[4] as? [Any])?.isEmpty == true)
    }

    /// Three tenants of one module: t1 has a finding and is behind at pin A, t2 is customised at pin B (behind and
    /// its own commits), t3 is behind at pin A like t1.
    static func commitsReport() -> AuditReport {
        func cell(_ pin: String, ahead: Int, findings: [AuditFinding] = []) -> ModuleAudit {
            ModuleAudit(
                module: "M", pin: pin, branch: "general_dev", customised: ahead > 0, ahead: ahead, behind: 2,
                pinIsTip: false, active: true, changedFiles: [], findings: findings)
        }
        let a = String(repeating: "a", count: 40), b = String(repeating: "b", count: 40)
        let none = SuperprojectAudit(ahead: 0, behind: 0, changedFiles: [], findings: [])
        return AuditReport(
            generalBranch: "general_dev", modules: ["M"],
            tenants: [
                TenantAudit(
                    id: "t1", branch: "t1", superproject: none,
                    modules: [cell(a, ahead: 0, findings: [AuditFinding(.stalePin, "stale")])]),
                TenantAudit(id: "t2", branch: "t2", superproject: none, modules: [cell(b, ahead: 1)]),
                TenantAudit(id: "t3", branch: "t3", superproject: none, modules: [cell(a, ahead: 0)]),
            ], findings: [])
    }

    @Test func commitListsAreSharedAndPlannedFindingsFirstWithinTheLimit() throws {
        let report = Self.commitsReport()
        let general = String(repeating: "9", count: 40)
        let sources = [
            "M": AuditPageCommits.Source(generalCommit: general, repository: GitRepository("/nowhere", git: try Git()))
        ]
        // Room for every range: t1 and t3 share one "behind" range; t2 needs two.
        let all = AuditPageCommits.plan(report, sources: sources, limit: 10)
        #expect(all.ranges.count == 3 && all.leftOut == 0)
        #expect(
            all.ranges.first
                == AuditPageCommits.behindRange(module: "M", pin: report.tenants[0].modules[0].pin!, general: general))
        // Room for one: the finding's range, which t3 shares; t2 is left out.
        let one = AuditPageCommits.plan(report, sources: sources, limit: 1)
        #expect(one.ranges == [all.ranges[0]] && one.leftOut == 1)
        // Without the finding, the range t1 and t3 share comes before t2's customised one.
        var plain = report
        plain.tenants[0].modules[0].findings = []
        plain.tenants.swapAt(0, 1)
        #expect(AuditPageCommits.plan(plain, sources: sources, limit: 1).ranges == [all.ranges[0]])
        #expect(AuditPageCommits.plan(plain, sources: sources, limit: 2).ranges.count == 2)

        // The page: each commit once, each list once, a cell points at its lists.
        func commit(_ n: Int) -> AuditCellCommits.Commit {
            AuditCellCommits.Commit(id: String(repeating: "\(n)", count: 40), author: "A \(n)", subject: "s<\(n)>")
        }
        var lists: [AuditPageCommits.Range: [AuditCellCommits.Commit]] = [:]
        lists[all.ranges[0]] = [commit(1), commit(2)]
        lists[all.ranges[1]] = [commit(1), commit(2)]
        lists[all.ranges[2]] = [commit(3)]
        let commits = AuditPageCommits(lists: lists, generalCommits: ["M": general], leftOut: 0)
        let block = try Self.dataBlock(AuditHTMLRenderer.render(report, commits: commits))
        let decoded = try #require(try JSONSerialization.jsonObject(with: Data(block.utf8)) as? [String: Any])
        let table = try #require(decoded["c"] as? [[String]])
        #expect(table.map(\.[0]) == ["1111111", "2222222", "3333333"])
        #expect(table[0] == ["1111111", "A 1", "s<1>"])
        #expect(!block.contains("s<1>"))
        #expect(decoded["l"] as? [[Int]] == [[0, 1], [2]])
        let tenants = try #require(decoded["t"] as? [[Any]])
        #expect(tenants[0][5] as? [[Int]] == [[0, 0, -1]])
        #expect(tenants[1][5] as? [[Int]] == [[0, 0, 1]])
        #expect(tenants[2][5] as? [[Int]] == [[0, 0, -1]])
        #expect(decoded["k"] as? [Int] == [AuditPageCommits.perCell, AuditPageCommits.rangeLimit, 0, 1])
        // Without commits: no lists, and the page says none were read.
        let bare = try #require(
            try JSONSerialization.jsonObject(with: Data(Self.dataBlock(AuditHTMLRenderer.render(report)).utf8))
                as? [String: Any])
        #expect((bare["t"] as? [[Any]])?.allSatisfy { $0.count == 5 } == true)
        #expect((bare["k"] as? [Int])?.last == 0)
    }

    @Test func aReportFileIsReplacedInOneStepAndNoTemporaryFileStays() throws {
        let sandbox = try GitSandbox()
        #expect(throws: ReportFileError.self) {
            try ReportFile.write("x", to: "missing/report.html", relativeTo: sandbox.root)
        }
        try FileManager.default.createDirectory(atPath: sandbox.path("out"), withIntermediateDirectories: true)
        let path = try ReportFile.write("one\n", to: "out/report.html", relativeTo: sandbox.root)
        #expect(path == sandbox.path("out/report.html"))
        #expect(try sandbox.read("out/report.html") == "one\n")
        try ReportFile.write("two\n", to: sandbox.path("out/report.html"), relativeTo: "/")
        #expect(try sandbox.read("out/report.html") == "two\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: sandbox.path("out")) == ["report.html"])
    }
}
