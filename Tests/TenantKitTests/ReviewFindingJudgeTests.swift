import Foundation
import TenantKit
import TenantTestSupport
import Testing

@testable import TenantAudit

/// The one judge decides the review findings from observed facts; the renderers only show them.
@Suite struct ReviewFindingJudgeTests {
    static func id(_ digit: Character) -> String { String(repeating: digit, count: 40) }
    static let base = id("b")
    static let general1 = id("1")
    static let general2 = id("2")
    static let squash = id("5")
    static let merge = id("6")
    static let proposed = id("7")

    /// Module `Order`: general_dev b → 1 → 2; t3 squashed at 5 (parent b); t2 merged at 6 (parents b, 1).
    static func observation() throws -> ProjectObservation {
        let graph = try #require(
            CommitGraph(
                listing: "\(general2) \(general1)\n\(merge) \(base) \(general1)\n\(general1) \(base)\n"
                    + "\(squash) \(base)\n\(base)\n"))
        let order = ModuleObservation(
            generalBranch: "general_dev", branches: ["general_dev": general2, "t3": squash, "t2": merge], graph: graph)
        let superproject = SuperprojectObservation(
            generalBranch: "general_dev", generalTip: id("a"), tenantTips: ["t2": id("c"), "t3": id("d")], pins: [:])
        return ProjectObservation(superproject: superproject, modules: ["Order": order])
    }

    static func review(_ state: String, tenant: String = "t3", general: String = general2, run: String = "r1")
        -> ObservedReview
    {
        ObservedReview(
            runId: run, since: "2026-11-24T10:00:00Z", forge: "branch", repository: "Order", tenant: tenant,
            target: tenant, ref: "refs/heads/tenantctl/roll/\(tenant)", state: state, general: general,
            proposed: proposed)
    }

    static func codes(_ review: ObservedReview) throws -> [FindingCode] {
        FindingJudge.reviewFindings(review, observation: try observation()).map(\.code)
    }

    @Test func eachStateHasItsFindingAndNextCommand() throws {
        #expect(try Self.codes(Self.review("open")) == [.pendingReview])
        #expect(try Self.codes(Self.review("waiting")) == [.pendingReview])
        // The general branch moved on since the proposal: stale (the control above rolls in the tip).
        #expect(try Self.codes(Self.review("open", general: Self.general1)) == [.staleReview])
        #expect(try Self.codes(Self.review("closed")) == [.staleReview])
        let conflict = FindingJudge.reviewFindings(Self.review("conflict"), observation: try Self.observation())
        #expect(conflict.map(\.code) == [.reviewConflict])
        #expect(conflict.first?.message.contains("tenantctl resolve t3 --review") == true, "\(conflict)")
        #expect(conflict.first?.module == "Order" && conflict.first?.tenant == "t3")
        let pending = FindingJudge.reviewFindings(Self.review("open"), observation: try Self.observation())
        #expect(pending.first?.message.contains("tenantctl roll --land") == true)
        #expect(try Self.codes(Self.review("rejected")).isEmpty)
    }

    /// A squash that the target does not contain by ancestry is information; a merge landing says nothing.
    @Test func aSquashLandingIsInformationWhileTheTargetLacksTheGeneralCommit() throws {
        var squashed = Self.review("landed", general: Self.general1)
        squashed.landed = Self.squash
        squashed.method = "squash"
        squashed.followed = false
        #expect(try Self.codes(squashed) == [.squashedRoll])
        #expect(FindingCode.squashedRoll.isInformation)
        var merged = Self.review("landed", tenant: "t2", general: Self.general1)
        merged.landed = Self.merge
        merged.method = "merge"
        merged.followed = false
        #expect(try Self.codes(merged).isEmpty)
        // A squash whose target has the general commit by now (t2 merged 1) is not shown: nothing to say.
        var caughtUp = merged
        caughtUp.method = "squash"
        #expect(try Self.codes(caughtUp).isEmpty)
        let shown = FindingJudge.shownReviews([squashed, merged, caughtUp], observation: try Self.observation())
        #expect(shown == [squashed], "\(shown)")
    }

    /// Of each cell the newest proposal is shown (a later run took it over), beside a squash still without ancestry.
    @Test func theNewestProposalOfACellIsShown() throws {
        var squashed = Self.review("landed", general: Self.general1, run: "r1")
        squashed.landed = Self.squash
        squashed.method = "squash"
        squashed.followed = false
        let older = Self.review("open", run: "r1")
        let newer = Self.review("open", run: "r2")
        let shown = FindingJudge.shownReviews([squashed, older, newer], observation: try Self.observation())
        #expect(shown.map(\.runId) == ["r1", "r2"] && shown.map(\.state) == ["landed", "open"], "\(shown)")
    }

    /// A landing the remotes show is judged as a journal's (`squashed-roll`), shown once (a journal that has the same
    /// landing wins), said to be from the remotes in every format, and its JSON (no proposed commit) is the schema's.
    @Test func aLandingSeenOnTheRemotesIsShownOnceAndMarkedAsSuch() throws {
        var remote = Self.review("landed", general: Self.general1, run: "r9")
        remote.landed = Self.squash
        remote.method = "squash"
        remote.followed = false
        remote.seenOnRemotes = true
        remote.proposed = nil
        #expect(try Self.codes(remote) == [.squashedRoll])
        var journal = remote
        journal.seenOnRemotes = false
        journal.proposed = Self.proposed
        #expect(FindingJudge.reviews(journal: [journal], remote: [remote]) == [journal], "the journal's wins")
        #expect(FindingJudge.reviews(journal: [], remote: [remote, remote]) == [remote], "each landing once")
        let open = Self.review("open", run: "r10")
        #expect(FindingJudge.reviews(journal: [open], remote: [remote]) == [remote, open], "the remote's is older")

        let cell = ModuleAudit(
            module: "Order", pin: Self.id("9"), branch: "t3", customised: false, ahead: 0, behind: 2, pinIsTip: false,
            active: true, changedFiles: [], findings: [])
        let tenant = TenantAudit(
            id: "t3", branch: "t3",
            superproject: SuperprojectAudit(ahead: 0, behind: 0, changedFiles: [], findings: []), modules: [cell])
        let report = Auditor.adding(
            FindingJudge.reviews(journal: [], remote: [remote]),
            to: AuditReport(generalBranch: "general_dev", modules: ["Order"], tenants: [tenant]),
            observation: try Self.observation(), now: Date(timeIntervalSince1970: 1_795_816_800))
        #expect(report.tenants[0].modules[0].findings.map(\.code) == [.squashedRoll])
        #expect(report.reviews.first?.from == "remotes")
        let json = try AuditJSONRenderer.render(report)
        #expect(json == (try JSONOutput.encode(report)))
        #expect(json.contains("\"from\" : \"remotes\"") && json.contains("\"proposed\" : null"), "\(json)")
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let schema = try JSONSchemaCheck(contentsOf: root.appendingPathComponent("docs/audit-schema.json").path)
        #expect(try schema.violations(of: json) == [])
        let line =
            "t3/Order: landed squash 5555555 — branch tenantctl/roll/t3 into t3, rolls in 1111111 (seen on the remotes)"
        let table = AuditTableRenderer.render(
            report, console: Console(out: BufferOutputSink(), err: BufferOutputSink(), color: false, width: 300))
        #expect(table.contains(line), "\(table)")
        #expect(AuditMarkdownRenderer.render(report).contains(line))
        #expect(AuditHTMLRenderer.render(report).contains("(seen on the remotes)"))
    }

    @Test func aReviewsNumberComesFromItsRefOrAddress() {
        var review = Self.review("open")
        #expect(review.number == nil)
        review.ref = "refs/merge-requests/12/head"
        #expect(review.number == 12)
        review.ref = "refs/changes/34/1234/2"
        #expect(review.number == 1234)
        review.ref = "refs/heads/tenantctl/roll/t3"
        review.url = "https://github.com/erp/Order/pull/7"
        #expect(review.number == 7)
        #expect(ObservedReview.forgeKind(ofRef: "refs/for/t3%topic=tenantctl-roll-t3") == "gerrit")
        #expect(ObservedReview.forgeKind(ofRef: "refs/for/t3") == "agit")
    }

    /// The report with one review on t2's Order cell and the general branch's re-pin.
    static func report() throws -> AuditReport {
        let cell = ModuleAudit(
            module: "Order", pin: id("9"), branch: "t2", customised: false, ahead: 0, behind: 1, pinIsTip: false,
            active: true, changedFiles: [], findings: [])
        let tenant = TenantAudit(
            id: "t2", branch: "t2",
            superproject: SuperprojectAudit(ahead: 0, behind: 0, changedFiles: [], findings: []),
            modules: [cell])
        let report = AuditReport(generalBranch: "general_dev", modules: ["Order"], tenants: [tenant])
        var repin = review("open", tenant: "general_dev")
        repin.repository = "superproject"
        repin.target = "general_dev"
        repin.url = "https://example.com/erp/pull/3 \"<b>\""
        return Auditor.adding(
            [review("open", tenant: "t2"), repin], to: report, observation: try observation(),
            now: Date(timeIntervalSince1970: 1_795_816_800))
    }

    @Test func everyFormatShowsTheReviewsAndTheJSONIsTheSchemas() throws {
        let report = try Self.report()
        #expect(report.reviews.count == 2)
        #expect(report.tenants[0].modules[0].findings.map(\.code) == [.pendingReview])
        #expect(report.findings.map(\.code) == [.pendingReview], "the re-pin's finding is the report's")
        #expect(report.reviews[0].days == 3 && report.reviews[0].summary == "review open 3d")
        // The hand-written JSON is JSONEncoder's, and the schema's.
        let json = try AuditJSONRenderer.render(report)
        #expect(json == (try JSONOutput.encode(report)))
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let schema = try JSONSchemaCheck(contentsOf: root.appendingPathComponent("docs/audit-schema.json").path)
        #expect(try schema.violations(of: json) == [])
        let broken = json.replacingOccurrences(of: "\"forge\" : \"branch\"", with: "\"forge\" : \"github\"")
        #expect(try !schema.violations(of: broken).isEmpty, "positive control: the schema checks the forge kind")
        let table = AuditTableRenderer.render(
            report, console: Console(out: BufferOutputSink(), err: BufferOutputSink(), color: false, width: 200))
        #expect(table.contains("Reviews:\n  t2/Order: review open 3d — branch tenantctl/roll/t2 into t2"), "\(table)")
        #expect(table.contains("pending-review"))
        let markdown = AuditMarkdownRenderer.render(report)
        #expect(markdown.contains("**Reviews**\n\n- t2/Order: review open 3d"), "\(markdown)")
        let html = AuditHTMLRenderer.render(report)
        #expect(html.contains("<li>t2/Order: review open 3d"), "\(html.prefix(2500))")
        #expect(html.contains("&quot;&lt;b&gt;&quot;") && !html.contains("\"<b>\""), "escaped")
        // No review, no section (the control).
        let plain = AuditReport(generalBranch: "general_dev", modules: ["Order"], tenants: report.tenants)
        #expect(!AuditHTMLRenderer.render(plain).contains("id=\"rv\""))
        #expect(!AuditMarkdownRenderer.render(plain).contains("**Reviews**"))
    }
}
