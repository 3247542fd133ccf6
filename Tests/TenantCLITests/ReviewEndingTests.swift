import Foundation
import TenantExample
import TenantKit
import TenantTestSupport
import Testing

/// How a review roll ends: `roll --review` whose only tenant conflicts needs attention (exit 2) even though it proposes
/// nothing, and `roll --abandon` ends every proposal of the run that did not land, so the run ends aborted.
@Suite struct ReviewEndingTests {
    /// A conflicting tenant alone: nothing of it is proposed, it names its resolve for review and the roll exits 2
    /// (needs attention), beside general_dev's re-pin and with nothing proposed at all; a tenant that is proposed
    /// alone waits on its reviews (75, the control).
    @Test func aReviewRollWhoseOnlyTenantConflictsNeedsAttention() throws {
        let sandbox = try GitSandbox()
        let example = try ExampleBuilder(git: try sandbox.gitRunner()).build(in: sandbox.path("erp"), stage: .conflict)
        let json = sandbox.tenantctl(["roll", "--review", "--tenant", "t2", "--json"], in: example.workspace)
        #expect(json.status == 2, "\(json.stdout)\(json.stderr)")
        let tenants = try ReviewRollTests.tenants(json.stdout)
        #expect(tenants["t2"]?["status"] as? String == "conflict", "\(tenants["t2"] ?? [:])")
        #expect(tenants["t2"]?["next"] as? String == "tenantctl resolve t2 --review", "\(tenants["t2"] ?? [:])")
        #expect(!(try ReviewRollTests.reviews(json.stdout)).contains { $0["tenant"] as? String == "t2" })
        // general_dev's re-pin lands: the next review roll of t2 proposes nothing at all, and still needs attention.
        let superproject = example.remotes + "/" + ExampleBuilder.superprojectName + ".git"
        try sandbox.git(
            ["update-ref", "refs/heads/general_dev", "refs/heads/\(ReviewOptions.defaultPrefix)/general_dev"],
            in: superproject)
        #expect(sandbox.tenantctl(["roll", "--land"], in: example.workspace).status == 0)
        let text = sandbox.tenantctl(["roll", "--review", "--tenant", "t2"], in: example.workspace)
        #expect(text.status == 2, "\(text.stdout)\(text.stderr)")
        #expect(text.stdout.contains("nothing to propose"), "\(text.stdout)")
        #expect(text.stdout.contains("tenantctl resolve t2 --review"), "\(text.stdout)")

        let control = sandbox.tenantctl(["roll", "--review", "--tenant", "t3", "--json"], in: example.workspace)
        #expect(control.status == 75, "positive control: t3 is proposed: \(control.stdout)\(control.stderr)")
        #expect(!(try ReviewRollTests.reviews(control.stdout)).isEmpty)
    }

    /// `--abandon` ends a superproject proposal that still waits on its module proposals (never pushed) and a proposal
    /// closed on the forge as well as the open ones: the run ends aborted and audit no longer lists any of them.
    @Test(.tags(.slow), .notInTheFastSet)
    func abandonEndsWaitingAndClosedProposalsToo() throws {
        let (sandbox, example, _) = try ReviewRollTests.example()
        let order = example.remotes + "/Order.git"
        let proposed = sandbox.tenantctl(["roll", "--review", "--json"], in: example.workspace)
        #expect(proposed.status == 75, "\(proposed.stdout)\(proposed.stderr)")
        let runId = try #require(
            (try JSONSerialization.jsonObject(with: Data(proposed.stdout.utf8)) as? [String: Any])?["runId"] as? String)
        // Order's proposal branch is deleted without a landing: the review was closed.
        try sandbox.git(["update-ref", "-d", "refs/heads/\(ReviewOptions.defaultPrefix)/t3"], in: order)
        let land = sandbox.tenantctl(["roll", "--land", "--json"], in: example.workspace)
        #expect(land.status == 2, "\(land.stdout)\(land.stderr)")
        let states = Set(try ReviewRollTests.reviews(land.stdout).compactMap { $0["state"] as? String })
        #expect(states.isSuperset(of: ["closed", "waiting", "open"]), "control: all three kinds exist: \(states)")
        let before = try ReviewShowTests.audit(sandbox, example)
        #expect(!ReviewShowTests.reviews(before.json).isEmpty, "control: audit lists the run's proposals first")

        let abandon = sandbox.tenantctl(["roll", "--abandon", runId, "--json"], in: example.workspace)
        #expect(abandon.status == 0, "\(abandon.stdout)\(abandon.stderr)")
        let left = try ReviewRollTests.reviews(abandon.stdout).filter {
            !["abandoned", "landed"].contains($0["state"] as? String ?? "")
        }
        #expect(left.isEmpty, "every proposal that did not land is abandoned: \(left)")
        let removed = (try JSONSerialization.jsonObject(with: Data(abandon.stdout.utf8)) as? [String: Any])?["removed"]
        #expect((removed as? [String] ?? []).contains { $0.hasPrefix("Infrastructure ") }, "\(abandon.stdout)")

        let runs = sandbox.tenantctl(["runs", "--json"], in: example.workspace)
        let runsJSON = try #require(try JSONSerialization.jsonObject(with: Data(runs.stdout.utf8)) as? [String: Any])
        let run = try #require((runsJSON["runs"] as? [[String: Any]])?.first { $0["runId"] as? String == runId })
        #expect(run["state"] as? String == "aborted", "\(run)")
        let after = try ReviewShowTests.audit(sandbox, example)
        #expect(ReviewShowTests.reviews(after.json).isEmpty, "\(ReviewShowTests.reviews(after.json))")
        // Abandoning it again changes nothing and still succeeds.
        #expect(sandbox.tenantctl(["roll", "--abandon", runId], in: example.workspace).status == 0)
    }
}
