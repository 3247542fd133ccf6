import Foundation
import TenantExample
import TenantKit
import TenantTestSupport
import Testing

/// The `create` command of the `review` object runs once for each new proposal branch (kind `branch`), as an argument
/// vector with the placeholders filled in and the same values in its environment; the address it prints is recorded
/// in the journal and shown. A command that fails or hangs stops the run, named with its words and exit status; the
/// proposal stays, and the re-run adopts it and runs the command for it again.
@Suite struct ReviewCreateTests {
    /// The example with a fake `gh pr create` as the `create` command of its `review` object.
    static func example(perHour: Int? = nil) throws -> (GitSandbox, ExampleResult, FakeCreateCommand) {
        let (sandbox, example, _) = try ReviewRollTests.example()
        let create = try FakeCreateCommand(in: sandbox)
        let words = [
            create.path, "--repo", "{repo}", "--base", "{target}", "--head", "{branch}", "--title", "{title}",
            "--body", "{body}",
        ]
        let array = "[" + words.map { "\"\($0)\"" }.joined(separator: ", ") + "]"
        let limit = perHour.map { ", \"perHour\": \($0)" } ?? ""
        try ReviewForgeKindsTests.configure(sandbox, example, review: "{\"create\": \(array)\(limit)}")
        return (sandbox, example, create)
    }

    /// The value after `flag` in `arguments`.
    static func value(_ flag: String, in arguments: [String]) -> String? {
        arguments.firstIndex(of: flag).flatMap { arguments.indices.contains($0 + 1) ? arguments[$0 + 1] : nil }
    }

    @Test func theCreateCommandOpensEachReviewOnceAndItsAddressIsRecordedAndShown() throws {
        let (sandbox, example, create) = try Self.example()
        let proposed = sandbox.tenantctl(["roll", "--review", "--json"], in: example.workspace)
        #expect(proposed.status == 75, "\(proposed.stdout)\(proposed.stderr)")
        let reviews = try ReviewRollTests.reviews(proposed.stdout)
        let open = reviews.filter { $0["state"] as? String == "open" }
        #expect(open.count >= 3, "Infrastructure, Order and the re-pin: \(reviews)")
        let calls = try create.answered()
        #expect(calls.count == open.count, "one review per proposal branch: \(calls)")
        for review in open {
            #expect((review["url"] as? String)?.hasPrefix("https://forge.invalid/") == true, "\(review)")
        }
        let infrastructure = try #require(ReviewRollTests.review(reviews, "Infrastructure", "t2"))
        let url = try #require(infrastructure["url"] as? String)
        let call = try #require(calls.first { $0.environment["TENANTCTL_REVIEW_REPOSITORY"] == "Infrastructure" })
        #expect(url.hasPrefix("https://forge.invalid/Infrastructure/pull/"), "\(url)")
        #expect(Self.value("--base", in: call.arguments) == "t2", "\(call)")
        #expect(Self.value("--head", in: call.arguments) == ReviewOptions.defaultPrefix + "/t2", "\(call)")
        let commit = try #require(infrastructure["proposed"] as? String)
        let bare = example.remotes + "/Infrastructure.git"
        let subject = try sandbox.git(["log", "-1", "--format=%s", commit], in: bare)
        #expect(Self.value("--title", in: call.arguments) == subject, "\(call)")
        #expect(Self.value("--body", in: call.arguments)?.contains("Rolled-by: tenantctl") == true, "\(call)")
        #expect(Self.value("--repo", in: call.arguments)?.hasSuffix("Infrastructure.git") == true, "\(call)")
        #expect(call.environment["TENANTCTL_REVIEW_TARGET"] == "t2", "\(call)")
        #expect(call.environment["TENANTCTL_REVIEW_TITLE"] == subject, "\(call)")
        // The journal keeps the address.
        let runId = try ReviewJournalTests.runId(proposed.stdout)
        let recorded = try ReviewJournalTests.lines(runId, in: example.workspace)
            .compactMap { $0["reviews"] as? [[String: Any]] }.flatMap { $0 }
        #expect(recorded.contains { $0["url"] as? String == url }, "\(recorded)")

        // A re-run adopts the open proposals and their reviews: no second review, the address shown.
        let again = sandbox.tenantctl(["roll", "--review"], in: example.workspace)
        #expect(again.status == 75, "\(again.stdout)\(again.stderr)")
        #expect(try create.answered().count == calls.count, "no second review opened")
        #expect(again.stdout.contains(url), "\(again.stdout)")
    }

    @Test(.tags(.slow), .notInTheFastSet)
    func aFailingOrHangingCreateCommandIsNamedAndTheReRunAdoptsTheProposal() throws {
        let (sandbox, example, create) = try Self.example()
        let bare = example.remotes + "/Infrastructure.git"
        try create.fail(with: "gh: you are not logged in")
        let failed = sandbox.tenantctl(["roll", "--review"], in: example.workspace)
        #expect(failed.status == 1, "\(failed.stdout)\(failed.stderr)")
        for expected in [
            "create command for", "exited 3", create.path, "gh: you are not logged in", "tenantctl roll --review",
        ] {
            #expect(failed.stderr.contains(expected), "\(expected): \(failed.stderr)")
        }
        let branch = ReviewOptions.defaultPrefix + "/t2"
        let kept = try #require(try sandbox.branches(bare)[branch], "the proposal stays")
        #expect(try create.answered().isEmpty)

        // Fixed: the re-run adopts the proposal (no new push) and opens its review.
        create.heal()
        let rerun = sandbox.tenantctl(["roll", "--review", "--json"], in: example.workspace)
        #expect(rerun.status == 75, "\(rerun.stdout)\(rerun.stderr)")
        #expect(try sandbox.branches(bare)[branch] == kept)
        let reviews = try ReviewRollTests.reviews(rerun.stdout)
        let url = ReviewRollTests.review(reviews, "Infrastructure", "t2")?["url"] as? String
        #expect(url?.hasPrefix("https://forge.invalid/Infrastructure/pull/") == true, "\(reviews)")
        #expect(try sandbox.lastRun("roll", in: example.workspace)["state"] as? String == "waiting")

        // A command that hangs is stopped at the time limit and named.
        let (other, hanging, slow) = try Self.example()
        try slow.hang()
        let start = Date()
        // A process of its own: the command inherits tenantctl's environment, which sets the limit.
        let stopped = try other.tenantctlProcess(
            ["roll", "--review"], in: hanging.workspace, environment: ["TENANTCTL_REVIEW_CREATE_TIMEOUT": "1"])
        #expect(stopped.status == 1, "\(stopped.stdout)\(stopped.stderr)")
        #expect(stopped.stderr.contains("did not end within 1 s"), "\(stopped.stderr)")
        #expect(Date().timeIntervalSince(start) < 50, "stopped at the limit, not after the command's minute")
    }

    /// Killed after the `create` command opened a review but before its address was recorded: the re-run does not
    /// run the command for that proposal branch again (it would open a second review), names the branch, the forge
    /// to check and the command to open the review by hand, and opens the other reviews.
    @Test(.tags(.slow), .notInTheFastSet)
    func aKillBetweenCreateAndItsRecordOpensNoSecondReview() throws {
        let (sandbox, example, create) = try Self.example()
        try create.killCallerOnce()
        // A process of its own: the command kills the process that ran it.
        let killed = try sandbox.tenantctlProcess(["roll", "--review", "--json"], in: example.workspace)
        #expect(killed.status != 0 && killed.status != 75, "killed: \(killed.status) \(killed.stderr)")
        let first = try create.answered()
        #expect(first.count == 1, "the first review was opened, then the kill: \(first)")
        let call = try #require(first.first)
        let branch = try #require(call.environment["TENANTCTL_REVIEW_BRANCH"])
        let repository = try #require(call.environment["TENANTCTL_REVIEW_REPOSITORY"])

        let rerun = sandbox.tenantctl(["roll", "--review", "--json"], in: example.workspace)
        #expect(rerun.status == 75, "\(rerun.stdout)\(rerun.stderr)")
        let calls = try create.answered()
        let again = calls.dropFirst().filter {
            $0.environment["TENANTCTL_REVIEW_BRANCH"] == branch
                && $0.environment["TENANTCTL_REVIEW_REPOSITORY"] == repository
        }
        #expect(again.isEmpty, "no second review of \(repository) \(branch): \(calls)")
        // Positive control: the reviews the kill left unopened are opened by the re-run.
        let reviews = try ReviewRollTests.reviews(rerun.stdout)
        let open = reviews.filter { $0["state"] as? String == "open" }
        #expect(calls.count == open.count, "every other open proposal got its review: \(calls) \(reviews)")
        for expected in ["check the forge", branch, create.path] {
            #expect(rerun.stderr.contains(expected), "\(expected): \(rerun.stderr)")
        }
        let unknown = try #require(
            reviews.first {
                $0["repository"] as? String == repository && $0["ref"] as? String == "refs/heads/" + branch
            })
        #expect(unknown["createStarted"] as? Bool == true && unknown["url"] == nil, "\(unknown)")
        // Later runs keep it so: still no second review.
        let third = sandbox.tenantctl(["roll", "--review", "--json"], in: example.workspace)
        #expect(third.status == 75, "\(third.stdout)\(third.stderr)")
        #expect(try create.answered().count == calls.count)
    }
}
