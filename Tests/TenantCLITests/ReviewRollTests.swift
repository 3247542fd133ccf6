import Foundation
import TenantExample
import TenantKit
import TenantTestSupport
import Testing

/// Protected tenant branches on a forge emulated with git hooks: plain roll names `roll --review` for the tenants it
/// cannot push and rolls the others.
@Suite struct ReviewRollTests {
    /// The example after the general updates (Infrastructure `t2` and Order `t3` need a merge, t1 none).
    static func example() throws -> (GitSandbox, ExampleResult, EmulatedForge) {
        let sandbox = try GitSandbox()
        let example = try ExampleBuilder(git: try sandbox.gitRunner()).build(
            in: sandbox.path("erp"), stage: .afterUpdates)
        return (sandbox, example, EmulatedForge(sandbox: sandbox))
    }

    /// `tenantctl … --json`, its tenants by id.
    static func tenants(_ stdout: String) throws -> [String: [String: Any]] {
        let report = try #require(try JSONSerialization.jsonObject(with: Data(stdout.utf8)) as? [String: Any])
        return (report["tenants"] as? [[String: Any]] ?? []).reduce(into: [:]) { $0[$1["id"] as? String ?? ""] = $1 }
    }

    @Test func plainRollNamesTheReviewForProtectedTenantsAndRollsTheOthers() throws {
        let (sandbox, example, forge) = try Self.example()
        let superproject = example.remotes + "/" + ExampleBuilder.superprojectName + ".git"
        // t2 is protected everywhere; t3 only in the superproject (its Order merge is pushed, its pin is not).
        try forge.protect(["t2"], in: example.remotes + "/Infrastructure.git")
        try forge.protect(["t2", "t3"], in: superproject)
        let before = try sandbox.branches(superproject)
        let infrastructure = try sandbox.branches(example.remotes + "/Infrastructure.git")

        let result = sandbox.tenantctl(["roll", "--json"], in: example.workspace)
        #expect(result.status == 2, "\(result.stdout)\(result.stderr)")
        let tenants = try Self.tenants(result.stdout)
        #expect(try Self.violations(result.stdout, schema: "roll").isEmpty)
        for id in ["t2", "t3"] {
            #expect(tenants[id]?["status"] as? String == "rejected", "\(id): \(tenants[id] ?? [:])")
            #expect(tenants[id]?["protected"] as? Bool == true, "\(id): \(tenants[id] ?? [:])")
            #expect(tenants[id]?["next"] as? String == "tenantctl roll --review", "\(id): \(tenants[id] ?? [:])")
        }
        #expect(tenants["t1"]?["status"] as? String == "rolled", "positive control: t1 rolls")
        let after = try sandbox.branches(superproject)
        #expect(after["t2"] == before["t2"] && after["t3"] == before["t3"], "protected branches unchanged")
        #expect(after["t1"] != before["t1"] && after["general_dev"] != before["general_dev"])
        #expect(try sandbox.branches(example.remotes + "/Infrastructure.git")["t2"] == infrastructure["t2"])

        let text = sandbox.tenantctl(["roll"], in: example.workspace)
        #expect(text.status == 2)
        #expect(text.stdout.contains("rejected (protected)"), "\(text.stdout)")
        #expect(text.stdout.contains("t2: tenantctl roll --review"), "\(text.stdout)")

        // An unknown forge kind is a usage error that names the kinds.
        let unknown = sandbox.tenantctl(["roll", "--review", "--forge", "github"], in: example.workspace)
        #expect(unknown.status == 64 && unknown.stderr.contains("branch, agit, gitlab, gerrit"), "\(unknown.stderr)")
        #expect(sandbox.tenantctl(["roll", "--land", "--tenant", "t1"], in: example.workspace).status == 64)
        #expect(sandbox.tenantctl(["roll", "--review", "--undo", "x"], in: example.workspace).status == 64)
    }

    /// The problems of `json` against `docs/schemas/<name>.schema.json`.
    static func violations(_ json: String, schema name: String) throws -> [String] {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        return try JSONSchemaCheck(contentsOf: root.appendingPathComponent("docs/schemas/\(name).schema.json").path)
            .violations(of: json)
    }

    /// The reviews of a `--json` report (`roll --review` or `roll --land`).
    static func reviews(_ stdout: String) throws -> [[String: Any]] {
        let report = try #require(try JSONSerialization.jsonObject(with: Data(stdout.utf8)) as? [String: Any])
        return report["reviews"] as? [[String: Any]] ?? []
    }

    /// The review of `repository` for `target` in `reviews`.
    static func review(_ reviews: [[String: Any]], _ repository: String, _ target: String) -> [String: Any]? {
        reviews.first { $0["repository"] as? String == repository && $0["target"] as? String == target }
    }

    /// Every gitlink of every superproject branch (proposal branches too) is on a branch of its module's remote
    /// that is not a proposal branch: the superproject never pins an unlanded commit.
    static func expectNoUnlandedPin(_ sandbox: GitSandbox, _ example: ExampleResult) throws {
        let superproject = example.remotes + "/" + ExampleBuilder.superprojectName + ".git"
        let modules = try sandbox.git(
            ["config", "--blob", "general_dev:.gitmodules", "--get-regexp", "path"], in: superproject
        )
        .split(separator: "\n").map { $0.split(separator: " ") }
        .reduce(into: [String: String]()) {
            $0[String($1[1])] = String($1[0].dropFirst("submodule.".count).dropLast(".path".count))
        }
        for (branch, _) in try sandbox.branches(superproject) {
            for (path, pin) in try sandbox.gitlinks(on: branch, in: superproject) {
                guard let name = modules[path] else { continue }
                let holders = try sandbox.git(
                    ["branch", "--format=%(refname:short)", "--contains", pin], in: example.remotes + "/\(name).git"
                ).split(separator: "\n").filter { !$0.hasPrefix(ReviewOptions.defaultPrefix + "/") }
                #expect(!holders.isEmpty, "\(branch) pins \(path) at \(pin), on no module branch")
            }
        }
    }

    @Test(.tags(.slow), .notInTheFastSet)
    func reviewProposesLandsAndPinsOnlyWhatLanded() throws {
        let (sandbox, example, forge) = try Self.example()
        let superproject = example.remotes + "/" + ExampleBuilder.superprojectName + ".git"
        let infrastructure = example.remotes + "/Infrastructure.git"
        let order = example.remotes + "/Order.git"
        for bare in [
            superproject, infrastructure, order, example.remotes + "/Article.git", example.remotes + "/Customer.git",
        ] {
            try forge.protect(["t1", "t2", "t3"], in: bare)
        }
        let tenantsBefore = try sandbox.branches(superproject).filter { ["t1", "t2", "t3"].contains($0.key) }

        // Propose: the module merges and general_dev's re-pin on proposal branches; the tenants' superproject
        // proposals wait for them (t2 and t3 for their module proposals, every tenant for the re-pin).
        let proposed = sandbox.tenantctl(["roll", "--review", "--json"], in: example.workspace)
        #expect(proposed.status == 75, "\(proposed.stdout)\(proposed.stderr)")
        let reviews = try Self.reviews(proposed.stdout)
        #expect(try Self.violations(proposed.stdout, schema: "roll").isEmpty)
        #expect(Self.review(reviews, "Infrastructure", "t2")?["state"] as? String == "open", "\(reviews)")
        #expect(Self.review(reviews, "Order", "t3")?["state"] as? String == "open", "\(reviews)")
        #expect(Self.review(reviews, "superproject", "general_dev")?["state"] as? String == "open", "\(reviews)")
        #expect(Self.review(reviews, "superproject", "t1")?["state"] as? String == "waiting", "\(reviews)")
        #expect(Self.review(reviews, "superproject", "t2")?["state"] as? String == "waiting", "\(reviews)")
        let proposal = "refs/heads/\(ReviewOptions.defaultPrefix)/t2"
        let infrastructureProposal = try sandbox.git(["rev-parse", proposal], in: infrastructure)
        #expect(Self.review(reviews, "Infrastructure", "t2")?["proposed"] as? String == infrastructureProposal)
        let runId = try #require(
            (try JSONSerialization.jsonObject(with: Data(proposed.stdout.utf8)) as? [String: Any])?["runId"] as? String)
        let message = try sandbox.git(["log", "-1", "--format=%B", infrastructureProposal], in: infrastructure)
        #expect(message.contains("\n\nRolled-by: tenantctl \(runId) general_dev "), "\(message)")
        #expect(try sandbox.gitResult(["rev-parse", "--verify", proposal], in: superproject).status != 0, "t2 waits")
        #expect(try sandbox.branches(superproject).filter { ["t1", "t2", "t3"].contains($0.key) } == tenantsBefore)
        try Self.expectNoUnlandedPin(sandbox, example)
        // The run waits for the reviews.
        #expect(try sandbox.lastRun("roll", in: example.workspace)["state"] as? String == "waiting")
        let status = sandbox.tenantctl(["status"], in: example.workspace)
        #expect(status.stderr.contains("review roll \(runId) is waiting: 3 open proposals"), "\(status.stderr)")

        // A re-run adopts what is open: no new commit, no second proposal.
        let again = sandbox.tenantctl(["roll", "--review", "--json"], in: example.workspace)
        #expect(again.status == 75, "\(again.stdout)\(again.stderr)")
        #expect(try sandbox.git(["rev-parse", proposal], in: infrastructure) == infrastructureProposal)
        #expect(
            Self.review(try Self.reviews(again.stdout), "Infrastructure", "t2")?["proposed"] as? String
                == infrastructureProposal)

        // A new general change of Infrastructure updates its open proposal in place: still one proposal branch,
        // now merging the new general tip.
        let developer = sandbox.path("infrastructure-clone")
        try sandbox.git(["clone", "-q", "--branch", "general_dev", infrastructure, developer])
        let newGeneral = try sandbox.commit(
            in: "infrastructure-clone", file: "NewGeneralChange.txt", content: "new\n", message: "a new general change")
        try sandbox.git(["push", "-q", "origin", "general_dev"], in: developer)
        let updated = sandbox.tenantctl(["roll", "--review", "--json"], in: example.workspace)
        #expect(updated.status == 75, "\(updated.stdout)\(updated.stderr)")
        let updatedProposal = try sandbox.git(["rev-parse", proposal], in: infrastructure)
        #expect(updatedProposal != infrastructureProposal)
        #expect(try sandbox.git(["rev-parse", updatedProposal + "^2"], in: infrastructure) == newGeneral)
        let proposalBranches = try sandbox.branches(infrastructure).keys.filter {
            $0.hasPrefix(ReviewOptions.defaultPrefix + "/")
        }
        #expect(proposalBranches == [ReviewOptions.defaultPrefix + "/t2"], "one proposal: \(proposalBranches)")
        try Self.expectNoUnlandedPin(sandbox, example)

        // The forge lands the module proposals, by merge commit and by fast-forward, and general_dev's re-pin.
        let landedInfrastructure = try forge.land(proposal, into: "t2", method: .merge, in: infrastructure)
        try forge.land("refs/heads/\(ReviewOptions.defaultPrefix)/t3", into: "t3", method: .fastForward, in: order)
        try forge.land(
            "refs/heads/\(ReviewOptions.defaultPrefix)/general_dev", into: "general_dev", method: .merge,
            in: superproject)
        let land = sandbox.tenantctl(["roll", "--land", "--json"], in: example.workspace)
        #expect(land.status == 75, "superproject proposals now open: \(land.stdout)\(land.stderr)")
        let landed = try Self.reviews(land.stdout)
        #expect(try Self.violations(land.stdout, schema: "roll-land").isEmpty)
        #expect(Self.review(landed, "Infrastructure", "t2")?["method"] as? String == "merge", "\(landed)")
        #expect(Self.review(landed, "Infrastructure", "t2")?["landed"] as? String == landedInfrastructure)
        #expect(Self.review(landed, "Order", "t3")?["method"] as? String == "fast-forward", "\(landed)")
        #expect(Self.review(landed, "superproject", "t2")?["state"] as? String == "open", "\(landed)")
        let pins = try sandbox.gitlinks(on: "\(ReviewOptions.defaultPrefix)/t2", in: superproject)
        #expect(pins["Modules/Infrastructure"] == landedInfrastructure, "the pin of what landed: \(pins)")
        try Self.expectNoUnlandedPin(sandbox, example)

        // The forge lands the superproject proposals; the next --land finds everything landed.
        for branch in ["t1", "t2", "t3"] {
            let ref = "refs/heads/\(ReviewOptions.defaultPrefix)/\(branch)"
            guard try sandbox.gitResult(["rev-parse", "--verify", ref], in: superproject).status == 0 else { continue }
            try forge.land(ref, into: branch, method: .merge, in: superproject)
        }
        let done = sandbox.tenantctl(["roll", "--land", "--json"], in: example.workspace)
        #expect(done.status == 0, "\(done.stdout)\(done.stderr)")
        #expect(try sandbox.lastRun("roll", in: example.workspace)["state"] as? String == "finished")
        try Self.expectNoUnlandedPin(sandbox, example)
        let after = sandbox.tenantctl(["roll", "--dry-run", "--json"], in: example.workspace)
        for (id, tenant) in try Self.tenants(after.stdout) {
            #expect(tenant["status"] as? String == "up-to-date", "\(id) rolled completely: \(tenant)")
        }
    }

    @Test(.tags(.slow), .notInTheFastSet)
    func abandonRemovesOnlyTheProposalBranchesTenantctlLeftAsTheyWere() throws {
        let (sandbox, example, _) = try Self.example()
        let superproject = example.remotes + "/" + ExampleBuilder.superprojectName + ".git"
        let proposed = sandbox.tenantctl(["roll", "--review", "--json"], in: example.workspace)
        #expect(proposed.status == 75, "\(proposed.stdout)\(proposed.stderr)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(proposed.stdout.utf8)) as? [String: Any])
        let runId = try #require(report["runId"] as? String)
        let prefix = "refs/heads/\(ReviewOptions.defaultPrefix)/"
        // Someone adds a commit to Order's proposal: it is theirs now, and stays.
        let clone = sandbox.path("order-clone")
        try sandbox.git([
            "clone", "-q", "--branch", ReviewOptions.defaultPrefix + "/t3", example.remotes + "/Order.git", clone,
        ])
        try sandbox.commit(in: "order-clone", file: "review-fix", content: "x\n", message: "review fix")
        try sandbox.git(["push", "-q", "origin", "HEAD"], in: clone)
        let moved = try sandbox.git(["rev-parse", prefix + "t3"], in: example.remotes + "/Order.git")

        let abandon = sandbox.tenantctl(["roll", "--abandon", runId, "--json"], in: example.workspace)
        #expect(abandon.status == 0, "\(abandon.stdout)\(abandon.stderr)")
        #expect(try Self.violations(abandon.stdout, schema: "roll-land").isEmpty)
        for (bare, branch) in [(example.remotes + "/Infrastructure.git", "t2"), (superproject, "general_dev")] {
            #expect(
                try sandbox.gitResult(["rev-parse", "--verify", prefix + branch], in: bare).status != 0,
                "\(bare) \(branch)")
        }
        #expect(try sandbox.git(["rev-parse", prefix + "t3"], in: example.remotes + "/Order.git") == moved)
        #expect(abandon.stderr.contains("Order"), "the branch that stays is named: \(abandon.stderr)")
    }

    /// The merges are plan roll's, all or nothing per tenant: a conflicting tenant proposes nothing anywhere and
    /// names its resolve for review, the others are proposed.
    @Test(.tags(.slow), .notInTheFastSet)
    func aConflictingTenantProposesNothing() throws {
        let sandbox = try GitSandbox()
        let example = try ExampleBuilder(git: try sandbox.gitRunner()).build(in: sandbox.path("erp"), stage: .conflict)
        let result = sandbox.tenantctl(["roll", "--review", "--json"], in: example.workspace)
        #expect(result.status == 2, "\(result.stdout)\(result.stderr)")
        let tenants = try Self.tenants(result.stdout)
        #expect(tenants["t2"]?["status"] as? String == "conflict", "\(tenants["t2"] ?? [:])")
        #expect(tenants["t2"]?["next"] as? String == "tenantctl resolve t2 --review")
        let reviews = try Self.reviews(result.stdout)
        #expect(!reviews.contains { $0["tenant"] as? String == "t2" }, "\(reviews)")
        #expect(reviews.contains { $0["tenant"] as? String == "t3" }, "positive control: t3 is proposed: \(reviews)")
        for name in ["Infrastructure", "Article", "Customer", "Order", ExampleBuilder.superprojectName] {
            let branches = try sandbox.branches(example.remotes + "/\(name).git")
            #expect(branches[ReviewOptions.defaultPrefix + "/t2"] == nil, "\(name): \(branches.keys.sorted())")
        }
    }
}
