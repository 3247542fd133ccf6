import Foundation
import TenantKit
import TenantTestSupport
import Testing

@testable import TenantRoll

/// The virtual base on one repository with plain git: a tenant branch that took a general change by squash merges the
/// next general change to the same line cleanly on it, where git's own merge of the same commits conflicts.
@Suite struct VirtualBaseTests {
    /// A repository with `general` (a change of line 2, then another of the same line) and `t` (its own change of
    /// line 4, then the first general change squashed onto it). Returns the sandbox, the repository and the commits.
    static func squashed() throws -> (GitSandbox, String, (squashed: String, general: String, next: String)) {
        let sandbox = try GitSandbox()
        try sandbox.makeRepository("repo", branch: "general", files: ["file": "1\n2\n3\n4\n"])
        let repo = sandbox.path("repo")
        try sandbox.git(["checkout", "-q", "-b", "t"], in: repo)
        try sandbox.commit(in: "repo", file: "file", content: "1\n2\n3\nfour\n", message: "tenant change")
        try sandbox.git(["checkout", "-q", "general"], in: repo)
        let general = try sandbox.commit(in: "repo", file: "file", content: "1\ntwo\n3\n4\n", message: "general")
        let next = try sandbox.commit(in: "repo", file: "file", content: "1\nTWO\n3\n4\n", message: "general again")
        try sandbox.git(["checkout", "-q", "t"], in: repo)
        try sandbox.git(["merge", "-q", "--squash", general], in: repo)
        try sandbox.git(["commit", "-q", "-m", "Squash general into t"], in: repo)
        let squashed = try sandbox.git(["rev-parse", "HEAD"], in: repo)
        return (sandbox, repo, (squashed, general, next))
    }

    @Test func theNextMergeAfterASquashIsCleanOnTheVirtualBase() throws {
        let (sandbox, repo, commits) = try Self.squashed()
        let git = try sandbox.gitRunner()
        // Positive control: git's merge of the same commits conflicts (it starts from the old merge base).
        let naive = try MergeTree.merge([(commits.squashed, commits.next)], in: repo, git: git, what: "control")
        #expect(naive.first?.clean == false, "\(naive)")

        var merge = ModuleMerge(
            module: "M", tenant: "t", branch: "t", ours: try #require(ObjectID(commits.squashed)),
            theirs: try #require(ObjectID(commits.next)))
        merge.virtualGeneral = ObjectID(commits.general)
        let identity = CommitIdentity(author: "A <a@example.com> 0 +0000", committer: "A <a@example.com> 0 +0000")
        let pairs = try VirtualBase.pairs([merge], in: GitRepository(repo, git: git), identity: identity)
        let base = try #require(pairs.first?.ours)
        #expect(base != commits.squashed && pairs.first?.theirs == commits.next)
        #expect(
            try sandbox.git(["log", "-1", "--format=%P %T", base], in: repo)
                == "\(commits.squashed) \(commits.general) \(try sandbox.git(["rev-parse", "t^{tree}"], in: repo))")
        let result = try #require(try MergeTree.merge(pairs, in: repo, git: git, what: "virtual").first)
        #expect(result.clean, "\(result)")
        #expect(try sandbox.git(["cat-file", "-p", "\(result.tree):file"], in: repo) == "1\nTWO\n3\nfour")
        // Nothing points at the virtual base: it is never a branch.
        #expect(try sandbox.git(["for-each-ref", "--contains", base], in: repo).isEmpty)
    }

    /// A landing counts while the branch has its commit and the general branch its general commit; the latest one wins.
    @Test func theLatestLandingStillOnBothBranchesCounts() throws {
        let (sandbox, repo, commits) = try Self.squashed()
        let git = try sandbox.gitRunner()
        let repository = GitRepository(repo, git: git)
        let isAncestor = { (ancestor: String, descendant: String) throws -> Bool in
            try repository.isAncestor(ancestor, of: descendant)
        }
        let landing = SquashedLanding(repository: "M", branch: "t", landed: commits.squashed, general: commits.general)
        let tip = try sandbox.git(["rev-parse", "t"], in: repo)
        #expect(
            try VirtualBase.general(of: [landing], tip: tip, generalTip: commits.next, isAncestor: isAncestor)
                == commits.general)
        var later = landing
        later.general = commits.next
        #expect(
            try VirtualBase.general(of: [landing, later], tip: tip, generalTip: commits.next, isAncestor: isAncestor)
                == commits.next)
        // The branch was reset before the landing: it no longer counts.
        let before = try sandbox.git(["rev-parse", "t~1"], in: repo)
        #expect(
            try VirtualBase.general(of: [landing], tip: before, generalTip: commits.next, isAncestor: isAncestor)
                == nil)
    }

    /// A clone without the journals reads the landing from the remote: the squash commit keeps the proposal's
    /// messages, whose trailer names the general commit it rolled in.
    @Test func aSquashCommitsTrailerNamesTheGeneralCommitItTook() throws {
        let sandbox = try GitSandbox()
        try sandbox.makeRepository("repo", branch: "general", files: ["file": "1\n2\n3\n4\n"])
        let repo = sandbox.path("repo")
        try sandbox.git(["checkout", "-q", "-b", "t"], in: repo)
        try sandbox.commit(in: "repo", file: "file", content: "1\n2\n3\nfour\n", message: "tenant change")
        try sandbox.git(["checkout", "-q", "-b", "u"], in: repo)
        try sandbox.git(["checkout", "-q", "general"], in: repo)
        let general = try sandbox.commit(in: "repo", file: "file", content: "1\ntwo\n3\n4\n", message: "general")
        let next = try sandbox.commit(in: "repo", file: "file", content: "1\nTWO\n3\n4\n", message: "general again")
        // t took `general` by a squash that kept the proposal's message (a list item, its trailer in its body).
        try sandbox.git(["checkout", "-q", "t"], in: repo)
        try sandbox.git(["merge", "-q", "--squash", general], in: repo)
        try sandbox.git(
            [
                "commit", "-q", "-m", "Squash tenantctl/roll/t into t",
                "-m", "* Merge general into t\n\nRolled-by: tenantctl 20260101-000000-abcd general \(general)",
            ], in: repo)
        let squashed = try sandbox.git(["rev-parse", "HEAD"], in: repo)
        // u merged `general` itself, with the trailer: it contains the commit, so it needs no virtual base.
        try sandbox.git(["checkout", "-q", "u"], in: repo)
        try sandbox.git(
            [
                "merge", "-q", "--no-ff", "-m", "Merge general into u\n\nRolled-by: tenantctl r general \(general)",
                general,
            ],
            in: repo)
        let git = try sandbox.gitRunner()
        let branches = ["general": next, "t": squashed, "u": try sandbox.git(["rev-parse", "u"], in: repo)]
        let input = VirtualBase.Input(
            name: "M", repository: GitRepository(repo, git: git), branches: branches, tenantBranches: ["t", "u"],
            containGeneral: [],
            generalBranch: "general", generalTip: next, prefix: "tenantctl/roll", isAncestor: nil)
        #expect(
            try input.trailerLandings()
                == [SquashedLanding(repository: "M", branch: "t", landed: squashed, general: general)])
        // Positive control of the parsing: the words after the trailer, a full id only.
        #expect(VirtualBase.rolledIn(message: "x\n* y\n\nRolled-by: tenantctl r general \(general)\n") == [general])
        #expect(VirtualBase.rolledIn(message: "Rolled-by: tenantctl r general 1234abc").isEmpty)
    }
}
