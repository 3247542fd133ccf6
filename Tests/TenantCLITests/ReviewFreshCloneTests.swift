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
        let fixture = try ReviewForgeFixture()
        let (sandbox, forge, infrastructure) = (fixture.sandbox, fixture.forge, fixture.infrastructure)
        try fixture.serve(nil)
        fixture.proposeReviews()

        // The forge lands Infrastructure's t2 proposal; nobody runs `roll --land` anywhere.
        let proposal = "refs/heads/\(ReviewOptions.defaultPrefix)/t2"
        let landed = try forge.land(
            proposal, into: "t2", method: landing == .rebaseBranchKept ? .rebase : .squash, in: infrastructure,
            keepingMessages: landing == .squashBranchDeleted)
        if landing == .squashBranchDeleted { try sandbox.git(["update-ref", "-d", proposal], in: infrastructure) }

        // A new general change of Infrastructure to the lines the landed one changed; git's own merge of it
        // conflicts (the positive control). Then a fresh clone of the superproject: no journal of the review run.
        let newGeneral = try fixture.changeTheSameLines()
        let fresh = try fixture.freshClone()

        // t2 merges cleanly, and the clone proposes the merge on the tenant branch as it landed (the virtual base
        // stays local), on the proposal branch.
        let commit = try fixture.rollsTheSameLinesCleanly(from: fresh, landed: landed, newGeneral: newGeneral)
        #expect(try sandbox.git(["rev-parse", proposal], in: infrastructure) == commit)
        let merged = try sandbox.git(
            ["show", "\(commit):\(ReviewLandingMethodTests.sameLines.file)"], in: infrastructure)
        #expect(merged.contains("width: 4"), "\(merged)")
    }
}
