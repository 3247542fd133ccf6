import Foundation
import TenantExample
import TenantKit
import TenantTestSupport
import Testing

/// A forge squashes a review with a message of its own (no `Rolled-by` trailer) and deletes the proposal branch:
/// only the review ref the forge keeps (`refs/pull/<n>/head`, `refs/merge-requests/<n>/head`, `refs/changes/…`)
/// still shows what landed. A fresh clone (no journal of the review run) of a project whose review settings name the
/// forge kind reads those refs: its roll merges the next general change to the same lines cleanly, where a plain
/// `git merge` of the same commits conflicts, and its audit shows the `squashed-roll` finding.
@Suite struct ReviewForgeRefsTests {
    /// The example with `kind` named in modules.json, every repository served as that forge with t1–t3 protected,
    /// a `roll --review`, and the forge's review of Infrastructure's proposal into t2 (GitHub's pull request opened
    /// for the proposal branch, as `gh pr create` would).
    static func proposed(_ kind: EmulatedForge.Kind) throws -> (
        GitSandbox, ExampleResult, EmulatedForge, EmulatedForge.Review
    ) {
        let (sandbox, example, forge) = try ReviewRollTests.example()
        try ReviewForgeKindsTests.configure(sandbox, example, review: "{\"forge\": \"\(kind.rawValue)\"}")
        for name in ReviewForgeKindsTests.repositories {
            let bare = example.remotes + "/\(name).git"
            if kind != .branch { try forge.serve(kind, in: bare) }
            try forge.protect(["t1", "t2", "t3"], in: bare)
        }
        let proposed = sandbox.tenantctl(["roll", "--review", "--json"], in: example.workspace)
        #expect(proposed.status == 75, "\(proposed.stdout)\(proposed.stderr)")
        let infrastructure = example.remotes + "/Infrastructure.git"
        let review: EmulatedForge.Review
        if kind == .branch {
            review = try forge.openPullRequest(
                from: "\(ReviewOptions.defaultPrefix)/t2", into: "t2", in: infrastructure)
        } else {
            review = try #require(try forge.newestReview(into: "t2", in: infrastructure), "no review into t2")
        }
        return (sandbox, example, forge, review)
    }

    /// A new general change of Infrastructure to the lines the landed review changed, pushed; returns the commit.
    /// Positive control: git's own merge of it into t2 conflicts (t2 lacks the landed general commit by ancestry).
    static func changeTheSameLines(_ sandbox: GitSandbox, _ example: ExampleResult) throws -> String {
        let infrastructure = example.remotes + "/Infrastructure.git"
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

    /// A fresh clone of the superproject: no journal of the review run.
    static func freshClone(_ sandbox: GitSandbox, _ example: ExampleResult) throws -> String {
        let superproject = example.remotes + "/" + ExampleBuilder.superprojectName + ".git"
        let fresh = sandbox.path("fresh")
        try sandbox.git(["clone", "-q", "--recurse-submodules", "--branch", "general_dev", superproject, fresh])
        #expect(try RollJournal.all(gitDirectory: fresh + "/.git").runs.isEmpty)
        return fresh
    }

    /// The audit's `reviews` and its findings on t2's Infrastructure cell, from `audit --json` in `directory`.
    static func audited(_ sandbox: GitSandbox, in directory: String) throws -> (
        reviews: [[String: Any]], findings: [String]
    ) {
        let audit = sandbox.tenantctl(["audit", "--json"], in: directory)
        #expect(audit.status == 0, "\(audit.stdout)\(audit.stderr)")
        #expect(try ReviewShowTests.auditViolations(audit.stdout).isEmpty)
        let report = try #require(try JSONSerialization.jsonObject(with: Data(audit.stdout.utf8)) as? [String: Any])
        let tenants = report["tenants"] as? [[String: Any]] ?? []
        let t2 = tenants.first { $0["id"] as? String == "t2" }
        let cell = (t2?["modules"] as? [[String: Any]])?.first { $0["module"] as? String == "Infrastructure" }
        let findings = (cell?["findings"] as? [[String: Any]] ?? []).compactMap { $0["code"] as? String }
        return (report["reviews"] as? [[String: Any]] ?? [], findings)
    }

    @Test(.tags(.slow), .notInTheFastSet, arguments: EmulatedForge.Kind.allCases)
    func aFreshCloneFindsASquashOnlyTheForgesReviewRefShow(kind: EmulatedForge.Kind) throws {
        let (sandbox, example, forge, review) = try Self.proposed(kind)
        let infrastructure = example.remotes + "/Infrastructure.git"
        let branch = "\(ReviewOptions.defaultPrefix)/t2"
        // Squashed with a message of its own, the proposal branch (where there is one) deleted.
        let landed = try forge.landReview(
            review, method: .squash, in: infrastructure, keepingMessages: false,
            deletingBranch: [.branch, .gitlab].contains(kind) ? branch : nil)
        #expect(try sandbox.branches(infrastructure)[branch] == nil)
        #expect(
            try sandbox.git(["log", "-1", "--format=%B", landed], in: infrastructure).contains("Rolled-by") == false)
        let newGeneral = try Self.changeTheSameLines(sandbox, example)
        let fresh = try Self.freshClone(sandbox, example)

        // audit shows the landing, learnt from the review ref.
        let (reviews, findings) = try Self.audited(sandbox, in: fresh)
        #expect(findings.contains("squashed-roll"), "\(findings) \(reviews)")
        let seen = ReviewRollTests.review(reviews, "Infrastructure", "t2")
        #expect(seen?["from"] as? String == "remotes", "\(reviews)")
        #expect(seen?["landed"] as? String == landed && seen?["method"] as? String == "squash", "\(seen ?? [:])")
        #expect(seen?["ref"] as? String == review.ref && seen?["proposed"] as? String == review.commit)

        // roll takes t2 as containing what landed: the same lines merge cleanly, on the tenant branch as it landed.
        let dryRun = sandbox.tenantctl(["roll", "--dry-run", "--json"], in: fresh)
        let t2 = try ReviewRollTests.tenants(dryRun.stdout)["t2"]
        #expect(t2?["status"] as? String == "would-roll", "t2 merges cleanly: \(t2 ?? [:])\(dryRun.stderr)")
        let next = sandbox.tenantctl(["roll", "--review", "--json"], in: fresh)
        #expect(next.status == 75, "\(next.stdout)\(next.stderr)")
        let proposal = ReviewRollTests.review(try ReviewRollTests.reviews(next.stdout), "Infrastructure", "t2")
        let commit = try #require(proposal?["proposed"] as? String, "\(next.stdout)")
        #expect(try sandbox.git(["log", "-1", "--format=%P", commit], in: infrastructure) == "\(landed) \(newGeneral)")
    }

    /// Without a forge kind in the review settings the review refs are not read: the same squash stays unknown to a
    /// fresh clone, whose roll then conflicts (the negative control of the case above, on the GitHub kind).
    @Test(.tags(.slow), .notInTheFastSet)
    func withoutAForgeKindTheReviewRefsAreNotRead() throws {
        let (sandbox, example, forge) = try ReviewRollTests.example()
        try ReviewForgeKindsTests.configure(sandbox, example, review: #"{"branchPrefix": "tenantctl/roll"}"#)
        for name in ReviewForgeKindsTests.repositories {
            try forge.protect(["t1", "t2", "t3"], in: example.remotes + "/\(name).git")
        }
        let proposed = sandbox.tenantctl(["roll", "--review", "--json"], in: example.workspace)
        #expect(proposed.status == 75, "\(proposed.stdout)\(proposed.stderr)")
        let infrastructure = example.remotes + "/Infrastructure.git"
        let branch = "\(ReviewOptions.defaultPrefix)/t2"
        let review = try forge.openPullRequest(from: branch, into: "t2", in: infrastructure)
        try forge.landReview(
            review, method: .squash, in: infrastructure, keepingMessages: false, deletingBranch: branch)
        _ = try Self.changeTheSameLines(sandbox, example)
        let fresh = try Self.freshClone(sandbox, example)
        let dryRun = sandbox.tenantctl(["roll", "--dry-run", "--json"], in: fresh)
        let t2 = try ReviewRollTests.tenants(dryRun.stdout)["t2"]
        #expect(t2?["status"] as? String == "conflict", "\(t2 ?? [:])\(dryRun.stderr)")
        let refs = try sandbox.git(["for-each-ref", "--format=%(refname)", "refs/tenantctl/reviews/"], in: fresh)
        #expect(refs.isEmpty, "no review ref fetched: \(refs)")
    }
}

/// audit in a fresh clone (no journal of the review run) of a project with review settings: a review squashed with
/// the proposal's messages (the trailer kept) and its branch deleted shows as `squashed-roll` on its cell, in every
/// format, learnt from the remotes; a review landed by a merge commit shows nothing (the control).
@Suite struct AuditRemoteLandingsTests {
    @Test(arguments: [EmulatedForge.Method.squash, .merge])
    func aFreshClonesAuditShowsTheSquashTheRemotesShow(method: EmulatedForge.Method) throws {
        let (sandbox, example, forge) = try ReviewRollTests.example()
        try ReviewForgeKindsTests.configure(sandbox, example, review: #"{"branchPrefix": "tenantctl/roll"}"#)
        for name in ReviewForgeKindsTests.repositories {
            try forge.protect(["t1", "t2", "t3"], in: example.remotes + "/\(name).git")
        }
        let proposed = sandbox.tenantctl(["roll", "--review", "--json"], in: example.workspace)
        #expect(proposed.status == 75, "\(proposed.stdout)\(proposed.stderr)")
        let run = try #require(try JSONSerialization.jsonObject(with: Data(proposed.stdout.utf8)) as? [String: Any])
        let infrastructure = example.remotes + "/Infrastructure.git"
        let branch = "\(ReviewOptions.defaultPrefix)/t2"
        let landed = try forge.land("refs/heads/" + branch, into: "t2", method: method, in: infrastructure)
        try sandbox.git(["update-ref", "-d", "refs/heads/" + branch], in: infrastructure)
        let fresh = try ReviewForgeRefsTests.freshClone(sandbox, example)

        let (reviews, findings) = try ReviewForgeRefsTests.audited(sandbox, in: fresh)
        let formats = [["audit"], ["audit", "--format", "markdown"], ["audit", "--format", "html"]].map {
            sandbox.tenantctl($0, in: fresh)
        }
        for output in formats { #expect(output.status == 0, "\(output.stderr)") }
        if method == .squash {
            #expect(findings.contains("squashed-roll"), "\(findings) \(reviews)")
            let seen = try #require(ReviewRollTests.review(reviews, "Infrastructure", "t2"), "\(reviews)")
            #expect(seen["from"] as? String == "remotes" && seen["state"] as? String == "landed", "\(seen)")
            #expect(seen["landed"] as? String == landed && seen["method"] as? String == "squash", "\(seen)")
            #expect(seen["runId"] as? String == run["runId"] as? String, "\(seen) \(run["runId"] ?? "")")
            #expect(seen["proposed"] is NSNull, "only the trailer showed it: \(seen)")
            for output in formats {
                #expect(output.stdout.contains("squashed-roll"), "\(output.stdout.prefix(3000))")
                #expect(output.stdout.contains("seen on the remotes"), "\(output.stdout.prefix(3000))")
            }
        } else {
            #expect(!findings.contains("squashed-roll"), "\(findings)")
            #expect(reviews.isEmpty, "nothing squashed: \(reviews)")
            for output in formats { #expect(!output.stdout.contains("squashed-roll")) }
        }
    }
}
