import Foundation
import TenantTestSupport
import Testing

@Suite("status")
struct StatusCLITests {
    func modules(_ json: String) throws -> [String: [String: Any]] {
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let list = try #require(object["modules"] as? [[String: Any]])
        return Dictionary(
            uniqueKeysWithValues: list.compactMap { item in (item["module"] as? String).map { ($0, item) } })
    }

    @Test func reportsEveryRelationInTableAndJSON() throws {
        let sandbox = try GitSandbox()
        let fixture = try SwitchFixture(sandbox: sandbox)
        #expect(sandbox.tenantctl(["switch", "t2"], in: fixture.workspace).status == 0)
        let ahead = try sandbox.commit(
            in: "workspace/Modules/Infrastructure", file: "Local.swift", content: "// local\n", message: "local")
        try sandbox.git(["switch", "-q", "-c", "old", "HEAD~1"], in: fixture.module("Customer"))
        try sandbox.write("workspace/Modules/Article/Article.swift", "// dirty\n")
        try sandbox.git(["checkout", "-q", "--detach"], in: fixture.module("Order"))

        let table = sandbox.tenantctl(["status"], in: fixture.workspace)
        #expect(table.status == 0, "\(table.stderr)")
        let lines = table.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first == "tenant: t2")
        #expect(table.stdout.contains("superproject: t2 at"))
        #expect(table.stdout.contains("origin/t2: ahead 0, behind 0"))
        func line(_ module: String) -> String { lines.first { $0.hasPrefix(module + " ") } ?? "" }
        #expect(line("Infrastructure").contains("ahead 1"))
        #expect(line("Infrastructure").contains(String(ahead.prefix(7))))
        #expect(line("Infrastructure").contains("clean  1 "))
        #expect(line("Customer").contains("behind 1"))
        #expect(line("Customer").contains("old (expected t2)"))
        #expect(line("Article").contains("at pin"))
        #expect(line("Article").contains("dirty"))
        #expect(line("Order").contains("(detached)") && line("Order").contains("at pin"), "\(table.stdout)")

        let json = sandbox.tenantctl(["status", "--json"], in: fixture.workspace)
        #expect(json.status == 0)
        let report = try modules(json.stdout)
        #expect(report["Infrastructure"]?["relation"] as? String == "ahead")
        #expect(report["Infrastructure"]?["ahead"] as? Int == 1)
        #expect(report["Infrastructure"]?["unpushed"] as? Int == 1)
        #expect(report["Infrastructure"]?["head"] as? String == ahead)
        #expect(report["Infrastructure"]?["pin"] as? String == (try fixture.pin("Infrastructure", on: "t2")))
        #expect(report["Customer"]?["relation"] as? String == "behind")
        #expect(report["Customer"]?["behind"] as? Int == 1)
        #expect(report["Article"]?["dirty"] as? Bool == true)
        #expect(report["Order"]?["detached"] as? Bool == true)
        #expect(report["Order"]?["relation"] as? String == "at-pin")
        #expect(json.stdout.contains("\"tenant\" : \"t2\""))

        // Diverged: a branch from the pin's parent with a commit of its own.
        try sandbox.git(["switch", "-q", "-c", "side", "HEAD~2"], in: fixture.module("Infrastructure"))
        try sandbox.commit(in: "workspace/Modules/Infrastructure", file: "Side.swift", content: "// side\n")
        let diverged = sandbox.tenantctl(["status"], in: fixture.workspace)
        #expect(diverged.stdout.contains("diverged +1/-1"), "\(diverged.stdout)")
        let divergedJSON = try modules(sandbox.tenantctl(["status", "--json"], in: fixture.workspace).stdout)
        #expect(divergedJSON["Infrastructure"]?["relation"] as? String == "diverged")
    }

    @Test func developmentViewAndSuperprojectAhead() throws {
        let sandbox = try GitSandbox()
        let fixture = try SwitchFixture(sandbox: sandbox)
        #expect(sandbox.tenantctl(["switch", "general_dev"], in: fixture.workspace).status == 0)
        try sandbox.commit(in: "workspace", file: "README.md", content: "local\n")
        let result = sandbox.tenantctl(["status", "--json"], in: fixture.workspace)
        #expect(result.status == 0)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(object["tenant"] as? String == "general_dev")
        let superproject = try #require(object["superproject"] as? [String: Any])
        #expect(superproject["ahead"] as? Int == 1)
        #expect(superproject["behind"] as? Int == 0)
        #expect(superproject["upstream"] as? String == "origin/general_dev")
        #expect(try modules(result.stdout).values.allSatisfy { $0["relation"] as? String == "at-pin" })
    }

    @Test func helpHasAnExample() throws {
        let result = try GitSandbox().tenantctl(["status", "--help"])
        #expect(result.stdout.contains("tenantctl status --json"))
    }
}
