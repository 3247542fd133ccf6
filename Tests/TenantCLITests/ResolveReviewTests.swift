import Foundation
import TenantExample
import TenantKit
import TenantTestSupport
import Testing

/// Protected tenant branches on a forge emulated with git hooks: `roll --review` proposes nothing for a tenant whose
/// merge conflicts and names `tenantctl resolve <t> --review`; that resolves as `resolve` does, and `--continue`
/// proposes the result as the tenant's review. Nothing reaches a protected branch, the run waits for the review and
/// `roll --land` follows it; resolving again updates the same review, and the same resolution keeps it as it is.
@Suite(.tags(.slow), .notInTheFastSet) struct ResolveReviewTests {
    /// `resolve t2 --review`, the conflict resolved with `content` and staged, then `--continue`.
    static func resolve(_ sandbox: GitSandbox, _ example: ExampleResult, content: String) throws -> CLIResult {
        let started = sandbox.tenantctl(["resolve", "t2", "--review"], in: example.workspace)
        #expect(started.status == 2, "\(started.stdout)\(started.stderr)")
        let module = "\(example.workspace)/Modules/\(ExampleScenario.conflictResolution.module)"
        try content.write(
            toFile: "\(module)/\(ExampleScenario.conflictResolution.file)", atomically: true, encoding: .utf8)
        try sandbox.git(["add", ExampleScenario.conflictResolution.file], in: module)
        let continued = sandbox.tenantctl(["resolve", "--continue"], in: example.workspace)
        #expect(continued.status == 0, "\(continued.stdout)\(continued.stderr)")
        return continued
    }

    @Test func aConflictingTenantIsResolvedIntoItsReviewNeverIntoItsProtectedBranch() throws {
        let sandbox = try GitSandbox()
        let example = try ExampleBuilder(git: try sandbox.gitRunner()).build(
            in: sandbox.path("erp"), stage: .conflict)
        // general_dev is re-pinned and the other tenants rolled; then the tenant branches become protected.
        let rolled = sandbox.tenantctl(["roll"], in: example.workspace)
        #expect(rolled.status == 2, "\(rolled.stdout)\(rolled.stderr)")
        let forge = EmulatedForge(sandbox: sandbox)
        let superproject = example.remotes + "/" + ExampleBuilder.superprojectName + ".git"
        let infrastructure = example.remotes + "/Infrastructure.git"
        let bares = [superproject] + RollFixture.modules.map { example.remotes + "/\($0).git" }
        for bare in bares { try forge.protect(["t1", "t2", "t3"], in: bare) }
        func tenantBranches() throws -> [[String: String]] {
            try bares.map { try sandbox.branches($0).filter { ["t1", "t2", "t3"].contains($0.key) } }
        }
        let protectedBefore = try tenantBranches()

        // roll --review: t2 conflicts, nothing of it is proposed, and its next step is resolve --review.
        let proposed = sandbox.tenantctl(["roll", "--review", "--json"], in: example.workspace)
        let tenants = try ReviewRollTests.tenants(proposed.stdout)
        #expect(tenants["t2"]?["status"] as? String == "conflict", "\(proposed.stdout)\(proposed.stderr)")
        #expect(tenants["t2"]?["next"] as? String == "tenantctl resolve t2 --review", "\(tenants["t2"] ?? [:])")
        let proposal = "refs/heads/\(ReviewOptions.defaultPrefix)/t2"
        #expect(try sandbox.gitResult(["rev-parse", "--verify", proposal], in: infrastructure).status != 0)

        // Resolved and continued: the module's merge is proposed, the superproject's waits for it to land.
        let resolution = ExampleScenario.conflictResolution.content
        let continued = try Self.resolve(sandbox, example, content: resolution)
        #expect(continued.stdout.contains("tenantctl roll --land"), "\(continued.stdout)")
        let first = try sandbox.git(["rev-parse", proposal], in: infrastructure)
        #expect(
            try sandbox.git(["show", "\(first):Strings.csv"], in: infrastructure)
                == resolution.trimmingCharacters(in: .newlines))
        #expect(try tenantBranches() == protectedBefore, "a protected branch moved")
        #expect(try sandbox.gitResult(["rev-parse", "--verify", proposal], in: superproject).status != 0)
        try ReviewRollTests.expectNoUnlandedPin(sandbox, example)
        #expect(try sandbox.lastRun("resolve", in: example.workspace)["state"] as? String == "waiting")
        // The result lives on the proposal: the working copy is back where the resolution started.
        #expect(try sandbox.git(["symbolic-ref", "--short", "HEAD"], in: example.workspace) == "general_dev")
        #expect(!FileManager.default.fileExists(atPath: "\(example.workspace)/.git/tenantctl/resolve.json"))

        // roll --land follows the review run.
        let land = sandbox.tenantctl(["roll", "--land", "--json"], in: example.workspace)
        #expect(land.status == 75, "\(land.stdout)\(land.stderr)")
        let followed = try ReviewRollTests.reviews(land.stdout)
        #expect(ReviewRollTests.review(followed, "Infrastructure", "t2")?["state"] as? String == "open", "\(followed)")

        // Resolved otherwise: the same proposal branch moves (the review is updated), still one review of it.
        let changed = resolution + "infrastructure.extra,Extra,Extra\n"
        _ = try Self.resolve(sandbox, example, content: changed)
        let second = try sandbox.git(["rev-parse", proposal], in: infrastructure)
        #expect(second != first)
        #expect(
            try sandbox.git(["show", "\(second):Strings.csv"], in: infrastructure)
                == changed.trimmingCharacters(in: .newlines))
        // Resolved the same way once more: the review is kept as it is (no new commit, no second review).
        _ = try Self.resolve(sandbox, example, content: changed)
        #expect(try sandbox.git(["rev-parse", proposal], in: infrastructure) == second)
        let again = sandbox.tenantctl(["roll", "--land", "--json"], in: example.workspace)
        let reviews = try ReviewRollTests.reviews(again.stdout).filter {
            $0["repository"] as? String == "Infrastructure" && $0["target"] as? String == "t2"
        }
        #expect(reviews.count == 1 && reviews.first?["proposed"] as? String == second, "\(reviews)")
        #expect(try tenantBranches() == protectedBefore, "a protected branch moved")
        try ReviewRollTests.expectNoUnlandedPin(sandbox, example)
    }
}
