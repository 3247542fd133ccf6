import Foundation
import TenantExample
import TenantKit
import TenantTestSupport
import Testing

/// `roll --undo` of a review roll: its proposal branches are deleted, each only while it holds what the run pushed;
/// a push into a forge's review namespace (`refs/for/…`) cannot be taken back, and the undo says so, naming the
/// review to close on the forge, instead of taking it as undone.
@Suite struct ReviewUndoTests {
    /// The example with AGit everywhere but Infrastructure, which proposes on a branch.
    static func example() throws -> (GitSandbox, ExampleResult, EmulatedForge) {
        let (sandbox, example, forge) = try ReviewRollTests.example()
        try ReviewForgeKindsTests.configure(
            sandbox, example, review: #"{"forge": "agit"}"#, moduleReview: ["Infrastructure": #"{"forge": "branch"}"#])
        for name in ["Order", ExampleBuilder.superprojectName] {
            try forge.serve(.agit, in: example.remotes + "/\(name).git")
        }
        return (sandbox, example, forge)
    }

    @Test func undoDeletesTheProposalBranchAndNamesTheReviewsItCannotTakeBack() throws {
        let (sandbox, example, forge) = try Self.example()
        let proposed = sandbox.tenantctl(["roll", "--review", "--json"], in: example.workspace)
        #expect(proposed.status == 75, "\(proposed.stdout)\(proposed.stderr)")
        let runId = try ReviewJournalTests.runId(proposed.stdout)
        let infrastructure = example.remotes + "/Infrastructure.git"
        let order = example.remotes + "/Order.git"
        let branch = ReviewOptions.defaultPrefix + "/t2"
        #expect(try sandbox.branches(infrastructure)[branch] != nil, "positive control: proposed on a branch")
        #expect(try forge.reviews(in: order).count == 1)

        let undo = sandbox.tenantctl(["roll", "--undo", runId], in: example.workspace)
        #expect(undo.status == 0, "\(undo.stdout)\(undo.stderr)")
        #expect(try sandbox.branches(infrastructure)[branch] == nil, "the proposal branch is deleted")
        #expect(undo.stdout.contains("\(branch): "), "\(undo.stdout)")
        for expected in [
            "Order refs/for/t3: not taken back: close the review on the forge (https://forge.invalid/Order/pulls/1)",
            "superproject refs/for/general_dev: not taken back: close the review on the forge",
        ] {
            #expect(undo.stdout.contains(expected), "\(expected): \(undo.stdout)")
        }
        // The forge's review is there still, and the journal does not call the push undone.
        #expect(try forge.reviews(in: order).count == 1)
        let undone = try ReviewJournalTests.lines(runId, in: example.workspace).compactMap {
            $0["undone"] as? [String: Any]
        }
        let refs = undone.flatMap { $0["refs"] as? [String] ?? [] }
        #expect(refs.contains("refs/heads/" + branch) && !refs.contains { $0.hasPrefix("refs/for/") }, "\(undone)")
    }

    /// A proposal branch someone pushed to since is theirs: the undo refuses and names it, deleting nothing;
    /// `--json` lists the reviews left (checked against the schema).
    @Test(.tags(.slow), .notInTheFastSet)
    func undoDeletesNoProposalBranchSomeoneMovedAndReportsInJSON() throws {
        let (sandbox, example, _) = try Self.example()
        let proposed = sandbox.tenantctl(["roll", "--review", "--json"], in: example.workspace)
        #expect(proposed.status == 75, "\(proposed.stdout)\(proposed.stderr)")
        let runId = try ReviewJournalTests.runId(proposed.stdout)
        let infrastructure = example.remotes + "/Infrastructure.git"
        let branch = ReviewOptions.defaultPrefix + "/t2"
        let clone = sandbox.path("infrastructure-review")
        try sandbox.git(["clone", "-q", "--branch", branch, infrastructure, clone])
        try sandbox.commit(in: "infrastructure-review", file: "review-fix", content: "x\n", message: "review fix")
        try sandbox.git(["push", "-q", "origin", "HEAD"], in: clone)
        let moved = try #require(try sandbox.branches(infrastructure)[branch])

        let refused = sandbox.tenantctl(["roll", "--undo", runId], in: example.workspace)
        #expect(refused.status != 0, "\(refused.stdout)\(refused.stderr)")
        #expect(refused.stderr.contains("Infrastructure refs/heads/\(branch)"), "\(refused.stderr)")
        #expect(try sandbox.branches(infrastructure)[branch] == moved, "kept")

        // Put back where the run left it, the undo goes through; its JSON lists the reviews left.
        let left = try #require(
            ReviewRollTests.review(try ReviewRollTests.reviews(proposed.stdout), "Infrastructure", "t2")?["proposed"]
                as? String)
        try sandbox.git(["push", "-q", "--force", "origin", "\(left):refs/heads/\(branch)"], in: clone)
        let undo = sandbox.tenantctl(["roll", "--undo", runId, "--json"], in: example.workspace)
        #expect(undo.status == 0, "\(undo.stdout)\(undo.stderr)")
        #expect(try ReviewRollTests.violations(undo.stdout, schema: "roll-undo").isEmpty)
        let report = try #require(try JSONSerialization.jsonObject(with: Data(undo.stdout.utf8)) as? [String: Any])
        let reviews = report["reviewsLeft"] as? [[String: Any]] ?? []
        #expect(reviews.map { $0["ref"] as? String }.contains("refs/for/t3"), "\(reviews)")
        #expect(try sandbox.branches(infrastructure)[branch] == nil)
    }
}
