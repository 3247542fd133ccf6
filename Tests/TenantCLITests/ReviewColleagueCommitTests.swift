import Foundation
import TenantExample
import TenantKit
import TenantTestSupport
import Testing

/// Never backwards: a proposal that moved past tenantctl's own commit — a colleague's commit on the proposal branch,
/// the AGit topic, the GitLab source branch, a newer Gerrit patch set — is the team's. The next review run leaves it
/// as it is and names it, with nothing new on the general branch and with a new general change; it never moves the
/// proposal off a commit tenantctl did not make.
@Suite struct ReviewColleagueCommitTests {
    /// The example with modules.json naming `kind`, every repository served as that forge, t1–t3 protected.
    static func example(_ kind: EmulatedForge.Kind) throws -> (GitSandbox, ExampleResult, EmulatedForge) {
        let (sandbox, example, forge) = try ReviewRollTests.example()
        try ReviewForgeKindsTests.configure(sandbox, example, review: "{\"forge\": \"\(kind.rawValue)\"}")
        for name in ReviewForgeKindsTests.repositories {
            let bare = example.remotes + "/\(name).git"
            if kind != .branch { try forge.serve(kind, in: bare) }
            try forge.protect(["t1", "t2", "t3"], in: bare)
        }
        return (sandbox, example, forge)
    }

    /// The commit the forge shows for Infrastructure's t2 proposal: the proposal branch (`branch`), else the review's
    /// head (the pull request's, the merge request's, the newest patch set).
    static func current(_ kind: EmulatedForge.Kind, _ sandbox: GitSandbox, _ forge: EmulatedForge, _ bare: String)
        throws -> String?
    {
        if kind == .branch { return try sandbox.branches(bare)[ReviewOptions.defaultPrefix + "/t2"] }
        return try forge.reviews(in: bare).last { $0.target == "t2" }?.commit
    }

    /// A colleague adds a commit to Infrastructure's t2 proposal at `commit`, as each forge takes it (Gerrit: a new
    /// patch set of the change, amended with its Change-Id); returns the commit.
    static func colleaguePush(
        _ kind: EmulatedForge.Kind, _ sandbox: GitSandbox, _ bare: String, onto commit: String
    ) throws -> String {
        let clone = sandbox.path("colleague-\(UUID().uuidString.prefix(6))")
        try sandbox.git(["clone", "-q", bare, clone])
        try sandbox.git(
            [
                "fetch", "-q", "origin", "+refs/pull/*:refs/colleague/pull/*",
                "+refs/changes/*:refs/colleague/changes/*",
                "+refs/merge-requests/*:refs/colleague/mr/*",
            ], in: clone)
        try sandbox.git(["checkout", "-q", "--detach", commit], in: clone)
        try "the colleague's fix\n".write(toFile: clone + "/colleague.txt", atomically: true, encoding: .utf8)
        try sandbox.git(["add", "--", "colleague.txt"], in: clone)
        if kind == .gerrit {
            try sandbox.git(["commit", "-q", "--amend", "--no-edit"], in: clone)
        } else {
            try sandbox.git(["commit", "-q", "-m", "Fix the t2 build"], in: clone)
        }
        let pushed = try sandbox.git(["rev-parse", "HEAD"], in: clone)
        switch kind {
        case .branch, .gitlab:
            try sandbox.git(["push", "-q", "origin", "HEAD:refs/heads/\(ReviewOptions.defaultPrefix)/t2"], in: clone)
        case .agit:
            try sandbox.git(["push", "-q", "-o", "topic=tenantctl-roll-t2", "origin", "HEAD:refs/for/t2"], in: clone)
        case .gerrit:
            try sandbox.git(["push", "-q", "origin", "HEAD:refs/for/t2%topic=tenantctl-roll-t2"], in: clone)
        }
        return pushed
    }

    /// A new general change of Infrastructure (a file of its own), pushed; returns the commit.
    static func newGeneralChange(_ sandbox: GitSandbox, _ bare: String, file: String = "news.txt") throws -> String {
        let clone = sandbox.path("general-\(UUID().uuidString.prefix(6))")
        try sandbox.git(["clone", "-q", "--branch", "general_dev", bare, clone])
        try "news\n".write(toFile: clone + "/" + file, atomically: true, encoding: .utf8)
        try sandbox.git(["add", "--", file], in: clone)
        try sandbox.git(["commit", "-q", "-m", "General: \(file)"], in: clone)
        try sandbox.git(["push", "-q", "origin", "general_dev"], in: clone)
        return try sandbox.git(["rev-parse", "HEAD"], in: clone)
    }

    @Test(.tags(.slow), .notInTheFastSet, arguments: EmulatedForge.Kind.allCases)
    func aColleaguesCommitOnAProposalIsNeverDropped(kind: EmulatedForge.Kind) throws {
        let (sandbox, example, forge) = try Self.example(kind)
        let bare = example.remotes + "/Infrastructure.git"
        let proposed = sandbox.tenantctl(["roll", "--review", "--json"], in: example.workspace)
        #expect(proposed.status == 75, "\(proposed.stdout)\(proposed.stderr)")
        let mine = try #require(try Self.current(kind, sandbox, forge, bare), "the proposal is on the forge")
        let theirs = try Self.colleaguePush(kind, sandbox, bare, onto: mine)
        #expect(try Self.current(kind, sandbox, forge, bare) == theirs, "positive control: the forge took it")
        // What the forge received for t2's proposal (the new general change is pushed to general_dev).
        func proposalPushes() throws -> Int {
            try forge.received(in: bare).filter {
                $0.ref.hasPrefix("refs/for/t2") || $0.ref == "refs/heads/\(ReviewOptions.defaultPrefix)/t2"
            }.count
        }
        let received = try proposalPushes()

        // Nothing new on general_dev: the proposal stays as the team left it, and the run says so.
        let again = sandbox.tenantctl(["roll", "--review", "--json"], in: example.workspace)
        #expect(again.status == 75, "\(again.stdout)\(again.stderr)")
        #expect(try Self.current(kind, sandbox, forge, bare) == theirs, "\(again.stdout)\(again.stderr)")
        #expect(again.stderr.contains(String(theirs.prefix(7))), "the commit is named: \(again.stderr)")
        let followed = ReviewRollTests.review(try ReviewRollTests.reviews(again.stdout), "Infrastructure", "t2")
        #expect(followed?["state"] as? String == "open", "\(followed ?? [:])")

        // A new general change: still never moved off the colleague's commit, nothing uploaded over it.
        _ = try Self.newGeneralChange(sandbox, bare)
        let later = sandbox.tenantctl(["roll", "--review", "--json"], in: example.workspace)
        #expect([75, 2].contains(later.status), "\(later.stdout)\(later.stderr)")
        #expect(try Self.current(kind, sandbox, forge, bare) == theirs, "\(later.stdout)\(later.stderr)")
        #expect(later.stderr.contains(String(theirs.prefix(7))), "\(later.stderr)")
        if kind != .branch {
            #expect(try proposalPushes() == received, "nothing was pushed to the proposal")
        }
        try ReviewRollTests.expectNoUnlandedPin(sandbox, example)
    }

    /// AGit: after general_dev moved, the open pull request is updated by a fast-forward on top of its head (the new
    /// merge has the head as its first parent), which Gitea takes without `-o force-push`.
    @Test(.tags(.slow), .notInTheFastSet)
    func anAGitReviewIsUpdatedAfterTheGeneralBranchMoved() throws {
        let (sandbox, example, forge) = try Self.example(.agit)
        let bare = example.remotes + "/Infrastructure.git"
        let proposed = sandbox.tenantctl(["roll", "--review", "--json"], in: example.workspace)
        #expect(proposed.status == 75, "\(proposed.stdout)\(proposed.stderr)")
        let opened = try #require(try forge.reviews(in: bare).last { $0.target == "t2" })
        let general = try Self.newGeneralChange(sandbox, bare)

        let again = sandbox.tenantctl(["roll", "--review", "--json"], in: example.workspace)
        #expect(again.status == 75, "\(again.stdout)\(again.stderr)")
        let review = ReviewRollTests.review(try ReviewRollTests.reviews(again.stdout), "Infrastructure", "t2")
        #expect(review?["state"] as? String == "open", "\(review ?? [:])")
        let updated = try #require(try forge.reviews(in: bare).last { $0.target == "t2" })
        #expect(updated.number == opened.number, "the same pull request")
        #expect(updated.commit == review?["proposed"] as? String, "\(updated) \(review ?? [:])")
        #expect(
            try sandbox.git(["log", "-1", "--format=%P", updated.commit], in: bare) == "\(opened.commit) \(general)")
        #expect(try sandbox.git(["show", "\(updated.commit):news.txt"], in: bare) == "news")
        // The next run adopts it: nothing pushed again.
        let received = try forge.received(in: bare).count
        let third = sandbox.tenantctl(["roll", "--review", "--json"], in: example.workspace)
        #expect(third.status == 75, "\(third.stdout)\(third.stderr)")
        let after = try forge.received(in: bare)
        #expect(after.count == received, "\(after)")
    }
}
