import Foundation
import TenantExample
import TenantKit
import TenantTestSupport
import Testing

/// What audit, status and runs show of a review roll, on the example with a forge emulated by git hooks: the open
/// reviews in every audit format with their findings (`pending-review`, `stale-review`, `review-conflict`,
/// `squashed-roll`), a waiting run's counts and its way on.
@Suite struct ReviewShowTests {
    /// `tenantctl audit --json`: the decoded report and the raw text.
    static func audit(_ sandbox: GitSandbox, _ example: ExampleResult) throws -> (json: [String: Any], text: String) {
        let result = sandbox.tenantctl(["audit", "--json"], in: example.workspace)
        #expect(result.status == 0 || result.status == 2, "\(result.stdout)\(result.stderr)")
        return (
            try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]),
            result.stdout
        )
    }

    /// The codes of the findings on `tenant`'s cell of `repository` (`superproject` for its superproject entry).
    static func codes(_ json: [String: Any], _ tenant: String, _ repository: String) -> [String] {
        let entry = (json["tenants"] as? [[String: Any]] ?? []).first { $0["id"] as? String == tenant }
        let cell: [String: Any]? =
            repository == "superproject"
            ? entry?["superproject"] as? [String: Any]
            : (entry?["modules"] as? [[String: Any]] ?? []).first { $0["module"] as? String == repository }
        return (cell?["findings"] as? [[String: Any]] ?? []).compactMap { $0["code"] as? String }
    }

    /// The reviews of an audit report.
    static func reviews(_ json: [String: Any]) -> [[String: Any]] { json["reviews"] as? [[String: Any]] ?? [] }

    /// The problems of `json` against the audit schema.
    static func auditViolations(_ json: String) throws -> [String] {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        return try JSONSchemaCheck(contentsOf: root.appendingPathComponent("docs/audit-schema.json").path)
            .violations(of: json)
    }

    static let reviewCodes: Set<String> = ["pending-review", "stale-review", "review-conflict", "squashed-roll"]

    /// The fast-set check: after `roll --review`, every audit format shows the open reviews and their
    /// `pending-review` findings (none before: the control), status and runs show the waiting run and its way on.
    @Test func auditStatusAndRunsShowAnOpenReviewRoll() throws {
        let (sandbox, example, _) = try ReviewRollTests.example()
        let before = try Self.audit(sandbox, example)
        #expect(Self.reviews(before.json).isEmpty, "no review before the review roll")
        #expect(try Self.auditViolations(before.text).isEmpty)
        for tenant in ["t1", "t2", "t3"] {
            for repository in ["superproject", "Infrastructure", "Order"] {
                #expect(Set(Self.codes(before.json, tenant, repository)).isDisjoint(with: Self.reviewCodes))
            }
        }

        let proposed = sandbox.tenantctl(["roll", "--review", "--json"], in: example.workspace)
        #expect(proposed.status == 75, "\(proposed.stdout)\(proposed.stderr)")
        let runId = try #require(
            (try JSONSerialization.jsonObject(with: Data(proposed.stdout.utf8)) as? [String: Any])?["runId"] as? String)

        let after = try Self.audit(sandbox, example)
        #expect(try Self.auditViolations(after.text).isEmpty, "\(after.text)")
        let reviews = Self.reviews(after.json)
        let infrastructure = try #require(
            reviews.first { $0["repository"] as? String == "Infrastructure" && $0["tenant"] as? String == "t2" },
            "\(reviews)")
        #expect(infrastructure["state"] as? String == "open")
        #expect(infrastructure["forge"] as? String == "branch")
        #expect(infrastructure["ref"] as? String == "refs/heads/\(ReviewOptions.defaultPrefix)/t2")
        #expect(infrastructure["runId"] as? String == runId)
        #expect(
            infrastructure["proposed"] as? String
                == (try sandbox.git(
                    ["rev-parse", "refs/heads/\(ReviewOptions.defaultPrefix)/t2"],
                    in: example.remotes + "/Infrastructure.git")))
        #expect(Self.codes(after.json, "t2", "Infrastructure").contains("pending-review"))
        #expect(Self.codes(after.json, "t3", "Order").contains("pending-review"))
        // A tenant's superproject proposal waits for its module proposals: pending too, on its superproject entry.
        #expect(Self.codes(after.json, "t2", "superproject").contains("pending-review"))
        // The general branch's re-pin has no tenant cell: a finding of the report.
        let global = (after.json["findings"] as? [[String: Any]] ?? []).compactMap { $0["code"] as? String }
        #expect(global.contains("pending-review"), "\(global)")
        // t1 has no module merge: no module cell of it has a review.
        #expect(!Self.codes(after.json, "t1", "Infrastructure").contains("pending-review"))

        let table = sandbox.tenantctl(["audit"], in: example.workspace)
        #expect(table.stdout.contains("Reviews:"), "\(table.stdout)")
        #expect(table.stdout.contains("t2/Infrastructure: review open 0d"), "\(table.stdout)")
        #expect(table.stdout.contains("pending-review"), "\(table.stdout)")
        #expect(table.stdout.contains("tenantctl roll --land"), "\(table.stdout)")
        let markdown = sandbox.tenantctl(["audit", "--format", "markdown"], in: example.workspace)
        #expect(markdown.stdout.contains("**Reviews**"), "\(markdown.stdout)")
        #expect(markdown.stdout.contains("`pending-review`"), "\(markdown.stdout)")
        let html = sandbox.tenantctl(["audit", "--format", "html"], in: example.workspace)
        #expect(html.stdout.contains("<section id=\"rv\"><h2>Reviews</h2>"), "\(html.stdout.prefix(3000))")
        #expect(html.stdout.contains("t2/Infrastructure: review open"), "\(html.stdout.prefix(3000))")
        #expect(html.stdout.contains("pending-review"))

        // status and runs: the waiting run, its counts and the way on.
        let status = sandbox.tenantctl(["status", "--json"], in: example.workspace)
        #expect(status.status == 0, "\(status.stderr)")
        #expect(try ReviewRollTests.violations(status.stdout, schema: "status").isEmpty, "\(status.stdout)")
        let statusJSON = try #require(
            try JSONSerialization.jsonObject(with: Data(status.stdout.utf8)) as? [String: Any])
        let waiting = try #require((statusJSON["reviews"] as? [[String: Any]])?.first, "\(status.stdout)")
        #expect(waiting["runId"] as? String == runId)
        #expect(waiting["open"] as? Int == 3, "\(waiting)")
        #expect(waiting["next"] as? String == "tenantctl roll --land", "\(waiting)")
        let statusText = sandbox.tenantctl(["status"], in: example.workspace)
        #expect(statusText.stdout.contains("review roll \(runId) is waiting: 3 open"), "\(statusText.stdout)")
        #expect(statusText.stdout.contains("the way on: tenantctl roll --land"), "\(statusText.stdout)")
        #expect(statusText.stdout.contains("t2/Infrastructure: open"), "\(statusText.stdout)")

        let runs = sandbox.tenantctl(["runs", "--json"], in: example.workspace)
        #expect(try ReviewRollTests.violations(runs.stdout, schema: "runs").isEmpty, "\(runs.stdout)")
        let runsJSON = try #require(try JSONSerialization.jsonObject(with: Data(runs.stdout.utf8)) as? [String: Any])
        let run = try #require((runsJSON["runs"] as? [[String: Any]])?.first { $0["runId"] as? String == runId })
        #expect(run["state"] as? String == "waiting")
        let counts = try #require(run["reviews"] as? [String: Any], "\(run)")
        #expect(counts["open"] as? Int == 3 && counts["next"] as? String == "tenantctl roll --land", "\(counts)")
        let runsText = sandbox.tenantctl(["runs"], in: example.workspace)
        #expect(
            runsText.stdout.contains("\(runId) is waiting on reviews (3 open"), "\(runsText.stdout)")
        #expect(runsText.stdout.contains("the way on: tenantctl roll --land"), "\(runsText.stdout)")
        // Positive control of the negative: a run that is no review roll has no reviews in runs --json.
        #expect(
            (runsJSON["runs"] as? [[String: Any]] ?? []).filter { $0["runId"] as? String != runId }
                .allSatisfy { $0["reviews"] == nil })
    }

    /// A general change after the proposal makes it `stale-review`; a tenant branch that moved so that the proposal
    /// no longer merges makes it `review-conflict` naming `resolve <t> --review`; a proposal branch deleted without a
    /// landing is `stale-review` (closed); after `--abandon` audit shows no review.
    @Test(.tags(.slow), .notInTheFastSet)
    func staleConflictingClosedAndAbandonedReviews() throws {
        let (sandbox, example, _) = try ReviewRollTests.example()
        let infrastructure = example.remotes + "/Infrastructure.git"
        let order = example.remotes + "/Order.git"
        // A general change that adds a file, so that a tenant commit adding it otherwise conflicts with the proposal.
        let developer = sandbox.path("infrastructure-general")
        try sandbox.git(["clone", "-q", "--branch", "general_dev", infrastructure, developer])
        try sandbox.commit(
            in: "infrastructure-general", file: "ReviewShow.txt", content: "general\n", message: "a general file")
        try sandbox.git(["push", "-q", "origin", "general_dev"], in: developer)
        let proposed = sandbox.tenantctl(["roll", "--review", "--json"], in: example.workspace)
        #expect(proposed.status == 75, "\(proposed.stdout)\(proposed.stderr)")
        let runId = try #require(
            (try JSONSerialization.jsonObject(with: Data(proposed.stdout.utf8)) as? [String: Any])?["runId"] as? String)
        let open = try Self.audit(sandbox, example).json
        #expect(Self.codes(open, "t3", "Order").contains("pending-review"), "control: pending before")
        #expect(!Self.codes(open, "t3", "Order").contains("stale-review"))

        // Order's general branch moves on: its open proposal is stale (Infrastructure's is not: the control).
        let orderDeveloper = sandbox.path("order-general")
        try sandbox.git(["clone", "-q", "--branch", "general_dev", order, orderDeveloper])
        try sandbox.commit(in: "order-general", file: "Later.txt", content: "later\n", message: "a later change")
        try sandbox.git(["push", "-q", "origin", "general_dev"], in: orderDeveloper)
        let stale = try Self.audit(sandbox, example)
        #expect(try Self.auditViolations(stale.text).isEmpty)
        #expect(
            Self.codes(stale.json, "t3", "Order").contains("stale-review"), "\(Self.codes(stale.json, "t3", "Order"))")
        #expect(!Self.codes(stale.json, "t2", "Infrastructure").contains("stale-review"))
        #expect(stale.text.contains("tenantctl roll --review"))

        // Infrastructure's t2 takes a commit that adds the same file otherwise: the proposal no longer merges.
        let tenant = sandbox.path("infrastructure-t2")
        try sandbox.git(["clone", "-q", "--branch", "t2", infrastructure, tenant])
        try sandbox.commit(in: "infrastructure-t2", file: "ReviewShow.txt", content: "tenant\n", message: "t2's own")
        try sandbox.git(["push", "-q", "origin", "t2"], in: tenant)
        // Order's proposal branch is deleted without a landing (the review was closed).
        try sandbox.git(["update-ref", "-d", "refs/heads/\(ReviewOptions.defaultPrefix)/t3"], in: order)
        let land = sandbox.tenantctl(["roll", "--land", "--json"], in: example.workspace)
        #expect(land.status == 2, "\(land.stdout)\(land.stderr)")
        let followed = try Self.audit(sandbox, example)
        #expect(try Self.auditViolations(followed.text).isEmpty)
        let conflict = Self.codes(followed.json, "t2", "Infrastructure")
        #expect(conflict.contains("review-conflict"), "\(conflict)")
        #expect(followed.text.contains("tenantctl resolve t2 --review"), "\(followed.text)")
        #expect(Self.codes(followed.json, "t3", "Order").contains("stale-review"))
        #expect(followed.text.contains("was closed without landing"), "\(followed.text)")

        // Abandoned: the proposal in conflict is no longer followed, so audit no longer shows it (it did above).
        let abandon = sandbox.tenantctl(["roll", "--abandon", runId], in: example.workspace)
        #expect(abandon.status == 0, "\(abandon.stdout)\(abandon.stderr)")
        let after = try Self.audit(sandbox, example)
        #expect(
            !Self.reviews(after.json).contains {
                $0["repository"] as? String == "Infrastructure" && $0["tenant"] as? String == "t2"
            }, "\(Self.reviews(after.json))")
        #expect(Set(Self.codes(after.json, "t2", "Infrastructure")).isDisjoint(with: Self.reviewCodes))
    }

    /// A module proposal the forge squashed is `squashed-roll` (information: it fails no gate by itself), shown while
    /// the tenant branch lacks the general commit by ancestry; one landed by a merge commit is not (the control).
    @Test(.tags(.slow), .notInTheFastSet)
    func aSquashedLandingIsInformation() throws {
        let (sandbox, example, forge) = try ReviewRollTests.example()
        let superproject = example.remotes + "/" + ExampleBuilder.superprojectName + ".git"
        let proposed = sandbox.tenantctl(["roll", "--review"], in: example.workspace)
        #expect(proposed.status == 75, "\(proposed.stdout)\(proposed.stderr)")
        let prefix = "refs/heads/\(ReviewOptions.defaultPrefix)/"
        let squash = try forge.land(
            prefix + "t2", into: "t2", method: .squash, in: example.remotes + "/Infrastructure.git")
        try forge.land(prefix + "t3", into: "t3", method: .merge, in: example.remotes + "/Order.git")
        try forge.land(prefix + "general_dev", into: "general_dev", method: .merge, in: superproject)
        let land = sandbox.tenantctl(["roll", "--land"], in: example.workspace)
        #expect([0, 75].contains(land.status), "\(land.stdout)\(land.stderr)")
        let audit = try Self.audit(sandbox, example)
        #expect(try Self.auditViolations(audit.text).isEmpty)
        #expect(Self.codes(audit.json, "t2", "Infrastructure").contains("squashed-roll"), "\(audit.text)")
        let shown = Self.reviews(audit.json).first {
            $0["repository"] as? String == "Infrastructure" && $0["state"] as? String == "landed"
        }
        #expect(shown?["method"] as? String == "squash" && shown?["landed"] as? String == squash, "\(audit.text)")
        #expect(!Self.codes(audit.json, "t3", "Order").contains("squashed-roll"), "a merge landing is no squash")
        #expect(FindingCode.squashedRoll.isInformation && !FindingCode.pendingReview.isInformation)
    }
}
