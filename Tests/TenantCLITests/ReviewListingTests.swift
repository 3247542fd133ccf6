import Foundation
import TenantExample
import TenantKit
import TenantTestSupport
import Testing

/// The smaller words of a review roll's listings: `--land` over two runs names each proposal once and says where the
/// proposals went on; a conflicting tenant's resolve is named after general_dev's re-pin it needs; the HTML page
/// links review addresses; `runs` counts what a run changed and what an abandoned run had.
@Suite struct ReviewListingTests {
    /// Two review runs, one per tenant, over a protected general_dev: both propose its re-pin; `--land` follows both
    /// and names that proposal once, and says where the proposals went on in plain words.
    @Test(.tags(.slow), .notInTheFastSet)
    func landOverTwoRunsNamesEachProposalOnce() throws {
        let (sandbox, example, forge) = try ReviewWordsTests.protectedExample()
        let first = sandbox.tenantctl(["roll", "--review", "--tenant", "t2"], in: example.workspace)
        #expect(first.status == 75, "\(first.stdout)\(first.stderr)")
        let second = sandbox.tenantctl(["roll", "--review", "--tenant", "t3"], in: example.workspace)
        #expect(second.status == 75, "\(second.stdout)\(second.stderr)")
        let land = sandbox.tenantctl(["roll", "--land"], in: example.workspace)
        #expect(land.status == 75, "\(land.stdout)\(land.stderr)")
        let repins = land.stdout.split(separator: "\n").filter { $0.contains("superproject general_dev:") }
        #expect(repins.count == 1, "\(land.stdout)")

        // general_dev's re-pin lands: the next --land proposes the tenants' superproject merges in a new run.
        let superproject = example.remotes + "/" + ExampleBuilder.superprojectName + ".git"
        try forge.land(
            "refs/heads/\(ReviewOptions.defaultPrefix)/general_dev", into: "general_dev", method: .merge,
            in: superproject)
        let infrastructure = example.remotes + "/Infrastructure.git"
        try forge.land(
            "refs/heads/\(ReviewOptions.defaultPrefix)/t2", into: "t2", method: .merge, in: infrastructure)
        let next = sandbox.tenantctl(["roll", "--land"], in: example.workspace)
        #expect(next.status == 75, "\(next.stdout)\(next.stderr)")
        #expect(!next.stdout.contains("proposed on in run"), "\(next.stdout)")
        #expect(next.stdout.contains("proposals made now are followed by review run"), "\(next.stdout)")
    }

    /// On the conflict stage with general_dev protected, `roll --review` proposes general_dev's re-pin and names the
    /// conflicting tenant's resolve as coming after it lands (resolve refuses before).
    @Test func aConflictingTenantsResolveComesAfterTheRepinLands() throws {
        let sandbox = try GitSandbox()
        let example = try ExampleBuilder(git: try sandbox.gitRunner()).build(in: sandbox.path("erp"), stage: .conflict)
        let forge = EmulatedForge(sandbox: sandbox)
        try forge.protect(
            ["t1", "t2", "t3", "general_dev"], in: example.remotes + "/" + ExampleBuilder.superprojectName + ".git")
        let text = sandbox.tenantctl(["roll", "--review", "--tenant", "t2"], in: example.workspace)
        #expect(text.status == 2, "\(text.stdout)\(text.stderr)")
        #expect(
            text.stdout.contains(
                "t2: once general_dev's re-pin landed (tenantctl roll --land): tenantctl resolve t2 --review"),
            "\(text.stdout)")
    }

    /// The page links each review's address; the list's text stays escaped.
    @Test func theAuditPageLinksReviewAddresses() throws {
        let (sandbox, example, _) = try ReviewUndoTests.example()
        let proposed = sandbox.tenantctl(["roll", "--review"], in: example.workspace)
        #expect(proposed.status == 75, "\(proposed.stdout)\(proposed.stderr)")
        let html = sandbox.tenantctl(["audit", "--format", "html"], in: example.workspace)
        #expect(html.stdout.contains("t3/Order: review"), "control: the review is listed: \(html.stdout.prefix(3000))")
        #expect(
            html.stdout.contains(
                "<a href=\"https://forge.invalid/Order/pulls/1\">https://forge.invalid/Order/pulls/1</a>"),
            "\(html.stdout.prefix(4000))")
    }

    /// `runs`: a plain roll whose every push was refused changed nothing and says so; an abandoned review run says
    /// how many proposals it abandoned.
    @Test(.tags(.slow), .notInTheFastSet)
    func runsCountsWhatARunChangedAndAbandoned() throws {
        let (sandbox, example, _) = try ReviewWordsTests.protectedExample()
        let refused = sandbox.tenantctl(["roll", "--json"], in: example.workspace)
        #expect(refused.status == 2, "\(refused.stdout)\(refused.stderr)")
        let plainRun = try ReviewClosedTests.runId(refused.stdout)
        let proposed = sandbox.tenantctl(["roll", "--review", "--json"], in: example.workspace)
        #expect(proposed.status == 75, "\(proposed.stdout)\(proposed.stderr)")
        let reviewRun = try ReviewClosedTests.runId(proposed.stdout)
        let count = try ReviewRollTests.reviews(proposed.stdout).count
        #expect(sandbox.tenantctl(["roll", "--abandon", reviewRun], in: example.workspace).status == 0)

        let runs = sandbox.tenantctl(["runs"], in: example.workspace)
        let lines = runs.stdout.split(separator: "\n")
        let plain = try #require(lines.first { $0.hasPrefix(plainRun) }, "\(runs.stdout)")
        #expect(plain.contains("nothing changed"), "\(plain)")
        let abandoned = try #require(lines.first { $0.hasPrefix(reviewRun) }, "\(runs.stdout)")
        #expect(abandoned.contains("\(count) abandoned") && !abandoned.contains("no proposals"), "\(abandoned)")
    }

    /// `resolve --continue` of a resolution proposed for review prints the address the create command opened.
    @Test(.tags(.slow), .notInTheFastSet)
    func resolveContinuePrintsTheAddressItOpened() throws {
        let (sandbox, example, create) = try ResolveReviewCreateTests.example()
        let continued = try ResolveReviewCreateTests.resolve(
            sandbox, example, content: ExampleScenario.conflictResolution.content)
        #expect(try create.answered().count == 1, "control: the create command ran")
        #expect(continued.stdout.contains("https://forge.invalid/Infrastructure/pull/1"), "\(continued.stdout)")
    }
}
