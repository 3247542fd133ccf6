import Foundation
import TenantKit
import Testing

@testable import TenantAudit

/// The hand-written audit JSON is byte for byte what `JSONEncoder` writes (docs/PERFORMANCE.md).
@Suite struct AuditJSONWriterTests {
    /// Every field shape: nil counts and pins, empty and filled lists, findings on every level, and strings with
    /// quotes, backslashes, slashes, every control character and non-ASCII text.
    static func report(tenants: Int) -> AuditReport {
        let awkward =
            "quote \" backslash \\ slash / tab \t newline \n "
            + String(decoding: (0..<32).map { UInt8($0) } + [127], as: UTF8.self) + " Zürich 東京 🙂"
        let finding = AuditFinding(.stalePin, "pin 0123456789 is not the head of t1 (\(awkward))")
        let modules = [
            ModuleAudit(
                module: "Infra/Core", pin: String(repeating: "a", count: 40), branch: "t/1", customised: true,
                ahead: 3, behind: 0, pinIsTip: true, active: true, changedFiles: ["Sources/A.swift", awkward],
                findings: [finding, AuditFinding(.missingCommit, "x")]),
            ModuleAudit(
                module: "Article", pin: nil, branch: "general_dev", customised: false, ahead: nil, behind: nil,
                pinIsTip: false, active: false, changedFiles: [], findings: []),
        ]
        let tenantList = (0..<tenants).map { index in
            TenantAudit(
                id: "t\(index)", branch: "tenant/\(index)",
                superproject: SuperprojectAudit(
                    ahead: index == 0 ? nil : index, behind: index == 1 ? nil : 12345678,
                    changedFiles: index == 0 ? [] : ["ColourScheme.conf"], findings: index == 0 ? [finding] : []),
                modules: index == 2 ? [] : modules)
        }
        return AuditReport(
            generalBranch: "general_dev", modules: ["Infra/Core", "Article"], tenants: tenantList,
            findings: [AuditFinding(.unreachableRemote, awkward)])
    }

    /// 40 and 200 tenants: the tenants are written on several threads and joined.
    @Test(arguments: [0, 1, 3, 40, 200])
    func sameBytesAsJSONEncoder(tenants: Int) throws {
        let report = Self.report(tenants: tenants)
        let expected = try JSONOutput.encode(report)
        let written = AuditJSONWriter.render(report)
        #expect(written == expected)
        #expect(try AuditJSONRenderer.render(report) == expected)
        #expect(AuditJSONRenderer.renderBytes(report) == Array(expected.utf8))
    }

    /// Written in parts (the tenants ``AuditJSONWriter/tenantsPerPart`` at a time, each part handed on and dropped):
    /// the parts joined are `JSONEncoder`'s bytes, and no part holds the whole tenants array.
    @Test(arguments: [0, 1, 511, 512, 513, 1100])
    func writtenInPartsIsTheSameBytes(tenants: Int) throws {
        let report = Self.report(tenants: tenants)
        let expected = Array(try JSONOutput.encode(report).utf8)
        var parts: [[UInt8]] = []
        AuditJSONRenderer.render(report) { parts.append($0) }
        #expect(parts.joined().elementsEqual(expected))
        let perPart = AuditJSONWriter.tenantsPerPart
        // One part per started block of tenants, and the end of the document.
        #expect(parts.count == (tenants + perPart - 1) / perPart + 1, "\(parts.map(\.count))")
        if tenants > 2 * perPart {
            #expect(parts.allSatisfy { $0.count < expected.count / 2 }, "\(parts.map(\.count))")
        }
    }

    /// The report's source (what it describes), with and without a URL.
    @Test func sameBytesWithASource() throws {
        for url in ["https://user:secret@example.com/erp/Superproject.git", nil] {
            var report = Self.report(tenants: 3)
            report.source = AuditSource(
                generalCommit: String(repeating: "b", count: 40), generatedAt: Date(timeIntervalSince1970: 0),
                remote: "up/stream", url: url)
            let expected = try JSONOutput.encode(report)
            #expect(AuditJSONWriter.render(report) == expected)
            #expect(expected.contains("\"generatedAt\" : \"1970-01-01T00:00:00Z\""))
            #expect(!expected.contains("secret"))
            #expect(expected.contains("\"url\"") == (url != nil))
        }
    }

    /// One cell's commits (`--tenant --module`): filled and empty lists, awkward subjects.
    @Test func sameBytesWithACellsCommits() throws {
        var report = Self.report(tenants: 2)
        let commit = AuditCellCommits.Commit(
            id: String(repeating: "c", count: 40), author: "Zoë \"Q\" Müller", subject: "fix \\ / \u{1B}[31m 🙂")
        report.cell = AuditCellCommits(
            tenant: "t1", module: "Infra/Core", pin: String(repeating: "a", count: 40), generalBranch: "general_dev",
            generalCommit: String(repeating: "d", count: 40), behind: [commit, commit], behindTotal: 25,
            customised: [], customisedTotal: 0)
        let expected = try JSONOutput.encode(report)
        #expect(AuditJSONWriter.render(report) == expected)
        #expect(expected.hasPrefix("{\n  \"cell\" : {"))
    }

    @Test func emptyReport() throws {
        let report = AuditReport(generalBranch: "main", modules: [], tenants: [], findings: [])
        #expect(AuditJSONWriter.render(report) == (try JSONOutput.encode(report)))
    }

    /// Positive control: the comparison sees a one-byte difference.
    @Test func comparisonDetectsADifference() throws {
        var report = Self.report(tenants: 1)
        let expected = try JSONOutput.encode(report)
        report.generalBranch = "general_deV"
        #expect(AuditJSONWriter.render(report) != expected)
    }
}
