import Foundation
import TenantExample
import TenantKit
import TenantTestSupport
import Testing

/// A review the forge closed without landing: `roll --land` names the two ways on, the run keeps waiting on the
/// user's decision, `runs`, `status` and `audit` show it with both commands, and each command works as printed.
@Suite struct ReviewClosedTests {
    /// The run id of a review roll's JSON.
    static func runId(_ stdout: String) throws -> String {
        try #require(
            (try JSONSerialization.jsonObject(with: Data(stdout.utf8)) as? [String: Any])?["runId"] as? String,
            "\(stdout)")
    }

    /// The run `runId` as `runs --json` lists it.
    static func run(_ sandbox: GitSandbox, _ example: ExampleResult, _ runId: String) throws -> [String: Any] {
        let runs = sandbox.tenantctl(["runs", "--json"], in: example.workspace)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(runs.stdout.utf8)) as? [String: Any])
        return try #require((json["runs"] as? [[String: Any]])?.first { $0["runId"] as? String == runId })
    }

    /// `roll --review --tenant t1` proposes general_dev's re-pin (t1's superproject merge waits for it); the forge
    /// lands the re-pin, `roll --land` proposes t1's merge in a new run, and the forge closes it (deletes the branch).
    /// Returns that run's id.
    static func proposeAndClose(_ sandbox: GitSandbox, _ example: ExampleResult, _ forge: EmulatedForge) throws
        -> String
    {
        let proposed = sandbox.tenantctl(["roll", "--review", "--tenant", "t1", "--json"], in: example.workspace)
        #expect(proposed.status == 75, "\(proposed.stdout)\(proposed.stderr)")
        let superproject = example.remotes + "/" + ExampleBuilder.superprojectName + ".git"
        try forge.land(
            "refs/heads/\(ReviewOptions.defaultPrefix)/general_dev", into: "general_dev", method: .merge,
            in: superproject)
        let land = sandbox.tenantctl(["roll", "--land", "--json"], in: example.workspace)
        #expect(land.status == 75, "t1's merge is proposed: \(land.stdout)\(land.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(land.stdout.utf8)) as? [String: Any])
        let runId = try #require(json["followedBy"] as? String, "\(land.stdout)")
        try sandbox.git(["update-ref", "-d", "refs/heads/\(ReviewOptions.defaultPrefix)/t1"], in: superproject)
        return runId
    }

    @Test(.tags(.slow), .notInTheFastSet)
    func aClosedReviewWaitsForTheUsersDecisionAndBothWaysWork() throws {
        let (sandbox, example, forge) = try ReviewRollTests.example()
        let first = try Self.proposeAndClose(sandbox, example, forge)
        let again = "tenantctl roll --review --tenant t1"
        let abandon = "tenantctl roll --abandon \(first) --tenant t1"

        let land = sandbox.tenantctl(["roll", "--land"], in: example.workspace)
        #expect(land.status == 2, "\(land.stdout)\(land.stderr)")
        #expect(land.stdout.contains("closed"), "\(land.stdout)")
        #expect(land.stdout.contains(again) && land.stdout.contains(abandon), "\(land.stdout)")
        #expect(try Self.run(sandbox, example, first)["state"] as? String == "waiting")
        let runs = sandbox.tenantctl(["runs"], in: example.workspace)
        #expect(runs.stdout.contains(again) && runs.stdout.contains(abandon), "\(runs.stdout)")
        let status = sandbox.tenantctl(["status"], in: example.workspace)
        #expect(status.stdout.contains("closed"), "\(status.stdout)")
        #expect(status.stdout.contains(again) && status.stdout.contains(abandon), "\(status.stdout)")
        let audit = try ReviewShowTests.audit(sandbox, example)
        #expect(ReviewShowTests.codes(audit.json, "t1", "superproject").contains("stale-review"), "\(audit.text)")
        #expect(audit.text.contains(again) && audit.text.contains(abandon), "\(audit.text)")
        // Following it again changes nothing: still closed, still both ways named.
        let still = sandbox.tenantctl(["roll", "--land"], in: example.workspace)
        #expect(still.status == 2 && still.stdout.contains(abandon), "\(still.stdout)\(still.stderr)")

        // The first way: proposing it again opens a new proposal and the closed one's run ends.
        let proposedAgain = sandbox.tenantctl(["roll", "--review", "--tenant", "t1", "--json"], in: example.workspace)
        #expect(proposedAgain.status == 75, "\(proposedAgain.stdout)\(proposedAgain.stderr)")
        let second = try Self.runId(proposedAgain.stdout)
        // The closed proposal is taken over (its run goes on waiting only for its other tenants' proposals).
        let firstRun = try Self.run(sandbox, example, first)
        let stillFollowed = ((firstRun["reviews"] as? [String: Any])?["proposals"] as? [[String: Any]]) ?? []
        #expect(!stillFollowed.contains { $0["state"] as? String == "closed" }, "\(firstRun)")
        #expect(!sandbox.tenantctl(["runs"], in: example.workspace).stdout.contains(abandon))
        let superproject = example.remotes + "/" + ExampleBuilder.superprojectName + ".git"
        #expect(
            try sandbox.gitResult(
                ["rev-parse", "--verify", "refs/heads/\(ReviewOptions.defaultPrefix)/t1"], in: superproject
            )
            .status == 0, "proposed again")

        // The second way, after the new proposal is closed too: stop following it; the run ends aborted and audit
        // shows no review any more.
        try sandbox.git(["update-ref", "-d", "refs/heads/\(ReviewOptions.defaultPrefix)/t1"], in: superproject)
        let closed = sandbox.tenantctl(["roll", "--land"], in: example.workspace)
        let abandonSecond = ["roll", "--abandon", second, "--tenant", "t1"]
        #expect(closed.stdout.contains("tenantctl " + abandonSecond.joined(separator: " ")), "\(closed.stdout)")
        let stopped = sandbox.tenantctl(abandonSecond, in: example.workspace)
        #expect(stopped.status == 0, "\(stopped.stdout)\(stopped.stderr)")
        #expect(try Self.run(sandbox, example, second)["state"] as? String == "aborted")
        let after = try ReviewShowTests.audit(sandbox, example)
        #expect(!ReviewShowTests.codes(after.json, "t1", "superproject").contains("stale-review"), "\(after.text)")
    }
}
