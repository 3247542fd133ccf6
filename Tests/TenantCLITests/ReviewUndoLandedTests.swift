import Foundation
import TenantExample
import TenantKit
import TenantTestSupport
import Testing

/// `roll --undo` of a review run after the forge landed one of its proposals: the landing is the forge's and no push
/// takes it back, so the undo names it as not undone, with the way to revert it (a review that reverts it); it takes
/// back the rest and ends the run, so that no later `roll --land` follows the proposals it deleted.
@Suite struct ReviewUndoLandedTests {
    @Test(.tags(.slow), .notInTheFastSet)
    func undoAfterALandingNamesItAndEndsTheRun() throws {
        let (sandbox, example, forge) = try ReviewRollTests.example()
        let infrastructure = example.remotes + "/Infrastructure.git"
        let order = example.remotes + "/Order.git"
        let proposed = sandbox.tenantctl(["roll", "--review", "--json"], in: example.workspace)
        #expect(proposed.status == 75, "\(proposed.stdout)\(proposed.stderr)")
        let runId = try ReviewClosedTests.runId(proposed.stdout)
        let prefix = "refs/heads/\(ReviewOptions.defaultPrefix)/"
        let landed = try forge.land(prefix + "t2", into: "t2", method: .merge, in: infrastructure)

        let undo = sandbox.tenantctl(["roll", "--undo", runId], in: example.workspace)
        #expect(undo.status == 2, "something stays: \(undo.stdout)\(undo.stderr)")
        #expect(
            undo.stdout.contains("Infrastructure t2: landed (merge \(ObjectID.short(landed))): not undone"),
            "\(undo.stdout)")
        #expect(undo.stdout.contains("revert"), "\(undo.stdout)")
        #expect(try sandbox.branches(infrastructure)["t2"] == landed, "the landing stays")
        #expect(try sandbox.branches(order)[ReviewOptions.defaultPrefix + "/t3"] == nil, "the open one is taken back")
        let json = sandbox.tenantctl(["runs", "--json"], in: example.workspace)
        let runs = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let run = try #require((runs["runs"] as? [[String: Any]])?.first { $0["runId"] as? String == runId })
        #expect(run["state"] as? String == "aborted", "the run ended: \(run)")

        let land = sandbox.tenantctl(["roll", "--land"], in: example.workspace)
        #expect(!land.stdout.contains("closed"), "nothing follows the undone run: \(land.stdout)\(land.stderr)")
        #expect(land.stderr.contains("no review roll is waiting"), "\(land.stdout)\(land.stderr)")
    }

    /// `--json` lists the landing the undo left, against the schema.
    @Test(.tags(.slow), .notInTheFastSet)
    func undoJSONListsTheLandingsLeft() throws {
        let (sandbox, example, forge) = try ReviewRollTests.example()
        let proposed = sandbox.tenantctl(["roll", "--review", "--json"], in: example.workspace)
        #expect(proposed.status == 75, "\(proposed.stdout)\(proposed.stderr)")
        let runId = try ReviewClosedTests.runId(proposed.stdout)
        let order = example.remotes + "/Order.git"
        let landed = try forge.land(
            "refs/heads/\(ReviewOptions.defaultPrefix)/t3", into: "t3", method: .squash, in: order)
        #expect(sandbox.tenantctl(["roll", "--land"], in: example.workspace).status == 75)
        let undo = sandbox.tenantctl(["roll", "--undo", runId, "--json"], in: example.workspace)
        #expect(undo.status == 2, "\(undo.stdout)\(undo.stderr)")
        #expect(try ReviewRollTests.violations(undo.stdout, schema: "roll-undo").isEmpty, "\(undo.stdout)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(undo.stdout.utf8)) as? [String: Any])
        let left = try #require(json["landedLeft"] as? [[String: Any]], "\(undo.stdout)")
        #expect(
            left.contains {
                $0["repository"] as? String == "Order" && $0["landed"] as? String == landed
                    && $0["method"] as? String == "squash"
            }, "\(left)")
    }
}
