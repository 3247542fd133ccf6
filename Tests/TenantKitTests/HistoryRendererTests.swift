import Foundation
import TenantKit
import TenantTestSupport
import Testing

@testable import TenantAudit

/// The renderers of `audit --history` on synthetic histories: the drift section at 1000 tenants, hostile names, CSV
/// quoting, the table's width.
@Suite struct HistoryRendererTests {
    /// `count` tenants over `points` points; tenant n falls behind by n commits over the points (the last grows most).
    static func history(tenants count: Int, points: Int = 12, id: (Int) -> String = { "t\($0)" }) -> AuditHistory {
        let times = (0..<points).map { 1_356_998_400 + $0 * 30 * 86_400 }
        let tenants = (1...count).map { number in
            HistoryTenant(
                id: id(number), branch: id(number),
                points: (0..<points).map { index in
                    let behind = number * index / max(1, points - 1)
                    return HistoryPoint(
                        present: index > 0,
                        cells: [
                            HistoryCell(
                                pin: String(repeating: "a", count: 40), behind: behind, ahead: 1, added: 3, removed: 1)
                        ],
                        behindDays: index > 0 ? index * 30 : nil)
                })
        }
        return AuditHistory(generalBranch: "general_dev", modules: ["Order"], points: times, tenants: tenants)
    }

    @Test func theDriftSectionStaysLegibleAtAThousandTenants() {
        let section = HistoryHTMLSection.render(Self.history(tenants: 1000))
        let figures = section.components(separatedBy: "<figure>").count - 1
        #expect(figures == HistoryHTMLSection.chartsShown)
        // The most grown first: t1000, then t999.
        let captions = section.components(separatedBy: "<figcaption>").dropFirst().map { $0.prefix { $0 != ":" } }
        #expect(captions.prefix(2) == ["t1000", "t999"])
        #expect(section.contains("And 940 more that moved"), "\(section.suffix(300))")
        // Positive control: a history that fits shows every tenant and no such line.
        let small = HistoryHTMLSection.render(Self.history(tenants: 3))
        #expect(small.components(separatedBy: "<figure>").count - 1 == 3 && !small.contains("And "))
        #expect(HistoryHTMLSection.render(nil).isEmpty)
    }

    @Test func aHostileTenantIdIsTextInThePageAndQuotedInTheCSV() {
        let hostile = "t\"</title><svg onload=alert(1)>,\u{202E}x"
        let history = Self.history(tenants: 2) { $0 == 2 ? hostile : "t\($0)" }
        let section = HistoryHTMLSection.render(history)
        #expect(!section.contains("<svg onload"))
        #expect(section.contains("&lt;svg onload=alert(1)&gt;"))
        #expect(section.contains("[U+202E]") && !section.contains("\u{202E}"))
        let csv = HistoryCSVRenderer.render(history).split(separator: "\n")
        #expect(csv.first == "date,tenant,module,pin,behind,ahead,added,removed")
        let row = csv.first { $0.contains("onload") }.map(String.init) ?? ""
        #expect(row.contains(",\"t\"\"</title><svg onload=alert(1)>,\u{202E}x\",Order,"), "\(row)")
    }

    @Test func theTableFitsEightyColumnsWithLongIdsAndLargeNumbers() {
        let history = Self.history(tenants: 5) { "tenant-with-a-very-long-identifier-\($0)" }
        for unicode in [true, false] {
            let text = HistoryTableRenderer.render(history, unicode: unicode)
            for line in text.split(separator: "\n") { #expect(line.count <= 80, "\(line)") }
            #expect(text.contains(unicode ? "…" : "~"))
        }
        let markdown = HistoryTableRenderer.markdown(history)
        #expect(markdown.contains("| Tenant | Behind |") && markdown.contains("0 → 5 (+5)"), "\(markdown)")
    }
}
