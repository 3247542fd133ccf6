import Foundation
import TenantExample
import TenantKit
import TenantTestSupport
import Testing

/// What a review roll says is what happened: general_dev's re-pin that is only proposed is not `rolled`, a dry run
/// does not exit as if reviews were open, a proposal branch with no review opened says so and how one gets opened,
/// and a plain roll refused as protected names the forge kinds when modules.json names none.
@Suite struct ReviewWordsTests {
    /// Every branch of the example protected, general_dev of the superproject too; `review` (a JSON object) in
    /// modules.json first when given.
    static func protectedExample(review: String? = nil) throws -> (GitSandbox, ExampleResult, EmulatedForge) {
        let (sandbox, example, forge) = try ReviewRollTests.example()
        if let review {
            try ReviewForgeKindsTests.configure(sandbox, example, review: review)
            // The workspace has it checked out too.
            try sandbox.git(["pull", "-q", "--ff-only", "origin", "general_dev"], in: example.workspace)
        }
        for name in ReviewForgeKindsTests.repositories {
            let general = name == ExampleBuilder.superprojectName ? ["general_dev"] : []
            try forge.protect(["t1", "t2", "t3"] + general, in: example.remotes + "/\(name).git")
        }
        return (sandbox, example, forge)
    }

    @Test func aProposedRepinIsNotRolledAndADryRunWaitsForNothing() throws {
        let (sandbox, example, _) = try Self.protectedExample()
        let dryRun = sandbox.tenantctl(["roll", "--review", "--dry-run"], in: example.workspace)
        #expect(dryRun.status == 0, "a dry run opens nothing to wait for: \(dryRun.stdout)\(dryRun.stderr)")

        let text = sandbox.tenantctl(["roll", "--review"], in: example.workspace)
        #expect(text.status == 75, "positive control: the real one waits: \(text.stdout)\(text.stderr)")
        let row = try #require(
            text.stdout.split(separator: "\n").first { $0.hasPrefix("general_dev") }, "\(text.stdout)")
        #expect(row.contains("proposed") && !row.contains("rolled"), "\(row)")
        // The branch kind without a create command pushes branches; no review exists until someone opens one.
        #expect(text.stdout.contains("pushed, no review opened"), "\(text.stdout)")
        #expect(text.stdout.contains("review.create") && text.stdout.contains("--forge"), "\(text.stdout)")
        let json = sandbox.tenantctl(["roll", "--review", "--json"], in: example.workspace)
        let report = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect((report["general"] as? [String: Any])?["status"] as? String == "proposed", "\(json.stdout)")
    }

    /// A plain roll refused as protected, with no `review` object in modules.json, names the forge kinds; with one,
    /// it does not (the control).
    @Test(.tags(.slow), .notInTheFastSet)
    func aProtectedPlainRollNamesTheForgeKinds() throws {
        let (sandbox, example, _) = try Self.protectedExample()
        let refused = sandbox.tenantctl(["roll"], in: example.workspace)
        #expect(refused.status == 2, "\(refused.stdout)\(refused.stderr)")
        #expect(refused.stdout.contains("tenantctl roll --review --forge gitlab"), "\(refused.stdout)")

        let (configured, configuredExample, _) = try Self.protectedExample(review: #"{"forge": "gitlab"}"#)
        let named = configured.tenantctl(["roll"], in: configuredExample.workspace)
        #expect(named.status == 2, "\(named.stdout)\(named.stderr)")
        #expect(named.stdout.contains("tenantctl roll --review"), "\(named.stdout)")
        #expect(!named.stdout.contains("--forge gitlab"), "modules.json names the kind: \(named.stdout)")
    }
}
