import Foundation
import TenantKit
import TenantTestSupport
import Testing

@Suite struct AuditRendererTests {
    static let pin = String(repeating: "a", count: 40)

    static func module(
        _ name: String, ahead: Int? = 0, behind: Int? = 0, active: Bool = true, customised: Bool = false,
        files: [String] = [], findings: [AuditFinding] = []
    ) -> ModuleAudit {
        ModuleAudit(
            module: name, pin: ahead == nil ? nil : pin, branch: customised ? "t2" : "general_dev",
            customised: customised, ahead: ahead, behind: behind, pinIsTip: findings.isEmpty, active: active,
            changedFiles: files, findings: findings)
    }

    /// Four modules with long names, every kind of cell, every finding.
    static let report: AuditReport = {
        let names = ["Infrastructure", "ArticleCatalogue", "CustomerAccounts", "OrderProcessing"]
        let long = (1...30).map { "Sources/Feature\($0)/File\($0).swift" }
        let findings = AuditFinding.Code.allCases.map {
            AuditFinding(
                $0,
                "a long explanation of \($0.rawValue) that names commits 0123456789 and branches t2 "
                    + "and general_dev so that it needs wrapping")
        }
        let t1 = TenantAudit(
            id: "tenant-long", branch: "tenant-long",
            superproject: SuperprojectAudit(ahead: 1, behind: 12, changedFiles: ["ColourScheme.conf"], findings: []),
            modules: names.map { module($0, behind: 123) })
        let t2 = TenantAudit(
            id: "t2", branch: "t2",
            superproject: SuperprojectAudit(ahead: 0, behind: 0, changedFiles: [], findings: []),
            modules: [
                module(names[0], ahead: 12, behind: 345, customised: true, files: long, findings: [findings[3]]),
                module(names[1], ahead: nil, behind: nil, active: false, findings: [findings[5]]),
                module(names[2], ahead: 3, active: false, customised: true, findings: [findings[4]]),
                module(names[3], ahead: 1, findings: [findings[0], findings[1], findings[2]]),
            ])
        let t3 = TenantAudit(
            id: "t3", branch: "t3",
            superproject: SuperprojectAudit(
                ahead: nil, behind: nil, changedFiles: [],
                findings: [AuditFinding(.missingBranch, "the superproject has no branch t3 on the remote")]),
            modules: [])
        return AuditReport(generalBranch: "general_dev", modules: names, tenants: [t1, t2, t3])
    }()

    static func console(color: Bool) -> Console {
        Console(out: BufferOutputSink(), err: BufferOutputSink(), color: color, width: 100)
    }

    @Test func tableFitsOneHundredColumnsAndShowsEveryCellKind() {
        let text = AuditTableRenderer.render(Self.report, console: Self.console(color: false))
        for line in text.split(separator: "\n") {
            #expect(TextWidth.of(String(line)) <= 100, "\(line)")
        }
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(Self.cells(lines[0]) == ["TENANT", "SUPERPROJECT"] + Self.report.modules)
        #expect(Self.cells(lines[1]) == ["tenant-long", "✎1↓12", "↓123", "↓123", "↓123", "↓123"])
        #expect(Self.cells(lines[2]) == ["t2", "·", "✎12↓345!", "(!)", "(✎3!)", "✎1!"])
        #expect(Self.cells(lines[3]) == ["t3", "!", "?", "?", "?", "?"])
        // Columns are aligned: every cell of a row starts where its header does.
        let starts = Self.cellStarts(lines[0])
        for row in lines[1...3] { #expect(Self.cellStarts(row) == starts, "\(row)") }
        #expect(lines[4] == "")
        #expect(lines[5].hasPrefix("· up to date   ✎n customised by n commits   ↓n behind general_dev by n"))
        // Customisations, unwrapped: the long file list is cut after five files.
        #expect(
            Self.section("Customisations:", of: lines) == [
                "tenant-long (superproject): 1 commit — ColourScheme.conf",
                "t2/Infrastructure: 12 commits — "
                    + (1...5).map { "Sources/Feature\($0)/File\($0).swift" }.joined(separator: ", ") + ", +25 more",
                "t2/CustomerAccounts: 3 commits",
                "t2/OrderProcessing: 1 commit",
            ])
        #expect(!text.contains("File6.swift"))
        let codes = AuditFinding.Code.allCases
        #expect(
            Self.section("Findings:", of: lines) == [
                "t2/Infrastructure: \(codes[3].rawValue): \(Self.explanation(codes[3]))",
                "t2/ArticleCatalogue: \(codes[5].rawValue): \(Self.explanation(codes[5]))",
                "t2/CustomerAccounts: \(codes[4].rawValue): \(Self.explanation(codes[4]))",
                "t2/OrderProcessing: \(codes[0].rawValue): \(Self.explanation(codes[0]))",
                "t2/OrderProcessing: \(codes[1].rawValue): \(Self.explanation(codes[1]))",
                "t2/OrderProcessing: \(codes[2].rawValue): \(Self.explanation(codes[2]))",
                "t3 (superproject): missing-branch: the superproject has no branch t3 on the remote",
            ])
        #expect(lines.last == "3 tenants × 4 modules: 2 behind, 7 findings.")
        #expect(!text.contains("\u{1B}["))
    }

    @Test func tableUsesColourOnlyWhenTheConsoleAllowsIt() {
        let coloured = AuditTableRenderer.render(Self.report, console: Self.console(color: true))
        #expect(coloured.contains("\u{1B}[31m!\u{1B}[0m"))
        #expect(coloured.contains("\u{1B}[33m↓123\u{1B}[0m"))
        for line in coloured.split(separator: "\n") { #expect(TextWidth.of(String(line)) <= 100, "\(line)") }
        let plain = AuditTableRenderer.render(Self.report, console: Self.console(color: false))
        #expect(plain.split(separator: "\n").count == coloured.split(separator: "\n").count)
    }

    /// A report says what it describes (general branch commit, remote with credentials redacted, time, version)
    /// in the JSON, the Markdown and the HTML page, whose title names it too.
    @Test func reportsNameWhatTheyDescribe() throws {
        var report = Self.report
        let commit = "0123456789abcdef0123456789abcdef01234567"
        report.source = AuditSource(
            generalCommit: commit, generatedAt: Date(timeIntervalSince1970: 1_800_000_000), remote: "origin",
            url: "https://ci:tok3n@git.example.com/erp/Superproject.git", tenantctlVersion: "9.8.7")
        let line =
            "general_dev at 0123456 on origin (https://ci:***@git.example.com/erp/Superproject.git), "
            + "2027-01-15T08:00:00Z, tenantctl 9.8.7"
        #expect(report.source?.line(generalBranch: "general_dev") == line)
        let json = try AuditJSONRenderer.render(report)
        #expect(try JSONSchemaCheck(contentsOf: Self.schemaPath).violations(of: json) == [])
        #expect(json.contains("\"generalCommit\" : \"\(commit)\"") && json.contains("\"tenantctlVersion\" : \"9.8.7\""))
        let markdown = AuditMarkdownRenderer.render(report)
        #expect(markdown.contains("2027-01-15T08:00:00Z") && markdown.contains("0123456"), "\(markdown)")
        let html = AuditHTMLRenderer.render(report)
        #expect(html.contains("<title>tenantctl audit: general_dev at 0123456 on origin"), "\(html.prefix(800))")
        #expect(html.contains("<p id=\"src\">general_dev at 0123456"))
        for text in [json, markdown, html] { #expect(!text.contains("tok3n")) }
        // Positive control: without a source none of it appears.
        #expect(!AuditMarkdownRenderer.render(Self.report).contains("tenantctl 9.8.7"))
        #expect(!(try AuditJSONRenderer.render(Self.report)).contains("\"source\""))
    }

    @Test func jsonValidatesAgainstTheDocumentedSchemaWithSortedKeys() throws {
        let json = try AuditJSONRenderer.render(Self.report)
        let schema = try JSONSchemaCheck(contentsOf: Self.schemaPath)
        #expect(try schema.violations(of: json) == [])
        #expect(json.contains("\"ahead\" : null"))
        // Key order is sorted at every level.
        let keys = json.split(separator: "\n").compactMap { line -> String? in
            guard line.hasPrefix("  \""), let end = line.dropFirst(3).firstIndex(of: "\"") else { return nil }
            return String(line[line.index(line.startIndex, offsetBy: 3)..<end])
        }
        #expect(keys == ["findings", "generalBranch", "modules", "reviews", "schemaVersion", "tenants"])
        // The schema names exactly the finding codes the auditor can produce, and the validator can fail.
        let codes =
            ((schema.schema["$defs"] as? [String: Any])?["finding"] as? [String: Any])
            .flatMap { ($0["properties"] as? [String: Any])?["code"] as? [String: Any] }?["enum"] as? [String]
        #expect(codes == AuditFinding.Code.allCases.map(\.rawValue))
        let broken = json.replacingOccurrences(of: "\"pinIsTip\"", with: "\"pinIsTop\"")
        #expect(try schema.violations(of: broken).contains { $0.contains("missing pinIsTip") })
        let wrongType = json.replacingOccurrences(of: "\"schemaVersion\" : 2", with: "\"schemaVersion\" : \"2\"")
        #expect(wrongType != json)
        #expect(try !schema.violations(of: wrongType).isEmpty)
    }

    /// A report made without the changed files says so in every cell (`null`), which the schema allows; a list is
    /// an array of strings or `null`, nothing else.
    @Test func changedFilesNotComputedAreNullInTheJSONAndTheSchema() throws {
        var report = Self.report
        for index in report.tenants.indices {
            report.tenants[index].superproject.changedFiles = nil
            for cell in report.tenants[index].modules.indices { report.tenants[index].modules[cell].changedFiles = nil }
        }
        let json = try AuditJSONRenderer.render(report)
        let schema = try JSONSchemaCheck(contentsOf: Self.schemaPath)
        #expect(try schema.violations(of: json) == [])
        #expect(json.contains("\"changedFiles\" : null") && !json.contains("\"changedFiles\" : ["))
        #expect(json == (try JSONOutput.encode(report)))
        // The same report with its lists has no null list (positive control); a string is refused.
        let listed = try AuditJSONRenderer.render(Self.report)
        #expect(!listed.contains("\"changedFiles\" : null"))
        let wrong = json.replacingOccurrences(of: "\"changedFiles\" : null", with: "\"changedFiles\" : \"none\"")
        #expect(try schema.violations(of: wrong).contains { $0.contains("changedFiles") })
    }

    @Test func markdownRendersATableAndTheFindings() {
        let text = AuditMarkdownRenderer.render(Self.report)
        let rows = text.split(separator: "\n").filter { $0.hasPrefix("|") }
        #expect(rows.count == 2 + 3)
        #expect(
            rows[0]
                == "| Tenant | Superproject | Infrastructure | ArticleCatalogue | CustomerAccounts | OrderProcessing |")
        #expect(rows[1] == "| --- | --- | --- | --- | --- | --- |")
        for row in rows {
            let unescaped = row.replacingOccurrences(of: "\\|", with: "")
            #expect(unescaped.filter { $0 == "|" }.count == 7, "\(row)")
        }
        #expect(rows[3].contains("(✎3!)"))
        #expect(rows[2] == "| tenant-long | ✎1↓12 | ↓123 | ↓123 | ↓123 | ↓123 |")
        #expect(rows[3] == "| t2 | · | ✎12↓345! | (!) | (✎3!) | ✎1! |")
        #expect(rows[4] == "| t3 | ! | ? | ? | ? | ? |")
        #expect(text.contains("\n**Findings**\n"))
        let codes = AuditFinding.Code.allCases
        func finding(_ module: String, _ code: AuditFinding.Code) -> String {
            "- **t2/\(module)** `\(code.rawValue)`: "
                + Self.explanation(code).replacingOccurrences(of: "general_dev", with: "general\\_dev")
        }
        #expect(
            text.split(separator: "\n").map(String.init).filter { $0.hasPrefix("- **") } == [
                finding("Infrastructure", codes[3]), finding("ArticleCatalogue", codes[5]),
                finding("CustomerAccounts", codes[4]), finding("OrderProcessing", codes[0]),
                finding("OrderProcessing", codes[1]), finding("OrderProcessing", codes[2]),
                "- **t3 (superproject)** `missing-branch`: the superproject has no branch t3 on the remote",
            ])
    }

    /// The message of every finding in ``report``.
    static func explanation(_ code: AuditFinding.Code) -> String {
        "a long explanation of \(code.rawValue) that names commits 0123456789 and branches t2 "
            + "and general_dev so that it needs wrapping"
    }

    /// The cells of a table row (separated by two or more spaces).
    static func cells(_ line: String) -> [String] {
        line.components(separatedBy: "  ").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    /// The column (in characters) where each cell of a table row starts.
    static func cellStarts(_ line: String) -> [Int] {
        var starts: [Int] = []
        var previous: Character = " "
        for (index, character) in line.enumerated() {
            if character != " " && previous == " " { starts.append(index) }
            previous = character
        }
        return starts
    }

    /// The entries of a section of the table output (after its title, up to the next empty line), each with its
    /// continuation lines (indented by six spaces) joined.
    static func section(_ title: String, of lines: [String]) -> [String] {
        guard let start = lines.firstIndex(of: title) else { return [] }
        var entries: [String] = []
        for line in lines[(start + 1)...] {
            if line.isEmpty { break }
            if line.hasPrefix("      "), let last = entries.popLast() {
                entries.append(last + " " + line.dropFirst(6))
            } else if line.hasPrefix("  ") {
                entries.append(String(line.dropFirst(2)))
            } else {
                entries.append("unexpected: " + line)
            }
        }
        return entries
    }

    static var schemaPath: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("docs/audit-schema.json").path
    }
}
