import Foundation
import TenantExample
import TenantKit
import TenantTestSupport
import Testing

/// `tenantctl resolve <t> --review` on every forge kind, with the forge emulated by git hooks: the resolution is
/// proposed as that forge expects it (AGit `refs/for/<target>` with a topic, GitLab push options that open a merge
/// request, Gerrit `refs/for/<target>` with a `Change-Id`), its commits carry the trailer `roll --review` writes,
/// resolving again updates the one review (same pull request, merge request or change), resolving the same way keeps
/// it, and once the forge squashed it `roll --land` recognises the landing and proposes the tenant's pin of it.
@Suite(.tags(.slow), .notInTheFastSet) struct ResolveReviewKindsTests {
    static let repositories = ["Infrastructure", "Article", "Customer", "Order", ExampleBuilder.superprojectName]

    /// The example at its conflict, modules.json proposing to `kind` (nil: none, the `branch` kind), after a plain
    /// roll (general_dev re-pinned, t1 and t3 rolled, t2 in conflict); then every tenant branch and the superproject's
    /// general_dev protected (the modules' general_dev stays open to developers), every remote served as a forge of
    /// `kind`.
    static func example(_ kind: EmulatedForge.Kind?) throws -> ReviewForgeFixture {
        let fixture = try ReviewForgeFixture(stage: .conflict, review: kind.map { "{\"forge\": \"\($0.rawValue)\"}" })
        let rolled = fixture.sandbox.tenantctl(["roll"], in: fixture.example.workspace)
        #expect(rolled.status == 2, "\(rolled.stdout)\(rolled.stderr)")
        try fixture.serve(kind, protectingGeneral: true)
        return fixture
    }

    /// Where each kind's forge keeps a review, and the part of its address before the number.
    static let forgeReview: [EmulatedForge.Kind: (ref: String, address: String)] = [
        .agit: ("refs/pull/1/head", "pulls"), .gitlab: ("refs/merge-requests/1/head", "merge_requests"),
        .gerrit: ("refs/changes/01/1/", "changes"),
    ]

    /// The trailer `roll --review` writes, as a pattern: `Rolled-by: tenantctl <run-id> general_dev <commit>`.
    static func trailer(rolling commit: String) -> String {
        #"\n\nRolled-by: tenantctl [0-9A-Za-z._-]+ general_dev "# + commit + #"(\n|$)"#
    }

    /// The `Change-Id` of a commit message, nil when it has none.
    static func changeId(_ message: String) -> String? {
        guard let range = message.range(of: #"Change-Id: I[0-9a-f]{40}"#, options: .regularExpression) else {
            return nil
        }
        return String(message[range].dropFirst("Change-Id: ".count))
    }

    @Test(.tags(.slow), .notInTheFastSet, arguments: [EmulatedForge.Kind.agit, .gitlab, .gerrit])
    func aResolutionIsProposedAsItsForgeExpectsAndUpdatesItsOneReview(kind: EmulatedForge.Kind) throws {
        let fixture = try Self.example(kind)
        let (sandbox, example, forge, infrastructure) = (
            fixture.sandbox, fixture.example, fixture.forge, fixture.infrastructure
        )
        let protected = try ReviewForgeKindsTests.protectedBranches(sandbox, example)
        let proposed = sandbox.tenantctl(["roll", "--review", "--json"], in: example.workspace)
        let next = try ReviewRollTests.tenants(proposed.stdout)["t2"]?["next"] as? String
        #expect(next == "tenantctl resolve t2 --review", "\(proposed.stdout)\(proposed.stderr)")

        // Resolved and continued: the forge received the proposal as it expects it and opened one review.
        let resolution = ExampleScenario.conflictResolution.content
        _ = try ResolveReviewTests.resolve(sandbox, example, content: resolution)
        let received = try forge.received(in: infrastructure)
        let first = try #require(received.last, "Infrastructure received nothing")
        let subject = try sandbox.git(["log", "-1", "--format=%s", first.new], in: infrastructure)
        let message = try sandbox.git(["log", "-1", "--format=%B", first.new], in: infrastructure)
        switch kind {
        case .agit:
            #expect(first.ref == "refs/for/t2", "\(first)")
            #expect(first.options == ["topic=tenantctl-roll-t2", "title=\(subject)"], "\(first)")
        case .gitlab:
            #expect(first.ref == "refs/heads/\(ReviewOptions.defaultPrefix)/t2", "\(first)")
            #expect(
                first.options == ["merge_request.create", "merge_request.target=t2", "merge_request.title=\(subject)"],
                "\(first)")
        default:
            #expect(first.ref == "refs/for/t2%topic=tenantctl-roll-t2" && first.options.isEmpty, "\(first)")
            #expect(Self.changeId(message) != nil, "\(message)")
        }
        let general = try sandbox.git(["rev-parse", "general_dev"], in: infrastructure)
        #expect(
            message.range(of: Self.trailer(rolling: general), options: .regularExpression) != nil,
            "the trailer roll --review writes: \(message)")
        let opened = try forge.reviews(in: infrastructure)
        #expect(opened.count == 1 && opened.first?.commit == first.new && opened.first?.target == "t2", "\(opened)")
        #expect(opened.first?.ref.hasPrefix(Self.forgeReview[kind]?.ref ?? "?") == true, "\(opened)")
        #expect(try ReviewForgeKindsTests.protectedBranches(sandbox, example) == protected, "a protected branch moved")
        for name in Self.repositories {
            let refs = try sandbox.refs(example.remotes + "/\(name).git").keys
            #expect(refs.allSatisfy { !$0.hasPrefix("refs/for/") }, "\(name): \(refs.sorted())")
        }
        // The run follows the review as roll --review's do: its address, and where the forge keeps it.
        let land = sandbox.tenantctl(["roll", "--land", "--json"], in: example.workspace)
        #expect(land.status == 75, "\(land.stdout)\(land.stderr)")
        let followed = try #require(
            ReviewRollTests.review(try ReviewRollTests.reviews(land.stdout), "Infrastructure", "t2"), "\(land.stdout)")
        #expect(followed["state"] as? String == "open" && followed["proposed"] as? String == first.new, "\(followed)")
        let address = "https://forge.invalid/Infrastructure/\(Self.forgeReview[kind]?.address ?? "?")/1"
        #expect(followed["url"] as? String == address, "\(followed)")
        if kind != .gitlab { #expect(followed["reviewRef"] as? String == opened.first?.ref, "\(followed)") }

        // Resolved otherwise: the same review shows the new resolution (Gerrit: a new patch set of the same change).
        let changed = resolution + "infrastructure.extra,Extra,Extra\n"
        _ = try ResolveReviewTests.resolve(sandbox, example, content: changed)
        let updated = try forge.reviews(in: infrastructure)
        let second = try #require(updated.first)
        #expect(updated.map(\.number) == [1] && second.commit != first.new, "one review, updated: \(updated)")
        #expect(
            try sandbox.git(["show", "\(second.commit):Strings.csv"], in: infrastructure)
                == changed.trimmingCharacters(in: .newlines))
        let secondMessage = try sandbox.git(["log", "-1", "--format=%B", second.commit], in: infrastructure)
        #expect(Self.changeId(secondMessage) == Self.changeId(message), "the same change: \(secondMessage)")
        if kind == .gerrit { #expect(second.ref == "refs/changes/01/1/2", "a new patch set: \(second)") }

        // Resolved the same way once more: the forge has that resolution; nothing is pushed, no review opened.
        let pushes = try forge.received(in: infrastructure).count
        _ = try ResolveReviewTests.resolve(sandbox, example, content: changed)
        #expect(try forge.received(in: infrastructure).count == pushes, "pushed again")
        #expect(try forge.reviews(in: infrastructure) == updated)
        #expect(try ReviewForgeKindsTests.protectedBranches(sandbox, example) == protected, "a protected branch moved")

        // The forge squashes it: roll --land recognises the landing and proposes t2's pin of what landed (the virtual
        // base: t2's Infrastructure counts as containing the general commit the squash brought, no conflict again).
        let landed = try forge.land(second.ref, into: "t2", method: .squash, in: infrastructure)
        let after = sandbox.tenantctl(["roll", "--land", "--json"], in: example.workspace)
        #expect(after.status == 75, "\(after.stdout)\(after.stderr)")
        let reviews = try ReviewRollTests.reviews(after.stdout)
        let squashed = ReviewRollTests.review(reviews, "Infrastructure", "t2")
        #expect(squashed?["state"] as? String == "landed" && squashed?["method"] as? String == "squash", "\(reviews)")
        #expect(ReviewRollTests.review(reviews, "superproject", "t2")?["state"] as? String == "open", "\(reviews)")
        let pin = try #require(try forge.reviews(in: example.remotes + "/Superproject.git").last { $0.target == "t2" })
        #expect(
            try sandbox.gitlinks(on: pin.commit, in: example.remotes + "/Superproject.git")["Modules/Infrastructure"]
                == landed)
        try ReviewRollTests.expectNoUnlandedPin(sandbox, example)
    }

    /// Gerrit: the forge merged the resolution's change, nobody ran `roll --land` yet, and general_dev moves on to the
    /// lines t2 translated, so t2 is resolved again. That resolution is a new change: the merged one's `Change-Id`
    /// would make Gerrit add a patch set to a merged change (or refuse it). Positive control: resolved once more while
    /// that new change is open and unlanded, the resolution is a new patch set of it, its `Change-Id` kept.
    @Test(.tags(.slow), .notInTheFastSet)
    func aResolutionAfterTheForgeMergedTheChangeIsANewChange() throws {
        let fixture = try Self.example(.gerrit)
        let (sandbox, example, forge, infrastructure) = (
            fixture.sandbox, fixture.example, fixture.forge, fixture.infrastructure
        )
        let proposed = sandbox.tenantctl(["roll", "--review", "--json"], in: example.workspace)
        #expect(proposed.status == 2, "\(proposed.stdout)\(proposed.stderr)")
        _ = try ResolveReviewTests.resolve(sandbox, example, content: ExampleScenario.conflictResolution.content)
        let merged = try #require(try forge.reviews(in: infrastructure).first, "no change opened")
        let mergedId = try #require(
            Self.changeId(try sandbox.git(["log", "-1", "--format=%B", merged.commit], in: infrastructure)))

        // The forge merges the change; `roll --land` does not run. general_dev rewords the loading message again,
        // and its re-pin lands as someone else's change: t2 conflicts again.
        try forge.land(merged.ref, into: "t2", method: .merge, in: infrastructure)
        try Self.rewordTheLoadingMessage(fixture, to: "Loading all your data…")
        let again = Self.resolution(english: "Loading all your data…", german: "Alle Ihre Daten werden geladen…")
        _ = try ResolveReviewTests.resolve(sandbox, example, content: again)
        let changes = try forge.reviews(in: infrastructure)
        #expect(changes.map(\.number) == [1, 2], "a new change, not a patch set of the merged one: \(changes)")
        let opened = try #require(changes.last)
        let newId = Self.changeId(try sandbox.git(["log", "-1", "--format=%B", opened.commit], in: infrastructure))
        #expect(newId != nil && newId != mergedId, "\(newId ?? "none") after the merged \(mergedId)")

        // Positive control: the new change is open and unlanded; resolved otherwise, it gets a new patch set.
        _ = try ResolveReviewTests.resolve(sandbox, example, content: again + "infrastructure.extra,Extra,Extra\n")
        let updated = try forge.reviews(in: infrastructure)
        #expect(updated.map(\.number) == [1, 2], "\(updated)")
        let patchSet = try #require(updated.last)
        #expect(patchSet.ref == "refs/changes/02/2/2" && patchSet.commit != opened.commit, "\(patchSet)")
        let keptId = Self.changeId(try sandbox.git(["log", "-1", "--format=%B", patchSet.commit], in: infrastructure))
        #expect(keptId == newId, "the open change keeps its Change-Id")
        try ReviewRollTests.expectNoUnlandedPin(sandbox, example)
    }

    /// The conflict's resolution with the loading message `english` and its translation `german`.
    static func resolution(english: String, german: String) -> String {
        """
        key,en,de
        infrastructure.start.title,Modules,Module
        infrastructure.loading,\(english),\(german)
        infrastructure.error.network,The server cannot be reached.,Der Server ist nicht erreichbar.

        """
    }

    /// A general change of Infrastructure rewording the loading message (the row t2 translated) to `english`, and
    /// general_dev's re-pin of it landed on the superproject as a change someone else got through review.
    static func rewordTheLoadingMessage(_ fixture: ReviewForgeFixture, to english: String) throws {
        let (sandbox, infrastructure, superproject) = (fixture.sandbox, fixture.infrastructure, fixture.superproject)
        let developer = sandbox.path("reword-\(UUID().uuidString.prefix(6))")
        try sandbox.git(["clone", "-q", "--branch", "general_dev", infrastructure, developer])
        try """
        key,en
        infrastructure.start.title,Modules
        infrastructure.loading,\(english)
        infrastructure.error.network,The server cannot be reached.

        """.write(toFile: developer + "/Strings.csv", atomically: true, encoding: .utf8)
        try sandbox.git(["commit", "-q", "-am", "Strings: the loading message reworded again"], in: developer)
        try sandbox.git(["push", "-q", "origin", "general_dev"], in: developer)
        let general = try sandbox.git(["rev-parse", "HEAD"], in: developer)

        let repin = sandbox.path("repin-\(UUID().uuidString.prefix(6))")
        try sandbox.git(["clone", "-q", "--branch", "general_dev", superproject, repin])
        try sandbox.git(
            ["update-index", "--cacheinfo", "160000,\(general),Modules/Infrastructure"], in: repin)
        try sandbox.git(["commit", "-q", "-m", "Re-pin Infrastructure"], in: repin)
        try sandbox.git(["push", "-q", "origin", "HEAD:refs/heads/repin"], in: repin)
        try fixture.forge.land("refs/heads/repin", into: "general_dev", method: .fastForward, in: superproject)
    }

    /// The `branch` kind: a resolved tenant's proposal carries the trailer; squashed by the forge, `roll --land`
    /// recognises it and pins what landed, and the next general change to the lines the squash brought rolls cleanly
    /// (the virtual base), where git's own merge of it conflicts.
    @Test(.tags(.slow), .notInTheFastSet)
    func aSquashedResolutionIsRecognisedAndTheSameLinesRollCleanlyNext() throws {
        let fixture = try Self.example(nil)
        let (sandbox, example, forge) = (fixture.sandbox, fixture.example, fixture.forge)
        let (infrastructure, superproject) = (fixture.infrastructure, fixture.superproject)
        let prefix = "refs/heads/\(ReviewOptions.defaultPrefix)/"
        _ = try ResolveReviewTests.resolve(sandbox, example, content: ExampleScenario.conflictResolution.content)
        let proposal = try sandbox.git(["rev-parse", prefix + "t2"], in: infrastructure)
        let message = try sandbox.git(["log", "-1", "--format=%B", proposal], in: infrastructure)
        let general = try sandbox.git(["rev-parse", "general_dev"], in: infrastructure)
        #expect(message.range(of: Self.trailer(rolling: general), options: .regularExpression) != nil, "\(message)")
        #expect(Self.changeId(message) == nil, "a Change-Id only for Gerrit: \(message)")

        let landed = try forge.land(prefix + "t2", into: "t2", method: .squash, in: infrastructure)
        let land = sandbox.tenantctl(["roll", "--land", "--json"], in: example.workspace)
        #expect(land.status == 75, "\(land.stdout)\(land.stderr)")
        let reviews = try ReviewRollTests.reviews(land.stdout)
        #expect(ReviewRollTests.review(reviews, "Infrastructure", "t2")?["method"] as? String == "squash", "\(reviews)")
        #expect(try sandbox.gitlinks(on: prefix + "t2", in: superproject)["Modules/Infrastructure"] == landed)
        try forge.land(prefix + "t2", into: "t2", method: .squash, in: superproject)
        let done = sandbox.tenantctl(["roll", "--land", "--json"], in: example.workspace)
        #expect(done.status == 0, "\(done.stdout)\(done.stderr)")

        // A new general change to the lines the squash brought (the start screen's tile border); git's own merge of it
        // into t2 conflicts, the positive control (t2 does not contain the squashed commits).
        let newGeneral = try fixture.changeTheSameLines()
        let next = sandbox.tenantctl(["roll", "--review", "--json"], in: example.workspace)
        #expect(next.status == 75, "\(next.stdout)\(next.stderr)")
        #expect(try ReviewRollTests.tenants(next.stdout)["t2"]?["status"] as? String == "waiting", "\(next.stdout)")
        let rolled = try sandbox.git(["rev-parse", prefix + "t2"], in: infrastructure)
        #expect(try sandbox.git(["log", "-1", "--format=%P", rolled], in: infrastructure) == "\(landed) \(newGeneral)")
        let strings = try sandbox.git(["show", "\(rolled):Strings.csv"], in: infrastructure)
        #expect(strings.contains("Ihre Daten werden geladen"), "the resolution stays: \(strings)")
        try ReviewRollTests.expectNoUnlandedPin(sandbox, example)
    }
}
