import Foundation
import TenantExample
import TenantKit
import TenantTestSupport
import Testing

/// The `review` object of modules.json says how `roll --review` proposes, without flags; each forge kind's proposal
/// arrives at a forge emulated with hooks as that forge expects it, and nothing reaches a protected branch.
@Suite struct ReviewForgeKindsTests {
    static let repositories = ["Infrastructure", "Article", "Customer", "Order", ExampleBuilder.superprojectName]

    /// Pushes a `modules.json` with `review` (a JSON object, or nil for none) and `moduleReview` (module name →
    /// JSON object) to the superproject's general branch, as a maintainer would, and (`checkOut`) pulls it into the
    /// example's workspace: tenantctl takes review settings only from the checked-out `modules.json`.
    static func configure(
        _ sandbox: GitSandbox, _ example: ExampleResult, review: String?, moduleReview: [String: String] = [:],
        checkOut: Bool = true
    ) throws {
        let name = "config-\(UUID().uuidString.prefix(6))"
        let superproject = example.remotes + "/" + ExampleBuilder.superprojectName + ".git"
        try sandbox.git(["clone", "-q", "--branch", "general_dev", superproject, sandbox.path(name)])
        var text = try String(contentsOfFile: sandbox.path(name + "/modules.json"), encoding: .utf8)
        if let review {
            let anchor = try #require(text.range(of: "\"generalBranch\""), "\(text)")
            text.insert(contentsOf: "\"review\": \(review),\n  ", at: anchor.lowerBound)
        }
        for (module, object) in moduleReview {
            let anchor = try #require(text.range(of: "\"name\": \"\(module)\""), "\(text)")
            text.insert(contentsOf: "\"review\": \(object),\n      ", at: anchor.lowerBound)
        }
        try sandbox.commit(in: name, file: "modules.json", content: text, message: "review settings")
        try sandbox.git(["push", "-q", "origin", "general_dev"], in: sandbox.path(name))
        if checkOut { try sandbox.git(["pull", "-q", "--ff-only", "origin", "general_dev"], in: example.workspace) }
    }

    /// Every protected branch's value in every repository of the example.
    static func protectedBranches(_ sandbox: GitSandbox, _ example: ExampleResult) throws -> [String: String] {
        var values: [String: String] = [:]
        for name in repositories {
            for (branch, value) in try sandbox.branches(example.remotes + "/\(name).git")
            where ["t1", "t2", "t3", "general_dev"].contains(branch) {
                values[name + " " + branch] = value
            }
        }
        return values
    }

    @Test func aReviewObjectWithProblemsIsRefusedNamingTheFileAndField() throws {
        let (sandbox, example, _) = try ReviewRollTests.example()
        try Self.configure(
            sandbox, example, review: #"{"forge": "github", "branchPrefix": "/x", "create": ["gh", "{nope}"]}"#,
            moduleReview: ["Order": #"{"forje": "agit"}"#])
        let result = sandbox.tenantctl(["roll", "--review", "--dry-run"], in: example.workspace)
        #expect(result.status != 0 && result.status != 75, "\(result.stdout)\(result.stderr)")
        for expected in [
            "modules.json", "review.forge: unknown forge kind \"github\": branch, agit, gitlab, gerrit",
            "review.branchPrefix: invalid branch prefix \"/x\"", "review.create: unknown placeholder {nope}",
            "unknown key \"forje\" (did you mean \"forge\"?)",
        ] {
            #expect(result.stderr.contains(expected), "\(expected): \(result.stderr)")
        }

        // Positive control: a valid object is taken, and roll --review needs no flag: its prefix is used.
        let (other, valid, _) = try ReviewRollTests.example()
        try Self.configure(other, valid, review: #"{"forge": "branch", "branchPrefix": "review/roll"}"#)
        let proposed = other.tenantctl(["roll", "--review", "--json"], in: valid.workspace)
        #expect(proposed.status == 75, "\(proposed.stdout)\(proposed.stderr)")
        let branches = try other.branches(valid.remotes + "/Infrastructure.git")
        #expect(branches["review/roll/t2"] != nil, "\(branches.keys.sorted())")
        #expect(branches[ReviewOptions.defaultPrefix + "/t2"] == nil)
    }

    /// Each kind, configured in modules.json (GitLab with Order overridden to AGit): what each forge received is
    /// the push it expects, a review is opened for each proposal, nothing is pushed to a protected branch, and a
    /// re-run updates the open review instead of opening another one.
    @Test(.tags(.slow), .notInTheFastSet, arguments: ["agit", "gitlab", "gerrit"])
    func eachForgeKindProposesAsItsForgeExpects(_ kind: String) throws {
        let (sandbox, example, forge) = try ReviewRollTests.example()
        let override = kind == "gitlab" ? ["Order": #"{"forge": "agit"}"#] : [:]
        try Self.configure(sandbox, example, review: "{\"forge\": \"\(kind)\"}", moduleReview: override)
        for name in Self.repositories {
            let bare = example.remotes + "/\(name).git"
            let served = name == "Order" && kind == "gitlab" ? "agit" : kind
            try forge.serve(try #require(EmulatedForge.Kind(rawValue: served)), in: bare)
            try forge.protect(["t1", "t2", "t3", "general_dev"], in: bare)
        }
        let protected = try Self.protectedBranches(sandbox, example)

        let proposed = sandbox.tenantctl(["roll", "--review", "--json"], in: example.workspace)
        #expect(proposed.status == 75, "\(proposed.stdout)\(proposed.stderr)")
        #expect(try ReviewRollTests.violations(proposed.stdout, schema: "roll").isEmpty)
        let reviews = try ReviewRollTests.reviews(proposed.stdout)
        let infrastructure = example.remotes + "/Infrastructure.git"
        let proposal = try #require(ReviewRollTests.review(reviews, "Infrastructure", "t2"), "\(reviews)")
        #expect(proposal["state"] as? String == "open", "\(proposal)")
        let commit = try #require(proposal["proposed"] as? String)
        let received = try #require(try forge.received(in: infrastructure).last, "Infrastructure received nothing")
        let subject = try sandbox.git(["log", "-1", "--format=%s", commit], in: infrastructure)
        switch kind {
        case "agit":
            #expect(received.ref == "refs/for/t2", "\(received)")
            #expect(received.options == ["topic=tenantctl-roll-t2", "title=\(subject)"], "\(received)")
        case "gitlab":
            #expect(received.ref == "refs/heads/\(ReviewOptions.defaultPrefix)/t2", "\(received)")
            #expect(
                received.options == [
                    "merge_request.create", "merge_request.target=t2", "merge_request.title=\(subject)",
                ], "\(received)")
            let order = try #require(try forge.received(in: example.remotes + "/Order.git").last)
            #expect(order.ref == "refs/for/t3" && order.options.first == "topic=tenantctl-roll-t3", "\(order)")
        default:
            #expect(received.ref == "refs/for/t2%topic=tenantctl-roll-t2" && received.options.isEmpty, "\(received)")
            let message = try sandbox.git(["log", "-1", "--format=%B", commit], in: infrastructure)
            #expect(message.range(of: #"\nChange-Id: I[0-9a-f]{40}"#, options: .regularExpression) != nil, "\(message)")
        }
        #expect(received.new == commit)
        let opened = try forge.reviews(in: infrastructure)
        #expect(opened.count == 1 && opened.first?.target == "t2" && opened.first?.commit == commit, "\(opened)")
        let superproject = try forge.reviews(in: example.remotes + "/Superproject.git")
        #expect(superproject.contains { $0.target == "general_dev" }, "the re-pin is proposed: \(superproject)")
        #expect(try Self.protectedBranches(sandbox, example) == protected, "nothing reached a protected branch")
        for name in Self.repositories {
            let refs = try sandbox.refs(example.remotes + "/\(name).git").keys
            #expect(refs.allSatisfy { !$0.hasPrefix("refs/for/") }, "\(name): \(refs.sorted())")
        }
        try ReviewRollTests.expectNoUnlandedPin(sandbox, example)

        // A re-run updates the open review (same number) instead of opening a second one.
        let again = sandbox.tenantctl(["roll", "--review", "--json"], in: example.workspace)
        #expect(again.status == 75, "\(again.stdout)\(again.stderr)")
        let reopened = try forge.reviews(in: infrastructure)
        #expect(reopened.map(\.number) == opened.map(\.number), "\(reopened)")
        #expect(try Self.protectedBranches(sandbox, example) == protected)

        // The forge lands the review; --land recognises it (a review namespace is never taken as closed).
        let open = try #require(reopened.first)
        try forge.land(open.ref, into: "t2", method: .squash, in: infrastructure)
        let land = sandbox.tenantctl(["roll", "--land", "--json"], in: example.workspace)
        #expect(land.status == 75, "\(land.stdout)\(land.stderr)")
        let landed = try ReviewRollTests.reviews(land.stdout)
        #expect(ReviewRollTests.review(landed, "Infrastructure", "t2")?["state"] as? String == "landed", "\(landed)")
        #expect(ReviewRollTests.review(landed, "Order", "t3")?["state"] as? String == "open", "\(landed)")
    }

    /// `--forge` overrides modules.json for one run: the light end-to-end case of a forge kind in the fast set.
    @Test func theForgeFlagOverridesTheReviewObject() throws {
        let (sandbox, example, forge) = try ReviewRollTests.example()
        try Self.configure(sandbox, example, review: #"{"forge": "gerrit"}"#)
        let infrastructure = example.remotes + "/Infrastructure.git"
        for name in ["Infrastructure", ExampleBuilder.superprojectName] {
            try forge.serve(.agit, in: example.remotes + "/\(name).git")
            try forge.protect(["t2", "general_dev"], in: example.remotes + "/\(name).git")
        }
        let result = sandbox.tenantctl(
            ["roll", "--review", "--forge", "agit", "--tenant", "t2", "--json"], in: example.workspace)
        #expect(result.status == 75, "\(result.stdout)\(result.stderr)")
        let received = try forge.received(in: infrastructure)
        #expect(received.map(\.ref) == ["refs/for/t2"], "\(received)")
        #expect(try forge.reviews(in: infrastructure).first?.ref == "refs/pull/1/head")
        // The address the forge printed in its answer to the push is the review's.
        let review = ReviewRollTests.review(try ReviewRollTests.reviews(result.stdout), "Infrastructure", "t2")
        #expect(review?["url"] as? String == "https://forge.invalid/Infrastructure/pulls/1", "\(review ?? [:])")
    }
}
