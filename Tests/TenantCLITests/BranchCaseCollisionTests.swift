import Foundation
import TenantKit
import TenantTestSupport
import Testing

/// Branch names that differ only in case (`T1`, `t1`) are one file on a case-insensitive file system (macOS's
/// default): `tenant add` and `customize` refuse to create one, `verify` and `audit` report the ones that exist —
/// on every platform, here on real repositories of the example.
@Suite struct BranchCaseCollisionTests {
    /// Creates `branch` at `at` on a remote of the example, with plain git (what another tool or a person did).
    static func makeBranch(_ branch: String, at start: String, on remote: String, _ example: LifecycleExample) throws {
        try example.sandbox.git(["branch", branch, start], in: example.remote(remote))
    }

    @Test func tenantAddRefusesAnIdThatDiffersOnlyInCaseFromABranch() throws {
        let sandbox = try GitSandbox()
        let example = try LifecycleExample(sandbox)
        try Self.makeBranch("T9", at: "general_dev", on: "Superproject", example)
        try Self.makeBranch("Release-T7", at: "general_dev", on: "Customer", example)
        let before = try example.snapshot()

        let superproject = example.tenantctl(["tenant", "add", "t9"])
        #expect(superproject.status == 1, "\(superproject.stdout)\(superproject.stderr)")
        #expect(
            superproject.stderr.contains(
                "refusing to add tenant t9: the superproject has a branch T9, whose name differs from t9 only in case"),
            "\(superproject.stderr)")
        let module = example.tenantctl(["tenant", "add", "release-t7"])
        #expect(module.status == 1, "\(module.stdout)\(module.stderr)")
        #expect(module.stderr.contains("Customer has Release-T7"), "\(module.stderr)")
        #expect(module.stderr.contains("nothing was changed"), "\(module.stderr)")
        #expect(try example.snapshot() == before, "a refused tenant add changed a repository")

        // The positive control: an id no branch shares, in any case, is added.
        let added = example.tenantctl(["tenant", "add", "t8"])
        #expect(added.status == 0, "\(added.stdout)\(added.stderr)")
        #expect(try example.branches("Superproject")["t8"] != nil)
    }

    @Test(.tags(.slow), .notInTheFastSet)
    func customizeRefusesWhenTheModuleHasABranchDifferingOnlyInCase() throws {
        let sandbox = try GitSandbox()
        let example = try LifecycleExample(sandbox)
        try Self.makeBranch("T1", at: "general_dev", on: "Order", example)
        let before = try example.snapshot()

        let refused = example.tenantctl(["customize", "t1", "Order"])
        #expect(refused.status == 1, "\(refused.stdout)\(refused.stderr)")
        #expect(
            refused.stderr.contains(
                "refusing to customise Order for tenant t1: module Order has a branch T1, whose name differs from t1 "
                    + "only in case"), "\(refused.stderr)")
        #expect(try example.snapshot() == before, "a refused customize changed a repository")

        // The positive control: a module without such a branch is customised.
        let customised = example.tenantctl(["customize", "t1", "Article"])
        #expect(customised.status == 0, "\(customised.stdout)\(customised.stderr)")
        #expect(try example.branches("Article")["t1"] != nil)
    }

    @Test(.tags(.slow), .notInTheFastSet)
    func verifyAndAuditReportBranchesDifferingOnlyInCaseNamingBoth() throws {
        let sandbox = try GitSandbox()
        let example = try LifecycleExample(sandbox)
        // The positive control: the example has no such names.
        let clean = example.tenantctl(["verify", "--json"])
        #expect(clean.status == 0, "\(clean.stdout)\(clean.stderr)")
        #expect(!clean.stdout.contains("branch-case-collision"))

        try Self.makeBranch("T1", at: "t1", on: "Superproject", example)
        try Self.makeBranch("Feature", at: "general_dev", on: "Article", example)
        try Self.makeBranch("feature", at: "general_dev", on: "Article", example)
        let run = example.tenantctl(["verify", "--json"])
        #expect(run.status == 2, "\(run.stdout)\(run.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        let findings = try #require(object["findings"] as? [[String: Any]]).filter {
            $0["code"] as? String == "branch-case-collision"
        }
        #expect(findings.count == 2, "\(findings)")
        let superproject = try #require(findings.first { $0["repository"] as? String == "superproject" })
        #expect(superproject["tenant"] as? String == "t1")
        #expect(superproject["branch"] as? String == "t1")
        #expect(
            (superproject["message"] as? String)?.hasPrefix(
                "the superproject's remote has branches T1 and t1, whose names differ only in case") == true,
            "\(superproject)")
        let article = try #require(findings.first { $0["repository"] as? String == "Article" })
        #expect(article["module"] as? String == "Article")
        #expect(article["tenant"] == nil)
        #expect((article["message"] as? String)?.contains("has branches Feature and feature") == true, "\(article)")

        // audit reports the same two findings (one judge for both).
        let audit = example.tenantctl(["audit", "--json", "--no-fetch"])
        #expect(audit.stdout.components(separatedBy: "\"branch-case-collision\"").count == 3, "\(audit.stdout)")
        let check = example.tenantctl(["audit", "--check", "--no-fetch"])
        #expect(check.status == 2, "\(check.stdout)\(check.stderr)")
    }
}
