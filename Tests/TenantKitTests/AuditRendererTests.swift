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
        Console(out: BufferOutputSink(), err: BufferOutputSink(), color: color)
    }

    @Test func tableFitsOneHundredColumnsAndShowsEveryCellKind() {
        let text = AuditTableRenderer.render(Self.report, console: Self.console(color: false))
        for line in text.split(separator: "\n") {
            #expect(TextWidth.of(String(line)) <= 100, "\(line)")
        }
        let lines = text.split(separator: "\n").map(String.init)
        #expect(lines[0].hasPrefix("tenant       superproject  Infrastructure"))
        #expect(lines[1].contains("✎1↓12") && lines[1].contains("↓123"))
        #expect(lines[2].contains("✎12↓345!") && lines[2].contains("(!)") && lines[2].contains("(✎3!)"))
        #expect(lines[2].contains(" ✎1!"))
        #expect(lines[3].hasPrefix("t3 ") && lines[3].contains("!"))
        #expect(text.contains("· up to date"))
        #expect(text.contains("t3 (superproject): missing-branch: the superproject has no branch t3"))
        #expect(text.contains("t2/OrderProcessing: undeclared-customisation: a long explanation"))
        #expect(text.contains("+"))  // the long file list is cut
        #expect(text.hasSuffix("3 tenants × 4 modules: 2 behind, 7 findings."))
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
        #expect(keys == ["generalBranch", "modules", "schemaVersion", "tenants"])
        // The schema names exactly the finding codes the auditor can produce, and the validator can fail.
        let codes =
            ((schema.schema["$defs"] as? [String: Any])?["finding"] as? [String: Any])
            .flatMap { ($0["properties"] as? [String: Any])?["code"] as? [String: Any] }?["enum"] as? [String]
        #expect(codes == AuditFinding.Code.allCases.map(\.rawValue))
        let broken = json.replacingOccurrences(of: "\"pinIsTip\"", with: "\"pinIsTop\"")
        #expect(try schema.violations(of: broken).contains { $0.contains("missing pinIsTip") })
        let wrongType = json.replacingOccurrences(of: "\"schemaVersion\" : 1", with: "\"schemaVersion\" : \"1\"")
        #expect(try !schema.violations(of: wrongType).isEmpty)
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
        #expect(text.contains("**Findings**"))
        #expect(text.contains("- **t2/OrderProcessing** `stale-pin`:") || text.contains("`undeclared-customisation`"))
        #expect(text.contains("general\\_dev"))
    }

    static var schemaPath: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("docs/audit-schema.json").path
    }
}
