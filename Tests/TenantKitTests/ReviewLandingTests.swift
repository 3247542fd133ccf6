import Foundation
import TenantKit
import TenantTestSupport
import Testing

@testable import TenantRoll

/// The landing rule recognises a proposal landed by merge commit, fast-forward, squash and rebase on a forge emulated
/// with git hooks, and says `open` before and `closed` for a proposal branch deleted without landing.
@Suite struct ReviewLandingTests {
    /// A bare remote with a tenant branch `t` (its own change) and `general` (two general changes), and a roll's
    /// proposal: a merge commit of `general` into `t` on `tenantctl/roll/t`. Returns the review as proposed.
    static func proposal() throws -> (GitSandbox, EmulatedForge, String, RunJournal.Review) {
        let sandbox = try GitSandbox()
        let bare = sandbox.path("module.git")
        try sandbox.git(["init", "-q", "--bare", "-b", "general", bare])
        try sandbox.makeRepository("clone", branch: "general", files: ["a": "1\n", "b": "1\n"])
        let clone = sandbox.path("clone")
        try sandbox.git(["remote", "add", "origin", bare], in: clone)
        try sandbox.git(["checkout", "-q", "-b", "t"], in: clone)
        let base = try sandbox.commit(in: "clone", file: "t", content: "tenant\n", message: "tenant change")
        try sandbox.git(["checkout", "-q", "general"], in: clone)
        try sandbox.commit(in: "clone", file: "a", content: "2\n", message: "general change a")
        let general = try sandbox.commit(in: "clone", file: "b", content: "2\n", message: "general change b")
        try sandbox.git(["checkout", "-q", "t"], in: clone)
        try sandbox.git(["merge", "-q", "--no-ff", "-m", "Roll general into t", "general"], in: clone)
        let proposed = try sandbox.git(["rev-parse", "HEAD"], in: clone)
        try sandbox.git(
            ["push", "-q", "origin", "general", "\(base):refs/heads/t", "HEAD:refs/heads/tenantctl/roll/t"], in: clone)
        let forge = EmulatedForge(sandbox: sandbox)
        try forge.protect(["t"], in: bare)
        let review = RunJournal.Review(
            repository: "Module", tenant: "t", target: "t", ref: "refs/heads/tenantctl/roll/t", base: base,
            general: general, proposed: proposed, state: "open")
        return (sandbox, forge, bare, review)
    }

    static func follow(_ review: RunJournal.Review, in bare: String, sandbox: GitSandbox) throws -> RunJournal.Review {
        try ReviewLanding(repository: GitRepository(bare, git: try sandbox.gitRunner())).follow(
            review, target: "refs/heads/t", proposal: review.ref)
    }

    @Test(arguments: EmulatedForge.Method.allCases)
    func everyLandingMethodIsRecognised(method: EmulatedForge.Method) throws {
        let (sandbox, forge, bare, review) = try Self.proposal()
        #expect(try Self.follow(review, in: bare, sandbox: sandbox).state == "open", "positive control: not landed yet")
        let tip = try forge.land("tenantctl/roll/t", into: "t", method: method, in: bare)
        let followed = try Self.follow(review, in: bare, sandbox: sandbox)
        #expect(followed.state == "landed")
        #expect(followed.method == method.rawValue)
        #expect(followed.landed == tip)
    }

    /// The target moved with a change that conflicts with the proposal: `conflict`, not `open`.
    @Test func aTargetThatMovedAgainstTheProposalIsAConflict() throws {
        let (sandbox, _, bare, review) = try Self.proposal()
        let clone = sandbox.path("clone")
        try sandbox.git(["checkout", "-q", "-B", "moved", review.base ?? ""], in: clone)
        try sandbox.commit(in: "clone", file: "a", content: "3\n", message: "tenant changes a too")
        // Someone with the right to push lands it on the protected branch (the forge's own update, no hook).
        try sandbox.git(["fetch", "-q", clone, "+moved:refs/heads/t"], in: bare)
        #expect(try Self.follow(review, in: bare, sandbox: sandbox).state == "conflict")
    }

    @Test func aProposalDeletedWithoutLandingIsClosed() throws {
        let (sandbox, _, bare, review) = try Self.proposal()
        try sandbox.git(["update-ref", "-d", review.ref], in: bare)
        #expect(try Self.follow(review, in: bare, sandbox: sandbox).state == "closed")
    }

    /// A review run's journal is written by the same hand encoder as every run's, byte for byte `JSONEncoder`'s, and
    /// reads back (a state `waiting`, a review with and without its landing).
    @Test func aReviewRunsJournalHasTheSameBytesAsJSONEncoder() throws {
        let (_, _, _, review) = try Self.proposal()
        var journal = RunJournal(runId: "20261126-200000-abcdef", createdAt: "2026-11-26T20:00:00Z", entries: [])
        journal.state = .waiting
        var landed = review
        landed.state = "landed"
        landed.landed = String(repeating: "c", count: 40)
        landed.method = "squash"
        landed.url = "https://example.com/pull/1 \u{7}"
        journal.reviews = [review, landed]
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        #expect(journal.encoded() == (try encoder.encode(journal)))
        #expect(try JSONDecoder().decode(RunJournal.self, from: journal.encoded()) == journal)
    }
}
