import Foundation
import TenantExample
import TenantKit
import TenantTestSupport
import Testing

/// A proposal landed by squash or rebase on the forge, then a roll from a fresh clone (a CI job, a colleague's clone:
/// no journal of the review run): the clone learns the landing from what the remotes show — the trailer a squash
/// keeps in its message, or the proposal branch while the forge keeps it — and merges the next general change to the
/// same lines cleanly, where a plain `git merge` of the same commits conflicts.
@Suite struct ReviewFreshCloneTests {
    /// How the forge landed Infrastructure's t2 proposal, and what it kept.
    enum Landing: String, CaseIterable, Sendable, CustomTestStringConvertible {
        /// Squashed with the proposal's messages, the proposal branch deleted (GitHub's "delete head branch").
        case squashBranchDeleted
        /// Squashed with a message of its own (GitLab's default template), the proposal branch kept.
        case squashWithoutMessagesBranchKept
        /// Rebased (no commit of the proposal carries its trailer onto the target), the proposal branch kept.
        case rebaseBranchKept

        var testDescription: String { rawValue }
    }

    @Test(.tags(.slow), .notInTheFastSet, arguments: Landing.allCases)
    func aFreshCloneMergesTheSameLinesCleanlyAfterASquashOrRebaseOnTheForge(landing: Landing) throws {
        let (sandbox, example, forge) = try ReviewRollTests.example()
        let superproject = example.remotes + "/" + ExampleBuilder.superprojectName + ".git"
        let infrastructure = example.remotes + "/Infrastructure.git"
        for name in ReviewForgeKindsTests.repositories {
            try forge.protect(["t1", "t2", "t3"], in: example.remotes + "/\(name).git")
        }
        let proposed = sandbox.tenantctl(["roll", "--review", "--json"], in: example.workspace)
        #expect(proposed.status == 75, "\(proposed.stdout)\(proposed.stderr)")

        // The forge lands Infrastructure's t2 proposal; nobody runs `roll --land` anywhere.
        let proposal = "refs/heads/\(ReviewOptions.defaultPrefix)/t2"
        let landed = try forge.land(
            proposal, into: "t2", method: landing == .rebaseBranchKept ? .rebase : .squash, in: infrastructure,
            keepingMessages: landing == .squashBranchDeleted)
        if landing == .squashBranchDeleted { try sandbox.git(["update-ref", "-d", proposal], in: infrastructure) }

        // A new general change of Infrastructure to the lines the landed one changed.
        let developer = sandbox.path("infrastructure-clone")
        try sandbox.git(["clone", "-q", "--branch", "general_dev", infrastructure, developer])
        let newGeneral = try sandbox.commit(
            in: "infrastructure-clone", file: ReviewLandingMethodTests.sameLines.file,
            content: ReviewLandingMethodTests.sameLines.content, message: "Start screen: wider tile borders")
        try sandbox.git(["push", "-q", "origin", "general_dev"], in: developer)
        // Positive control: git's own merge of the same commits conflicts (t2 lacks the landed commit by ancestry).
        try sandbox.git(["checkout", "-q", "-B", "t2", "origin/t2"], in: developer)
        let naive = try sandbox.gitResult(["merge", "--no-edit", newGeneral], in: developer)
        #expect(naive.status != 0, "plain git merge: \(naive.stdout)\(naive.stderr)")

        // A fresh clone of the superproject: no journal of the review run.
        let fresh = sandbox.path("fresh")
        try sandbox.git(["clone", "-q", "--recurse-submodules", "--branch", "general_dev", superproject, fresh])
        #expect(try RollJournal.all(gitDirectory: fresh + "/.git").runs.isEmpty)
        let dryRun = sandbox.tenantctl(["roll", "--dry-run", "--json"], in: fresh)
        let t2 = try ReviewRollTests.tenants(dryRun.stdout)["t2"]
        #expect(t2?["status"] as? String == "would-roll", "t2 merges cleanly: \(t2 ?? [:])\(dryRun.stderr)")

        // The clone proposes the merge on the tenant branch as it landed (the virtual base stays local).
        let next = sandbox.tenantctl(["roll", "--review", "--json"], in: fresh)
        #expect(next.status == 75, "\(next.stdout)\(next.stderr)")
        let review = ReviewRollTests.review(try ReviewRollTests.reviews(next.stdout), "Infrastructure", "t2")
        let commit = try #require(review?["proposed"] as? String, "\(next.stdout)")
        #expect(try sandbox.git(["rev-parse", proposal], in: infrastructure) == commit)
        #expect(try sandbox.git(["log", "-1", "--format=%P", commit], in: infrastructure) == "\(landed) \(newGeneral)")
        let merged = try sandbox.git(
            ["show", "\(commit):\(ReviewLandingMethodTests.sameLines.file)"], in: infrastructure)
        #expect(merged.contains("width: 4"), "\(merged)")
    }
}
