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
    static func proposed(_ kind: EmulatedForge.Kind) throws -> (ReviewForgeFixture, EmulatedForge.Review) {
        let fixture = try ReviewForgeFixture(review: "{\"forge\": \"\(kind.rawValue)\"}")
        try fixture.serve(kind)
        fixture.proposeReviews()
        let review: EmulatedForge.Review
        if kind == .branch {
            review = try fixture.forge.openPullRequest(
                from: "\(ReviewOptions.defaultPrefix)/t2", into: "t2", in: fixture.infrastructure)
        } else {
            review = try #require(
                try fixture.forge.newestReview(into: "t2", in: fixture.infrastructure), "no review into t2")
        }
        return (fixture, review)
    }

    /// The example with review settings that name no forge kind (only the branch prefix), t1–t3 protected, after
    /// a `roll --review`; its output.
    static func proposedWithoutAForgeKind() throws -> (ReviewForgeFixture, CLIResult) {
        let fixture = try ReviewForgeFixture(review: #"{"branchPrefix": "tenantctl/roll"}"#)
        try fixture.serve(nil)
        return (fixture, fixture.proposeReviews())
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
        let (fixture, review) = try Self.proposed(kind)
        let (sandbox, forge, infrastructure) = (fixture.sandbox, fixture.forge, fixture.infrastructure)
        let branch = "\(ReviewOptions.defaultPrefix)/t2"
        // Squashed with a message of its own, the proposal branch (where there is one) deleted.
        let landed = try forge.landReview(
            review, method: .squash, in: infrastructure, keepingMessages: false,
            deletingBranch: [.branch, .gitlab].contains(kind) ? branch : nil)
        #expect(try sandbox.branches(infrastructure)[branch] == nil)
        #expect(
            try sandbox.git(["log", "-1", "--format=%B", landed], in: infrastructure).contains("Rolled-by") == false)
        let newGeneral = try fixture.changeTheSameLines()
        let fresh = try fixture.freshClone()

        // audit shows the landing, learnt from the review ref.
        let (reviews, findings) = try Self.audited(sandbox, in: fresh)
        #expect(findings.contains("squashed-roll"), "\(findings) \(reviews)")
        let seen = ReviewRollTests.review(reviews, "Infrastructure", "t2")
        #expect(seen?["from"] as? String == "remotes", "\(reviews)")
        #expect(seen?["landed"] as? String == landed && seen?["method"] as? String == "squash", "\(seen ?? [:])")
        #expect(seen?["ref"] as? String == review.ref && seen?["proposed"] as? String == review.commit)

        // roll takes t2 as containing what landed: the same lines merge cleanly, on the tenant branch as it landed.
        try fixture.rollsTheSameLinesCleanly(from: fresh, landed: landed, newGeneral: newGeneral)
    }

    /// Without a forge kind in the review settings the review refs are not read: the same squash stays unknown to a
    /// fresh clone, whose roll then conflicts (the negative control of the case above, on the GitHub kind).
    @Test(.tags(.slow), .notInTheFastSet)
    func withoutAForgeKindTheReviewRefsAreNotRead() throws {
        let (fixture, _) = try Self.proposedWithoutAForgeKind()
        let (sandbox, forge, infrastructure) = (fixture.sandbox, fixture.forge, fixture.infrastructure)
        let branch = "\(ReviewOptions.defaultPrefix)/t2"
        let review = try forge.openPullRequest(from: branch, into: "t2", in: infrastructure)
        try forge.landReview(
            review, method: .squash, in: infrastructure, keepingMessages: false, deletingBranch: branch)
        _ = try fixture.changeTheSameLines()
        let fresh = try fixture.freshClone()
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
        let (fixture, proposed) = try ReviewForgeRefsTests.proposedWithoutAForgeKind()
        let (sandbox, forge, infrastructure) = (fixture.sandbox, fixture.forge, fixture.infrastructure)
        let run = try #require(try JSONSerialization.jsonObject(with: Data(proposed.stdout.utf8)) as? [String: Any])
        let branch = "\(ReviewOptions.defaultPrefix)/t2"
        let landed = try forge.land("refs/heads/" + branch, into: "t2", method: method, in: infrastructure)
        try sandbox.git(["update-ref", "-d", "refs/heads/" + branch], in: infrastructure)
        let fresh = try fixture.freshClone()

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
