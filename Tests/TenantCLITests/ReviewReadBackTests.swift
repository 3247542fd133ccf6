import Foundation
import TenantExample
import TenantKit
import TenantTestSupport
import Testing

/// AGit and Gerrit keep a proposal pushed to `refs/for/…` as a review ref of theirs (`refs/pull/<n>/head`,
/// `refs/changes/<nn>/<n>/<patch set>`). `roll --review` reads them back: an unchanged proposal is not pushed again
/// (its review is adopted, with its ref), a changed one is pushed and updates the same review.
@Suite struct ReviewReadBackTests {
    static let modules = ["Infrastructure", "Article", "Customer", "Order"]

    /// The example served as a forge of `kind` everywhere (tenant branches protected; the modules' general branch
    /// open, so that a developer can push a general change).
    static func example(_ kind: EmulatedForge.Kind) throws -> (GitSandbox, ExampleResult, EmulatedForge) {
        let (sandbox, example, forge) = try ReviewRollTests.example()
        try ReviewForgeKindsTests.configure(sandbox, example, review: "{\"forge\": \"\(kind.rawValue)\"}")
        for name in Self.modules + [ExampleBuilder.superprojectName] {
            let bare = example.remotes + "/\(name).git"
            try forge.serve(kind, in: bare)
            try forge.protect(
                ["t1", "t2", "t3"] + (name == ExampleBuilder.superprojectName ? ["general_dev"] : []), in: bare)
        }
        return (sandbox, example, forge)
    }

    /// How many ref updates each repository's forge has received.
    static func receivedCounts(_ forge: EmulatedForge, _ example: ExampleResult) throws -> [String: Int] {
        var counts: [String: Int] = [:]
        for name in Self.modules + [ExampleBuilder.superprojectName] {
            counts[name] = try forge.received(in: example.remotes + "/\(name).git").count
        }
        return counts
    }

    static func readBack(_ kind: EmulatedForge.Kind) throws {
        let (sandbox, example, forge) = try Self.example(kind)
        let infrastructure = example.remotes + "/Infrastructure.git"
        let first = sandbox.tenantctl(["roll", "--review", "--json"], in: example.workspace)
        #expect(first.status == 75, "\(first.stdout)\(first.stderr)")
        let opened = try forge.reviews(in: infrastructure)
        #expect(opened.count == 1, "\(opened)")
        let proposal = try #require(
            ReviewRollTests.review(try ReviewRollTests.reviews(first.stdout), "Infrastructure", "t2"))
        #expect(proposal["reviewRef"] as? String == opened.first?.ref, "the review ref is read back: \(proposal)")
        let received = try Self.receivedCounts(forge, example)
        #expect(received["Infrastructure"] == 1 && received["Order"] == 1, "positive control: pushed once: \(received)")

        // Unchanged: nothing is pushed again, every review is adopted as the forge holds it.
        let again = sandbox.tenantctl(["roll", "--review", "--json"], in: example.workspace)
        #expect(again.status == 75, "\(again.stdout)\(again.stderr)")
        #expect(try Self.receivedCounts(forge, example) == received, "no proposal pushed again")
        let adopted = try #require(
            ReviewRollTests.review(try ReviewRollTests.reviews(again.stdout), "Infrastructure", "t2"))
        #expect(adopted["state"] as? String == "open", "\(adopted)")
        #expect(adopted["proposed"] as? String == proposal["proposed"] as? String, "\(adopted)")
        #expect(adopted["reviewRef"] as? String == opened.first?.ref, "\(adopted)")

        // A new general change of Infrastructure: its proposal is pushed again and updates the same review; Order's
        // is still not pushed.
        let developer = sandbox.path("infrastructure-clone")
        try sandbox.git(["clone", "-q", "--branch", "general_dev", infrastructure, developer])
        try sandbox.commit(
            in: "infrastructure-clone", file: "NewGeneralChange.txt", content: "new\n", message: "a new general change")
        try sandbox.git(["push", "-q", "origin", "general_dev"], in: developer)
        let updated = sandbox.tenantctl(["roll", "--review", "--json"], in: example.workspace)
        #expect(updated.status == 75, "\(updated.stdout)\(updated.stderr)")
        let after = try Self.receivedCounts(forge, example)
        #expect(after["Infrastructure"] == 3 && after["Order"] == 1, "general_dev, then the proposal: \(after)")
        let reviews = try forge.reviews(in: infrastructure)
        #expect(reviews.map(\.number) == opened.map(\.number), "the same review: \(reviews)")
        let changed = try #require(
            ReviewRollTests.review(try ReviewRollTests.reviews(updated.stdout), "Infrastructure", "t2"))
        #expect(changed["proposed"] as? String != proposal["proposed"] as? String)
        #expect(changed["proposed"] as? String == reviews.first?.commit, "\(changed) \(reviews)")
        #expect(changed["reviewRef"] as? String == reviews.first?.ref, "\(changed) \(reviews)")
        try ReviewRollTests.expectNoUnlandedPin(sandbox, example)
    }

    @Test func anUnchangedAGitProposalIsNotPushedAgainAndAChangedOneUpdatesItsReview() throws {
        try Self.readBack(.agit)
    }

    @Test(.tags(.slow), .notInTheFastSet)
    func anUnchangedGerritChangeIsNotPushedAgainAndAChangedOneIsANewPatchSet() throws {
        try Self.readBack(.gerrit)
    }
}
