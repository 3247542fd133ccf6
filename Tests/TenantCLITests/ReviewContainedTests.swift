import Foundation
import TenantExample
import TenantKit
import TenantTestSupport
import Testing

/// A review roll whose every proposal the forge landed by squash or rebase: the tenant branches have general_dev's
/// changes but not its commits. A cell that contains the rolled change by content (the landing tenantctl found) is
/// not behind: `audit --check` and `verify` stay green, every format says how it is contained, and no finding
/// advises a command that does nothing; a later general change makes the cell behind again (the control).
@Suite struct ReviewContainedTests {
    /// The example, protected as a forge would, proposed, and every proposal landed by `method` (the tenants'
    /// superproject merges by squash: ``ReviewLandingMethodTests/superprojectMethod(_:)``), followed to the end.
    static func landedByContent(_ method: EmulatedForge.Method) throws -> (GitSandbox, ExampleResult, EmulatedForge) {
        let (sandbox, example, forge) = try ReviewRollTests.example()
        let superproject = example.remotes + "/" + ExampleBuilder.superprojectName + ".git"
        for name in ["Infrastructure", "Article", "Customer", "Order"] {
            try forge.protect(["t1", "t2", "t3"], in: example.remotes + "/\(name).git")
        }
        try forge.protect(["t1", "t2", "t3", "general_dev"], in: superproject)
        let proposed = sandbox.tenantctl(["roll", "--review"], in: example.workspace)
        #expect(proposed.status == 75, "\(proposed.stdout)\(proposed.stderr)")
        let prefix = "refs/heads/\(ReviewOptions.defaultPrefix)/"
        try forge.land(prefix + "t2", into: "t2", method: method, in: example.remotes + "/Infrastructure.git")
        try forge.land(prefix + "t3", into: "t3", method: method, in: example.remotes + "/Order.git")
        try forge.land(prefix + "general_dev", into: "general_dev", method: method, in: superproject)
        let land = sandbox.tenantctl(["roll", "--land"], in: example.workspace)
        #expect(land.status == 75, "\(land.stdout)\(land.stderr)")
        for tenant in ["t1", "t2", "t3"] {
            try forge.land(
                prefix + tenant, into: tenant, method: ReviewLandingMethodTests.superprojectMethod(method),
                in: superproject)
        }
        let done = sandbox.tenantctl(["roll", "--land"], in: example.workspace)
        #expect(done.status == 0, "\(done.stdout)\(done.stderr)")
        return (sandbox, example, forge)
    }

    /// The cell of `tenant` and `repository` (`superproject` for its superproject entry) in an audit report.
    static func cell(_ json: [String: Any], _ tenant: String, _ repository: String) -> [String: Any]? {
        let entry = (json["tenants"] as? [[String: Any]] ?? []).first { $0["id"] as? String == tenant }
        return repository == "superproject"
            ? entry?["superproject"] as? [String: Any]
            : (entry?["modules"] as? [[String: Any]] ?? []).first { $0["module"] as? String == repository }
    }

    /// Every finding message of an audit report (the cells' and the report's own).
    static func messages(_ json: [String: Any]) -> [String] {
        var findings = json["findings"] as? [[String: Any]] ?? []
        for tenant in json["tenants"] as? [[String: Any]] ?? [] {
            findings += (tenant["superproject"] as? [String: Any])?["findings"] as? [[String: Any]] ?? []
            for module in tenant["modules"] as? [[String: Any]] ?? [] {
                findings += module["findings"] as? [[String: Any]] ?? []
            }
        }
        return findings.compactMap { $0["message"] as? String }
    }

    @Test(.tags(.slow), .notInTheFastSet, arguments: [EmulatedForge.Method.squash, .rebase])
    func everyProposalLandedByContentLeavesTheGateGreen(method: EmulatedForge.Method) throws {
        let (sandbox, example, _) = try Self.landedByContent(method)
        let dryRun = sandbox.tenantctl(["roll", "--dry-run", "--json"], in: example.workspace)
        for (id, tenant) in try ReviewRollTests.tenants(dryRun.stdout) {
            #expect(tenant["status"] as? String == "up-to-date", "\(id): \(tenant)")
        }
        let check = sandbox.tenantctl(["audit", "--check", "--json"], in: example.workspace)
        #expect(check.status == 0, "nothing is behind: \(check.stdout)\(check.stderr)")
        #expect(try ReviewShowTests.auditViolations(check.stdout).isEmpty, "\(check.stdout)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(check.stdout.utf8)) as? [String: Any])
        let infrastructure = try #require(Self.cell(json, "t2", "Infrastructure"), "\(check.stdout)")
        #expect(infrastructure["behind"] as? Int == 0, "\(infrastructure)")
        #expect(infrastructure["contained"] as? String == method.rawValue, "\(infrastructure)")
        let superprojectCell = try #require(Self.cell(json, "t2", "superproject"), "\(check.stdout)")
        #expect(superprojectCell["behind"] as? Int == 0, "\(superprojectCell)")
        #expect(superprojectCell["contained"] as? String == "squash", "\(superprojectCell)")
        #expect(Self.cell(json, "t1", "Infrastructure")?["contained"] == nil, "t1 tracks general_dev: no landing")
        let messages = Self.messages(json)
        #expect(
            !messages.contains { $0.contains("tenantctl roll --review") }, "roll --review does nothing: \(messages)")
        #expect(messages.contains { $0.contains("by \(method.rawValue)") }, "\(messages)")

        let table = sandbox.tenantctl(["audit", "--check"], in: example.workspace)
        #expect(table.status == 0, "\(table.stdout)\(table.stderr)")
        #expect(table.stdout.contains("contained by \(method.rawValue)"), "\(table.stdout)")
        #expect(!table.stdout.contains("tenantctl roll --review"), "\(table.stdout)")
        let html = sandbox.tenantctl(["audit", "--format", "html"], in: example.workspace)
        #expect(html.stdout.contains("contained by \(method.rawValue)"), "\(html.stdout.suffix(4000))")
        let verify = sandbox.tenantctl(["verify"], in: example.workspace)
        #expect(verify.status == 0, "\(verify.stdout)\(verify.stderr)")

        // Positive control: a new general change of Infrastructure makes t2's cell behind by it, and its finding now
        // names the roll that brings it.
        let developer = sandbox.path("infrastructure-general")
        try sandbox.git(["clone", "-q", "--branch", "general_dev", example.remotes + "/Infrastructure.git", developer])
        try sandbox.commit(in: "infrastructure-general", file: "Later.txt", content: "later\n", message: "later")
        try sandbox.git(["push", "-q", "origin", "general_dev"], in: developer)
        let behind = sandbox.tenantctl(["audit", "--check", "--json"], in: example.workspace)
        #expect(behind.status == 2, "\(behind.stdout)\(behind.stderr)")
        let later = try #require(try JSONSerialization.jsonObject(with: Data(behind.stdout.utf8)) as? [String: Any])
        #expect(Self.cell(later, "t2", "Infrastructure")?["behind"] as? Int == 1, "\(behind.stdout)")
        #expect(Self.messages(later).contains { $0.contains("tenantctl roll --review") }, "\(behind.stdout)")
    }
}
