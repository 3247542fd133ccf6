import Foundation
import TenantExample
import TenantKit
import TenantTestSupport
import Testing

/// A new `roll --review` takes over the open proposals of the waiting run before it and ends that run right after its
/// own end. A kill between those two journal writes (no git call lies between them, so the shim cannot place it)
/// leaves both runs waiting; the next `roll --land` converges: the old run ends `finished`, by the new one, which is
/// the run followed.
@Suite struct ReviewTakeoverTests {
    /// The journal file of run `runId` in `workspace`.
    static func path(_ runId: String, in workspace: String) -> String {
        workspace + "/.git/tenantctl/journal/\(runId).json"
    }

    /// The state run `runId` has in `runs --json`, and the run that finished it.
    static func state(_ runId: String, _ sandbox: GitSandbox, in workspace: String) throws -> (String?, String?) {
        let run = try sandbox.runs(in: workspace).first { $0["runId"] as? String == runId }
        return (run?["state"] as? String, run?["finishedBy"] as? String)
    }

    @Test func aRunLeftWaitingByAKillAfterTheNextRunsEndIsFinishedByTheNextLand() throws {
        let (sandbox, example, _) = try ReviewRollTests.example()
        let first = sandbox.tenantctl(["roll", "--review", "--json"], in: example.workspace)
        #expect(first.status == 75, "\(first.stdout)\(first.stderr)")
        let old = try ReviewJournalTests.runId(first.stdout)
        let second = sandbox.tenantctl(["roll", "--review", "--json"], in: example.workspace)
        #expect(second.status == 75, "\(second.stdout)\(second.stderr)")
        let new = try ReviewJournalTests.runId(second.stdout)
        #expect(old != new)
        // Positive control: uninterrupted, the new run ended the old one, with the old journal's last line.
        #expect(try Self.state(old, sandbox, in: example.workspace) == ("finished", new))

        // What a kill right after the new run's end leaves: that last line never written.
        let path = Self.path(old, in: example.workspace)
        var lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map(String.init)
        let text = try #require(lines.last)
        let last = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        let end = try #require(last["end"] as? [String: Any], "\(last)")
        #expect(end["state"] as? String == "finished" && end["finishedBy"] as? String == new, "\(end)")
        lines.removeLast()
        try (lines.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        #expect(try Self.state(old, sandbox, in: example.workspace).0 == "waiting", "the kill's state")

        let land = sandbox.tenantctl(["roll", "--land", "--json"], in: example.workspace)
        #expect(land.status == 75, "\(land.stdout)\(land.stderr)")
        #expect(try ReviewJournalTests.runId(land.stdout) == new, "the new run is followed: \(land.stdout)")
        #expect(try Self.state(old, sandbox, in: example.workspace) == ("finished", new))
        let waiting = try sandbox.runs(in: example.workspace).filter { $0["state"] as? String == "waiting" }
        #expect(waiting.map { $0["runId"] as? String } == [new], "one waiting run: \(waiting)")
    }

    /// `roll --review --tenant t2` replaces t2's proposals only: the earlier run keeps waiting for the others (t3's),
    /// which `roll --land` goes on following and lands; a review run of every tenant then ends both.
    @Test func aReviewOfOneTenantLeavesTheOtherTenantsProposalsWaitingAndLandable() throws {
        let (sandbox, example, forge) = try ReviewRollTests.example()
        let first = sandbox.tenantctl(["roll", "--review", "--json"], in: example.workspace)
        #expect(first.status == 75, "\(first.stdout)\(first.stderr)")
        let old = try ReviewJournalTests.runId(first.stdout)
        let second = sandbox.tenantctl(["roll", "--review", "--tenant", "t2", "--json"], in: example.workspace)
        #expect(second.status == 75, "\(second.stdout)\(second.stderr)")
        let new = try ReviewJournalTests.runId(second.stdout)
        #expect(try Self.state(old, sandbox, in: example.workspace).0 == "waiting", "t3's proposals are still followed")
        #expect(try Self.state(new, sandbox, in: example.workspace).0 == "waiting")
        let journal = try RunJournal.read(gitDirectory: example.workspace + "/.git", runId: old)
        let states = Dictionary(
            (journal.reviews ?? []).map { ("\($0.repository) \($0.target)", $0.state) },
            uniquingKeysWith: { first, _ in first })
        #expect(states["Infrastructure t2"] == "superseded" && states["superproject t2"] == "superseded", "\(states)")
        #expect(states["Order t3"] == "open" && states["superproject t3"] == "waiting", "\(states)")
        #expect(states["superproject general_dev"] == "open", "the re-pin t3 waits for stays followed: \(states)")

        // The forge lands t3's Order proposal: `roll --land` follows both runs and sees it.
        let order = example.remotes + "/Order.git"
        let landed = try forge.land(
            "refs/heads/\(ReviewOptions.defaultPrefix)/t3", into: "t3", method: .merge, in: order)
        let land = sandbox.tenantctl(["roll", "--land", "--json"], in: example.workspace)
        #expect(land.status == 75, "\(land.stdout)\(land.stderr)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(land.stdout.utf8)) as? [String: Any])
        #expect(report["runs"] as? [String] == [old, new], "\(land.stdout)")
        let t3 = ReviewRollTests.review(try ReviewRollTests.reviews(land.stdout), "Order", "t3")
        #expect(t3?["state"] as? String == "landed" && t3?["landed"] as? String == landed, "\(t3 ?? [:])")
        #expect(try ReviewRollTests.violations(land.stdout, schema: "roll-land").isEmpty)

        // Positive control: a review run of every tenant replaces everything both runs follow.
        let all = sandbox.tenantctl(["roll", "--review", "--json"], in: example.workspace)
        #expect(all.status == 75, "\(all.stdout)\(all.stderr)")
        let last = try ReviewJournalTests.runId(all.stdout)
        #expect(try Self.state(old, sandbox, in: example.workspace) == ("finished", last))
        #expect(try Self.state(new, sandbox, in: example.workspace) == ("finished", last))
    }
}
