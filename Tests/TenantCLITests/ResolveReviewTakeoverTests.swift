import Foundation
import TenantExample
import TenantKit
import TenantTestSupport
import Testing

/// `resolve <t> --review` takes over what it replaces as `roll --review --tenant <t>` does: the proposals of the same
/// repository and target. Other tenants' proposals stay with the waiting runs that made them, and `roll --land`
/// follows and lands them.
@Suite(.tags(.slow), .notInTheFastSet) struct ResolveReviewTakeoverTests {
    /// The example at its conflict after a plain roll (t2 in conflict), every tenant branch protected, and one more
    /// general change in the superproject (a file of its own, no pin), so that t1 and t3 have a proposal to make.
    static func example() throws -> (GitSandbox, ExampleResult, EmulatedForge) {
        let sandbox = try GitSandbox()
        let example = try ExampleBuilder(git: try sandbox.gitRunner()).build(
            in: sandbox.path("erp"), stage: .conflict)
        let rolled = sandbox.tenantctlOfBuild(["roll"], in: example.workspace)
        #expect(rolled.status == 2, "\(rolled.stdout)\(rolled.stderr)")
        let forge = EmulatedForge(sandbox: sandbox)
        for name in ResolveReviewKindsTests.repositories {
            try forge.protect(["t1", "t2", "t3"], in: example.remotes + "/\(name).git")
        }
        let superproject = example.remotes + "/" + ExampleBuilder.superprojectName + ".git"
        try sandbox.git(["clone", "-q", "--branch", "general_dev", superproject, sandbox.path("general")])
        _ = try sandbox.commit(in: "general", file: "NOTES.md", content: "notes\n", message: "general notes")
        try sandbox.git(["push", "-q", "origin", "general_dev"], in: sandbox.path("general"))
        return (sandbox, example, forge)
    }

    @Test func aResolutionLeavesOtherRunsProposalsWaitingAndLandLandsThemAll() throws {
        let (sandbox, example, forge) = try Self.example()
        let superproject = example.remotes + "/" + ExampleBuilder.superprojectName + ".git"
        // Two waiting runs: the first follows t1 (its t3 proposal replaced), the second t3.
        let all = sandbox.tenantctlOfBuild(["roll", "--review", "--json"], in: example.workspace)
        #expect([2, 75].contains(all.status), "\(all.stdout)\(all.stderr)")
        let first = try ReviewJournalTests.runId(all.stdout)
        let one = sandbox.tenantctlOfBuild(["roll", "--review", "--tenant", "t3", "--json"], in: example.workspace)
        #expect(one.status == 75, "\(one.stdout)\(one.stderr)")
        let second = try ReviewJournalTests.runId(one.stdout)
        #expect(try ReviewTakeoverTests.state(first, sandbox, in: example.workspace).0 == "waiting")
        #expect(try ReviewTakeoverTests.state(second, sandbox, in: example.workspace).0 == "waiting")

        // t2 resolved into its review: it replaces nothing of t1's or t3's.
        _ = try ResolveReviewCreateTests.resolve(sandbox, example, content: ExampleScenario.conflictResolution.content)
        #expect(try ReviewTakeoverTests.state(first, sandbox, in: example.workspace).0 == "waiting", "t1 followed")
        #expect(try ReviewTakeoverTests.state(second, sandbox, in: example.workspace).0 == "waiting", "t3 followed")

        // The forge lands t1's and t3's proposals: roll --land follows every waiting run and sees both.
        for tenant in ["t1", "t3"] {
            try forge.land(
                "refs/heads/\(ReviewOptions.defaultPrefix)/\(tenant)", into: tenant, method: .merge, in: superproject)
        }
        let land = sandbox.tenantctlOfBuild(["roll", "--land", "--json"], in: example.workspace)
        #expect(land.status == 75, "t2's review stays open: \(land.stdout)\(land.stderr)")
        let reviews = try ReviewRollTests.reviews(land.stdout)
        for tenant in ["t1", "t3"] {
            // Each run's proposals are listed (t3's first run shows its replaced proposal `superseded`).
            let states = reviews.filter {
                $0["repository"] as? String == "superproject" && $0["target"] as? String == tenant
            }.compactMap { $0["state"] as? String }
            #expect(states.contains("landed") && !states.contains("open"), "\(tenant): \(reviews)")
        }
        #expect(ReviewRollTests.review(reviews, "Infrastructure", "t2")?["state"] as? String == "open", "\(reviews)")
        try ReviewRollTests.expectNoUnlandedPin(sandbox, example)
    }
}
