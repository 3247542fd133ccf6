import Foundation
import TenantExample
import TenantKit
import TenantTestSupport
import Testing

/// A review roll on the example, its proposals landed by the emulated forge's merge button by each method a forge
/// offers: `roll --land` recognises the method, pins what landed (never a proposed commit) and finishes; after a
/// squash or rebase the next roll of a general change to the same lines merges cleanly (the virtual base), where a
/// plain `git merge` of the same commits conflicts.
@Suite struct ReviewLandingMethodTests {
    /// The lines of Infrastructure's general change of the example (the start screen's tile border), changed again.
    static let sameLines = (
        file: "Sources/Infrastructure/StartScreenViewController.swift",
        content: """
        final class StartScreenViewController: ViewController {
            // Loads the classes named in ActiveModules, drops modules with missing dependencies.
            var moduleTiles: [ModuleTile] = []
            let tileBorder = Border(width: 4, colour: .secondaryAccent, cornerRadius: 16)
        }

        """
    )

    /// No ref of the superproject's remote pins a module commit that is only on a proposal branch.
    static func expectEveryPinLanded(
        _ sandbox: GitSandbox, _ example: ExampleResult, after step: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let superproject = example.remotes + "/" + ExampleBuilder.superprojectName + ".git"
        let unlanded = try sandbox.unlandedPins(superproject: superproject, proposalPrefix: ReviewOptions.defaultPrefix)
        #expect(unlanded.isEmpty, "after \(step): \(unlanded)", sourceLocation: sourceLocation)
    }

    /// The tenants' superproject proposals are made of merge commits of `general_dev`: a forge replays their general
    /// commits onto a tenant branch that pins other module commits, which conflicts; what the test rebases are the
    /// module proposals and the general branch's re-pin, and it squashes the tenants' superproject proposals.
    static func superprojectMethod(_ method: EmulatedForge.Method) -> EmulatedForge.Method {
        method == .rebase ? .squash : method
    }

    @Test(.tags(.slow), .notInTheFastSet, arguments: EmulatedForge.Method.allCases)
    func landedByEveryMethodThenTheSameLinesRollCleanly(method: EmulatedForge.Method) throws {
        let (sandbox, example, forge) = try ReviewRollTests.example()
        let superproject = example.remotes + "/" + ExampleBuilder.superprojectName + ".git"
        let infrastructure = example.remotes + "/Infrastructure.git"
        let order = example.remotes + "/Order.git"
        let prefix = "refs/heads/\(ReviewOptions.defaultPrefix)/"
        // A general change of the superproject's own files, which the tenants' superproject proposals bring.
        let superprojectDeveloper = sandbox.path("superproject-clone")
        try sandbox.git(["clone", "-q", "--branch", "general_dev", superproject, superprojectDeveloper])
        try sandbox.commit(in: "superproject-clone", file: "Release.txt", content: "release 1\n", message: "Release 1")
        try sandbox.git(["push", "-q", "origin", "general_dev"], in: superprojectDeveloper)
        for name in ["Infrastructure", "Article", "Customer", "Order"] {
            try forge.protect(["t1", "t2", "t3"], in: example.remotes + "/\(name).git")
        }
        try forge.protect(["t1", "t2", "t3", "general_dev"], in: superproject)
        let proposed = sandbox.tenantctl(["roll", "--review", "--json"], in: example.workspace)
        #expect(proposed.status == 75, "\(proposed.stdout)\(proposed.stderr)")
        try Self.expectEveryPinLanded(sandbox, example, after: "roll --review")

        // The forge lands the module proposals and general_dev's re-pin by `method`.
        let landedInfrastructure = try forge.land(prefix + "t2", into: "t2", method: method, in: infrastructure)
        let landedOrder = try forge.land(prefix + "t3", into: "t3", method: method, in: order)
        try forge.land(prefix + "general_dev", into: "general_dev", method: method, in: superproject)
        try Self.expectEveryPinLanded(sandbox, example, after: "the module proposals landed")
        let land = sandbox.tenantctl(["roll", "--land", "--json"], in: example.workspace)
        #expect(land.status == 75, "the superproject proposals are open: \(land.stdout)\(land.stderr)")
        let landed = try ReviewRollTests.reviews(land.stdout)
        #expect(ReviewRollTests.review(landed, "Infrastructure", "t2")?["method"] as? String == method.rawValue)
        #expect(ReviewRollTests.review(landed, "Infrastructure", "t2")?["landed"] as? String == landedInfrastructure)
        #expect(ReviewRollTests.review(landed, "Order", "t3")?["method"] as? String == method.rawValue)
        #expect(ReviewRollTests.review(landed, "superproject", "general_dev")?["method"] as? String == method.rawValue)
        for tenant in ["t1", "t2", "t3"] {
            #expect(
                ReviewRollTests.review(landed, "superproject", tenant)?["state"] as? String == "open",
                "\(tenant) is proposed once what it needs landed: \(landed)")
        }
        // Pinned: what landed, not what was proposed (a squash or rebase landed other commits).
        let pins = try sandbox.gitlinks(on: prefix + "t2", in: superproject)
        #expect(pins["Modules/Infrastructure"] == landedInfrastructure, "\(pins)")
        #expect(try sandbox.gitlinks(on: prefix + "t3", in: superproject)["Modules/Order"] == landedOrder)
        try Self.expectEveryPinLanded(sandbox, example, after: "roll --land proposed the superproject")

        for tenant in ["t1", "t2", "t3"] {
            try forge.land(prefix + tenant, into: tenant, method: Self.superprojectMethod(method), in: superproject)
        }
        try Self.expectEveryPinLanded(sandbox, example, after: "the superproject proposals landed")
        let done = sandbox.tenantctl(["roll", "--land", "--json"], in: example.workspace)
        #expect(done.status == 0, "\(done.stdout)\(done.stderr)")
        let after = sandbox.tenantctl(["roll", "--dry-run", "--json"], in: example.workspace)
        for (id, tenant) in try ReviewRollTests.tenants(after.stdout) {
            #expect(tenant["status"] as? String == "up-to-date", "\(id) rolled completely: \(tenant)")
        }

        // A new general change of the superproject to the line the landed one changed, landed by the forge.
        try sandbox.git(["pull", "-q", "--no-rebase", "origin", "general_dev"], in: superprojectDeveloper)
        try sandbox.commit(in: "superproject-clone", file: "Release.txt", content: "release 2\n", message: "Release 2")
        try sandbox.git(["push", "-q", "origin", "HEAD:refs/heads/release-2"], in: superprojectDeveloper)
        try forge.land("refs/heads/release-2", into: "general_dev", method: .fastForward, in: superproject)
        // Positive control: git's own merge of it into a tenant's superproject branch conflicts after a squash.
        try sandbox.git(["fetch", "-q", "origin"], in: superprojectDeveloper)
        try sandbox.git(["checkout", "-q", "-B", "t1", "origin/t1"], in: superprojectDeveloper)
        let naiveSuperproject = try sandbox.gitResult(
            ["merge", "--no-edit", "origin/general_dev"], in: superprojectDeveloper)
        let squashedSuperproject = Self.superprojectMethod(method) == .squash
        #expect(
            (naiveSuperproject.status != 0) == squashedSuperproject,
            "plain git merge: \(naiveSuperproject.stdout)\(naiveSuperproject.stderr)")
        if squashedSuperproject { #expect(naiveSuperproject.stdout.contains("Release.txt")) }

        // A new general change of Infrastructure to the lines the landed one changed.
        let developer = sandbox.path("infrastructure-clone")
        try sandbox.git(["clone", "-q", "--branch", "general_dev", infrastructure, developer])
        let newGeneral = try sandbox.commit(
            in: "infrastructure-clone", file: Self.sameLines.file, content: Self.sameLines.content,
            message: "Start screen: wider tile borders")
        try sandbox.git(["push", "-q", "origin", "general_dev"], in: developer)
        // Positive control: git's own merge of the same commits conflicts after a squash or rebase (the tenant
        // branch does not contain the general commit it landed), and merges cleanly after a merge or fast-forward.
        try sandbox.git(["checkout", "-q", "-B", "t2", "origin/t2"], in: developer)
        let naive = try sandbox.gitResult(["merge", "--no-edit", newGeneral], in: developer)
        let squashedOrRebased = method == .squash || method == .rebase
        #expect((naive.status != 0) == squashedOrRebased, "plain git merge: \(naive.stdout)\(naive.stderr)")

        let dryRun = sandbox.tenantctl(["roll", "--dry-run", "--json"], in: example.workspace)
        for (id, tenant) in try ReviewRollTests.tenants(dryRun.stdout) {
            #expect(tenant["status"] as? String == "would-roll", "\(id) merges cleanly: \(tenant)")
        }
        let next = sandbox.tenantctl(["roll", "--review", "--json"], in: example.workspace)
        #expect(next.status == 75, "\(next.stdout)\(next.stderr)")
        for (id, tenant) in try ReviewRollTests.tenants(next.stdout) {
            #expect(tenant["status"] as? String == "waiting", "\(id) waits for its proposals: \(tenant)")
        }
        let proposal = try sandbox.git(["rev-parse", prefix + "t2"], in: infrastructure)
        #expect(
            ReviewRollTests.review(try ReviewRollTests.reviews(next.stdout), "Infrastructure", "t2")?["proposed"]
                as? String == proposal)
        // The proposal merges the new general commit into the tenant branch as it landed (the virtual base is local:
        // its parents are the real ones).
        let parents = try sandbox.git(["log", "-1", "--format=%P", proposal], in: infrastructure)
        #expect(parents == "\(landedInfrastructure) \(newGeneral)", "\(parents)")
        let merged = try sandbox.git(["show", "\(proposal):\(Self.sameLines.file)"], in: infrastructure)
        #expect(merged.contains("width: 4"), "\(merged)")
        let strings = try sandbox.git(["show", "\(proposal):Strings.csv"], in: infrastructure)
        #expect(strings.contains("key,en,de"), "t2's own change stays: \(strings)")
        try Self.expectEveryPinLanded(sandbox, example, after: "the next roll --review")
    }

    /// With forges that keep reviews in a namespace of their own (`refs/pull/<n>/head`, `refs/changes/…`), the
    /// superproject's review refs too pin only what landed, after every step of a round squashed by the forge.
    @Test(.tags(.slow), .notInTheFastSet, arguments: [EmulatedForge.Kind.agit, .gerrit])
    func reviewRefsPinOnlyWhatLanded(kind: EmulatedForge.Kind) throws {
        let (sandbox, example, forge) = try ReviewRollTests.example()
        try ReviewForgeKindsTests.configure(sandbox, example, review: "{\"forge\": \"\(kind.rawValue)\"}")
        for name in ReviewForgeKindsTests.repositories {
            try forge.serve(kind, in: example.remotes + "/\(name).git")
            try forge.protect(["t1", "t2", "t3", "general_dev"], in: example.remotes + "/\(name).git")
        }
        let superproject = example.remotes + "/" + ExampleBuilder.superprojectName + ".git"
        /// The latest review the forge opened for `target` in `bare`.
        func review(_ target: String, in bare: String) throws -> EmulatedForge.Review {
            try #require(try forge.reviews(in: bare).last { $0.target == target }, "no review for \(target) in \(bare)")
        }
        let proposed = sandbox.tenantctl(["roll", "--review", "--json"], in: example.workspace)
        #expect(proposed.status == 75, "\(proposed.stdout)\(proposed.stderr)")
        try Self.expectEveryPinLanded(sandbox, example, after: "roll --review")

        let infrastructure = example.remotes + "/Infrastructure.git"
        let landed = try forge.land(
            try review("t2", in: infrastructure).ref, into: "t2", method: .squash, in: infrastructure)
        let order = example.remotes + "/Order.git"
        try forge.land(try review("t3", in: order).ref, into: "t3", method: .squash, in: order)
        try forge.land(
            try review("general_dev", in: superproject).ref, into: "general_dev", method: .squash, in: superproject)
        let land = sandbox.tenantctl(["roll", "--land", "--json"], in: example.workspace)
        #expect(land.status == 75, "\(land.stdout)\(land.stderr)")
        let t2 = try review("t2", in: superproject)
        #expect(try sandbox.gitlinks(on: t2.ref, in: superproject)["Modules/Infrastructure"] == landed, "\(t2)")
        try Self.expectEveryPinLanded(sandbox, example, after: "roll --land proposed the superproject")

        for tenant in ["t1", "t2", "t3"] {
            try forge.land(try review(tenant, in: superproject).ref, into: tenant, method: .squash, in: superproject)
        }
        let done = sandbox.tenantctl(["roll", "--land", "--json"], in: example.workspace)
        #expect(done.status == 0, "\(done.stdout)\(done.stderr)")
        try Self.expectEveryPinLanded(sandbox, example, after: "everything landed")
        let after = sandbox.tenantctl(["roll", "--dry-run", "--json"], in: example.workspace)
        for (id, tenant) in try ReviewRollTests.tenants(after.stdout) {
            #expect(tenant["status"] as? String == "up-to-date", "\(id) rolled completely: \(tenant)")
        }
    }

    /// The check itself finds a superproject ref that pins a commit which is only on a proposal branch.
    @Test func theUnlandedPinCheckFindsAPinOfAProposedCommit() throws {
        let sandbox = try GitSandbox()
        let remotes = sandbox.path("remotes")
        let module = remotes + "/Module.git"
        try sandbox.git(["init", "-q", "--bare", "-b", "main", module])
        try sandbox.makeRepository("module", files: ["a": "1\n"])
        let landed = try sandbox.git(["rev-parse", "HEAD"], in: sandbox.path("module"))
        let proposed = try sandbox.commit(in: "module", file: "a", content: "2\n", message: "proposed")
        try sandbox.git(
            ["push", "-q", module, "\(landed):refs/heads/main", "\(proposed):refs/heads/tenantctl/roll/t"],
            in: sandbox.path("module"))
        try sandbox.makeRepository(
            "superproject",
            files: [".gitmodules": "[submodule \"Module\"]\n\tpath = Modules/Module\n\turl = ../Module.git\n"])
        let superprojectClone = sandbox.path("superproject")
        try sandbox.git(
            ["update-index", "--add", "--cacheinfo", "160000,\(landed),Modules/Module"], in: superprojectClone)
        try sandbox.git(["commit", "-q", "-m", "pin what landed"], in: superprojectClone)
        let bare = remotes + "/Superproject.git"
        try sandbox.git(["init", "-q", "--bare", "-b", "main", bare])
        try sandbox.git(["push", "-q", bare, "HEAD:refs/heads/main"], in: superprojectClone)
        #expect(try sandbox.unlandedPins(superproject: bare, proposalPrefix: "tenantctl/roll").isEmpty, "control")
        try sandbox.git(
            ["update-index", "--cacheinfo", "160000,\(proposed),Modules/Module"], in: superprojectClone)
        try sandbox.git(["commit", "-q", "-m", "pin what is proposed"], in: superprojectClone)
        try sandbox.git(["push", "-q", bare, "HEAD:refs/pull/7/head"], in: superprojectClone)
        let found = try sandbox.unlandedPins(superproject: bare, proposalPrefix: "tenantctl/roll")
        #expect(
            found.count == 1 && found[0].hasPrefix("refs/pull/7/head pins Modules/Module at \(proposed)"), "\(found)")
    }
}
