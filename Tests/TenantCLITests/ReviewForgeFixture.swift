import Foundation
import TenantExample
import TenantKit
import TenantTestSupport
import Testing

/// The example on a forge emulated by git hooks, as the review tests set it up (`ReviewForgeRefsTests`,
/// `ReviewFreshCloneTests`, `AuditRemoteLandingsTests`, `ResolveReviewKindsTests`, `ReviewChangeIdTests`): built at a
/// stage, a `review` object in modules.json, every repository protected and served as a forge kind; then the steps
/// they share — the review roll, a new general change to the lines a landed review changed, a fresh clone.
struct ReviewForgeFixture {
    let sandbox: GitSandbox
    let example: ExampleResult
    let forge: EmulatedForge

    /// The bare remote of Infrastructure, whose t2 merge the tests follow.
    var infrastructure: String { example.remotes + "/Infrastructure.git" }
    /// The bare remote of the superproject.
    var superproject: String { example.remotes + "/" + ExampleBuilder.superprojectName + ".git" }

    /// The example at `stage`, with `review` (a JSON object; nil: none) in modules.json, pushed as a maintainer would.
    init(stage: ExampleStage = .afterUpdates, review: String? = nil) throws {
        sandbox = try GitSandbox()
        example = try ExampleBuilder(git: try sandbox.gitRunner()).build(in: sandbox.path("erp"), stage: stage)
        forge = EmulatedForge(sandbox: sandbox)
        if let review { try ReviewForgeKindsTests.configure(sandbox, example, review: review) }
    }

    /// Every repository served as a forge of `kind` (nil or `branch`: plain branches, no review hooks) with its tenant
    /// branches protected, and the superproject's general_dev too when `protectingGeneral`.
    func serve(_ kind: EmulatedForge.Kind?, protectingGeneral: Bool = false) throws {
        for name in ReviewForgeKindsTests.repositories {
            let bare = example.remotes + "/\(name).git"
            if let kind, kind != .branch { try forge.serve(kind, in: bare) }
            let general = protectingGeneral && name == ExampleBuilder.superprojectName ? ["general_dev"] : []
            try forge.protect(["t1", "t2", "t3"] + general, in: bare)
        }
    }

    /// `roll --review --json`, which proposes every tenant and waits for the reviews (exit 75); its result.
    @discardableResult
    func proposeReviews() -> CLIResult {
        let proposed = sandbox.tenantctl(["roll", "--review", "--json"], in: example.workspace)
        #expect(proposed.status == 75, "\(proposed.stdout)\(proposed.stderr)")
        return proposed
    }

    /// A new general change of Infrastructure to the lines the landed review changed, pushed; returns the commit.
    /// Positive control: git's own merge of it into t2 conflicts (t2 lacks the landed general commit by ancestry).
    func changeTheSameLines() throws -> String {
        let developer = sandbox.path("infrastructure-clone")
        try sandbox.git(["clone", "-q", "--branch", "general_dev", infrastructure, developer])
        let newGeneral = try sandbox.commit(
            in: "infrastructure-clone", file: ReviewLandingMethodTests.sameLines.file,
            content: ReviewLandingMethodTests.sameLines.content, message: "Start screen: wider tile borders")
        try sandbox.git(["push", "-q", "origin", "general_dev"], in: developer)
        try sandbox.git(["checkout", "-q", "-B", "t2", "origin/t2"], in: developer)
        let naive = try sandbox.gitResult(["merge", "--no-edit", newGeneral], in: developer)
        #expect(naive.status != 0, "plain git merge: \(naive.stdout)\(naive.stderr)")
        return newGeneral
    }

    /// From `fresh` (a clone without the journal of the review run): t2 merges the new general change to the lines
    /// the landed review changed cleanly (`--dry-run`), and `roll --review` proposes the merge on the tenant branch as
    /// it landed, parents `landed` and `newGeneral` (the virtual base stays local). Returns the proposed commit.
    @discardableResult
    func rollsTheSameLinesCleanly(from fresh: String, landed: String, newGeneral: String) throws -> String {
        let dryRun = sandbox.tenantctl(["roll", "--dry-run", "--json"], in: fresh)
        let t2 = try ReviewRollTests.tenants(dryRun.stdout)["t2"]
        #expect(t2?["status"] as? String == "would-roll", "t2 merges cleanly: \(t2 ?? [:])\(dryRun.stderr)")
        let next = sandbox.tenantctl(["roll", "--review", "--json"], in: fresh)
        #expect(next.status == 75, "\(next.stdout)\(next.stderr)")
        let review = ReviewRollTests.review(try ReviewRollTests.reviews(next.stdout), "Infrastructure", "t2")
        let commit = try #require(review?["proposed"] as? String, "\(next.stdout)")
        #expect(try sandbox.git(["log", "-1", "--format=%P", commit], in: infrastructure) == "\(landed) \(newGeneral)")
        return commit
    }

    /// A fresh clone of the superproject: no journal of the review run.
    func freshClone() throws -> String {
        let fresh = sandbox.path("fresh")
        try sandbox.git(["clone", "-q", "--recurse-submodules", "--branch", "general_dev", superproject, fresh])
        #expect(try RollJournal.all(gitDirectory: fresh + "/.git").runs.isEmpty)
        return fresh
    }
}
