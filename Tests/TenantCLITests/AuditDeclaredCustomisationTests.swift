import Foundation
import TenantTestSupport
import Testing

/// A module a tenant has just customised (its tenant branch made, no commit of its own yet) is shown as customised
/// by the table, the Markdown and the HTML page alike, as the JSON says it is.
@Suite("audit: customised without own commits")
struct AuditDeclaredCustomisationTests {
    @Test func aFreshCustomisationIsShownByEveryRenderer() throws {
        let sandbox = try GitSandbox()
        let example = try LifecycleExample(sandbox)
        let customize = example.tenantctl(["customize", "t1", "Order"])
        #expect(customize.status == 0, "\(customize.stderr)")

        // Control: the JSON says t1's Order is customised, with no commit of its own.
        let json = example.tenantctl(["audit", "--json"])
        #expect(json.status == 0, "\(json.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let tenants = try #require(object["tenants"] as? [[String: Any]])
        let t1 = try #require(tenants.first { $0["id"] as? String == "t1" }?["modules"] as? [[String: Any]])
        let order = try #require(t1.first { $0["module"] as? String == "Order" })
        #expect(order["customised"] as? Bool == true && order["ahead"] as? Int == 0, "\(order)")

        let table = example.tenantctl(["audit", "--no-fetch"])
        #expect(table.status == 0, "\(table.stderr)")
        let row = table.stdout.split(separator: "\n").first { $0.hasPrefix("t1 ") }.map(String.init) ?? ""
        #expect(row.hasSuffix("✎0"), "t1's Order cell: \(table.stdout)")
        #expect(table.stdout.contains("✎0 customised, no own commits yet"), "legend: \(table.stdout)")
        #expect(table.stdout.contains("  t1/Order: customised, no own commits yet"), "\(table.stdout)")

        let markdown = example.tenantctl(["audit", "--no-fetch", "--format", "markdown"])
        let markdownRow = markdown.stdout.split(separator: "\n").first { $0.hasPrefix("| t1 ") }.map(String.init)
        #expect(markdownRow?.hasSuffix("| ✎0 |") == true, "\(markdown.stdout)")
        #expect(markdown.stdout.contains("- t1/Order: customised, no own commits yet"), "\(markdown.stdout)")

        let html = example.tenantctl(["audit", "--no-fetch", "--format", "html"])
        #expect(html.stdout.contains("customised, no own commits yet"), "the HTML legend")
        #expect(html.stdout.contains("(declared && ahead === 0)"), "the HTML cells mark a declared customisation")
    }
}
