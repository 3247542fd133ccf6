import Foundation
import TenantExample
import TenantKit
import TenantTestSupport
import Testing

/// A review roll keeps the one run journal as every other run does: its first line is the run as it began, and each
/// push's answer and each proposal's new state is a line appended after it, never a rewrite of the file. A review
/// roll stopped by a push that broke off ends as the journal model says: failed when nothing of it landed,
/// unfinished (with the error, named by the other commands) when part of it did.
@Suite struct ReviewJournalTests {
    /// The lines of run `runId`'s journal file in `workspace`, each decoded.
    static func lines(_ runId: String, in workspace: String) throws -> [[String: Any]] {
        let path = workspace + "/.git/tenantctl/journal/\(runId).json"
        let text = try String(contentsOfFile: path, encoding: .utf8)
        return try text.split(separator: "\n").map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any], "\($0)")
        }
    }

    /// The run id of a `--json` report.
    static func runId(_ stdout: String) throws -> String {
        let report = try #require(try JSONSerialization.jsonObject(with: Data(stdout.utf8)) as? [String: Any])
        return try #require(report["runId"] as? String, "\(stdout)")
    }

    /// A `pre-receive` hook in `bare` that breaks the push off (the server process dies before it answers).
    static func breakPushes(in bare: String, _ sandbox: GitSandbox) throws {
        let root = sandbox.root.hasSuffix("/") ? sandbox.root : sandbox.root + "/"
        _ = try sandbox.writeExecutable(
            String((bare + "/hooks/pre-receive").dropFirst(root.count)), "#!/bin/sh\nkill -9 $PPID\nexit 1\n")
    }

    /// A `pre-receive` hook in `bare` that refuses every push with a reason of its own (no protected branch).
    static func refusePushes(in bare: String, _ sandbox: GitSandbox) throws {
        let root = sandbox.root.hasSuffix("/") ? sandbox.root : sandbox.root + "/"
        _ = try sandbox.writeExecutable(
            String((bare + "/hooks/pre-receive").dropFirst(root.count)),
            "#!/bin/sh\necho 'error: the repository is read-only today' >&2\nexit 1\n")
    }

    @Test func theReviewRunAndItsLandingAppendToTheJournal() throws {
        let (sandbox, example, forge) = try ReviewRollTests.example()
        let proposed = sandbox.tenantctl(["roll", "--review", "--json"], in: example.workspace)
        #expect(proposed.status == 75, "\(proposed.stdout)\(proposed.stderr)")
        let runId = try Self.runId(proposed.stdout)
        let lines = try Self.lines(runId, in: example.workspace)
        // The first line is the run as it began (before any push); the pushes' answers and the proposals' states
        // follow, one line each; the last line ends the run waiting.
        let begin = try #require(lines.first?["begin"] as? [String: Any], "\(lines)")
        #expect(begin["state"] as? String == "running", "\(begin)")
        #expect(lines.count >= 4, "one line per step: \(lines)")
        #expect(lines.contains { $0["reviews"] != nil }, "the proposals' states are appended: \(lines)")
        let end = try #require(lines.last?["end"] as? [String: Any], "\(lines)")
        #expect(end["state"] as? String == "waiting")
        #expect(try sandbox.lastRun("roll", in: example.workspace)["state"] as? String == "waiting")

        // `--land` adds to the followed run's journal: what was there stays, byte for byte.
        let path = example.workspace + "/.git/tenantctl/journal/\(runId).json"
        let before = try String(contentsOfFile: path, encoding: .utf8)
        let infrastructure = example.remotes + "/Infrastructure.git"
        try forge.land("refs/heads/\(ReviewOptions.defaultPrefix)/t2", into: "t2", method: .squash, in: infrastructure)
        let land = sandbox.tenantctl(["roll", "--land", "--json"], in: example.workspace)
        #expect(land.status == 75, "\(land.stdout)\(land.stderr)")
        let after = try String(contentsOfFile: path, encoding: .utf8)
        #expect(after.hasPrefix(before) && after.count > before.count, "appended:\n\(before)\n---\n\(after)")
        let landed = try Self.lines(runId, in: example.workspace).compactMap { $0["reviews"] as? [[String: Any]] }
            .flatMap { $0 }
        #expect(
            landed.contains { $0["repository"] as? String == "Infrastructure" && $0["state"] as? String == "landed" },
            "\(landed)")
    }

    /// The second module's proposal push breaks off: the first one landed, so the run is unfinished, with the error,
    /// and the other writing commands name its re-run, which finishes it. Positive control: broken off at the first
    /// push, nothing landed, and the run failed and blocks nothing.
    @Test(.tags(.slow), .notInTheFastSet)
    func aProposalPushThatBreaksOffEndsTheRunAsTheJournalModelSays() throws {
        let (sandbox, example, _) = try ReviewRollTests.example()
        let order = example.remotes + "/Order.git"
        try Self.breakPushes(in: order, sandbox)
        let stopped = sandbox.tenantctl(["roll", "--review"], in: example.workspace)
        #expect(stopped.status == 1, "\(stopped.stdout)\(stopped.stderr)")
        let run = try sandbox.lastRun("roll", in: example.workspace)
        let runId = try #require(run["runId"] as? String)
        #expect(run["state"] as? String == "unfinished", "\(run)")
        let journal = try Self.lines(runId, in: example.workspace)
        let ended = try #require(journal.last?["end"] as? [String: Any], "the stop is recorded: \(journal)")
        #expect(ended["state"] as? String == "running")
        #expect((ended["error"] as? String)?.contains("Order") == true, "\(ended)")
        // The proposal that landed is recorded as open, the one that broke off is not.
        let states = journal.compactMap { $0["reviews"] as? [[String: Any]] }.flatMap { $0 }
        #expect(
            states.contains { $0["repository"] as? String == "Infrastructure" && $0["state"] as? String == "open" },
            "\(states)")
        let blocked = sandbox.tenantctl(["tag", "M1"], in: example.workspace)
        #expect(blocked.status == 1 && blocked.stderr.contains("tenantctl roll --review"), "\(blocked.stderr)")
        // The server is back: the re-run adopts what landed, proposes the rest and finishes the stopped run.
        try FileManager.default.removeItem(atPath: order + "/hooks/pre-receive")
        let rerun = sandbox.tenantctl(["roll", "--review", "--json"], in: example.workspace)
        #expect(rerun.status == 75, "\(rerun.stdout)\(rerun.stderr)")
        let runs = try sandbox.runs(in: example.workspace)
        #expect(runs.first { $0["runId"] as? String == runId }?["state"] as? String == "finished", "\(runs)")
        #expect(try sandbox.branches(order)[ReviewOptions.defaultPrefix + "/t3"] != nil)

        // Positive control: broken off at the first module push, nothing of the run landed: it failed.
        let (other, first, _) = try ReviewRollTests.example()
        try Self.breakPushes(in: first.remotes + "/Infrastructure.git", other)
        let failed = other.tenantctl(["roll", "--review"], in: first.workspace)
        #expect(failed.status == 1, "\(failed.stdout)\(failed.stderr)")
        #expect(try other.lastRun("roll", in: first.workspace)["state"] as? String == "failed")
        #expect(other.tenantctl(["tag", "M1"], in: first.workspace).status == 0, "a failed run blocks nothing")
    }

    /// A server that refuses the second module's proposal (not as protected): that proposal is `rejected`, the
    /// others are open, the run waits and exits 2; refused everywhere, the run proposed nothing and failed, saying
    /// why.
    @Test(.tags(.slow), .notInTheFastSet)
    func aRefusedProposalIsRejectedAndTheRunEndsAsTheJournalModelSays() throws {
        let (sandbox, example, _) = try ReviewRollTests.example()
        try Self.refusePushes(in: example.remotes + "/Order.git", sandbox)
        let result = sandbox.tenantctl(["roll", "--review", "--json"], in: example.workspace)
        #expect(result.status == 2, "\(result.stdout)\(result.stderr)")
        let reviews = try ReviewRollTests.reviews(result.stdout)
        #expect(ReviewRollTests.review(reviews, "Order", "t3")?["state"] as? String == "rejected", "\(reviews)")
        #expect(ReviewRollTests.review(reviews, "Infrastructure", "t2")?["state"] as? String == "open", "\(reviews)")
        let runId = try Self.runId(result.stdout)
        #expect(try sandbox.lastRun("roll", in: example.workspace)["state"] as? String == "waiting")
        let end = try #require(try Self.lines(runId, in: example.workspace).last?["end"] as? [String: Any])
        #expect(end["state"] as? String == "waiting", "\(end)")

        // Every proposal refused: nothing was proposed, the run failed and names why.
        let (other, refused, _) = try ReviewRollTests.example()
        for name in ["Infrastructure", "Order", ExampleBuilder.superprojectName] {
            try Self.refusePushes(in: refused.remotes + "/\(name).git", other)
        }
        let none = other.tenantctl(["roll", "--review", "--json"], in: refused.workspace)
        #expect(none.status == 2, "\(none.stdout)\(none.stderr)")
        let run = try other.lastRun("roll", in: refused.workspace)
        #expect(run["state"] as? String == "failed", "\(run)")
        #expect((run["error"] as? String)?.contains("proposals refused") == true, "\(run)")
    }
}
