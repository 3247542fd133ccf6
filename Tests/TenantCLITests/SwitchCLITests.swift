import Foundation
import TenantTestSupport
import Testing

@Suite("switch", .tags(.slow), .notInTheFastSet)
struct SwitchCLITests {
    /// Asserts every module is on a named branch (`symbolic-ref` succeeds) whose tip is the pin of `tenant`.
    func expectOn(_ tenant: String, _ fixture: SwitchFixture, customised: Set<String>) throws {
        let sandbox = fixture.sandbox
        #expect(try sandbox.git(["symbolic-ref", "--short", "HEAD"], in: fixture.workspace) == tenant)
        #expect(
            try sandbox.git(["rev-parse", "HEAD"], in: fixture.workspace)
                == sandbox.git(["rev-parse", "origin/\(tenant)"], in: fixture.workspace))
        for module in SwitchFixture.modules {
            let branch = customised.contains(module) ? tenant : "general_dev"
            #expect(
                try sandbox.git(["symbolic-ref", "--short", "HEAD"], in: fixture.module(module)) == branch,
                "\(module) on \(branch)")
            #expect(
                try sandbox.git(["rev-parse", "HEAD"], in: fixture.module(module))
                    == fixture.pin(module, on: tenant), "\(module) at the pin of \(tenant)")
            #expect(
                try sandbox.git(["rev-parse", "--abbrev-ref", "\(branch)@{upstream}"], in: fixture.module(module))
                    == "origin/\(branch)")
        }
        #expect(try sandbox.git(["status", "--porcelain=v2"], in: fixture.workspace) == "")
    }

    @Test func switchesBetweenTenantsAndBack() throws {
        let sandbox = try GitSandbox()
        let fixture = try SwitchFixture(sandbox: sandbox)
        var result = sandbox.tenantctl(["switch", "t2"], in: fixture.workspace)
        #expect(result.status == 0, "\(result.stderr)")
        try expectOn("t2", fixture, customised: ["Infrastructure", "Customer"])
        #expect(result.stdout.contains("Infrastructure"))

        result = sandbox.tenantctl(["switch", "t3"], in: fixture.workspace)
        #expect(result.status == 0, "\(result.stderr)")
        try expectOn("t3", fixture, customised: ["Order"])

        result = sandbox.tenantctl(["switch", "t2", "--json"], in: fixture.workspace)
        #expect(result.status == 0, "\(result.stderr)")
        try expectOn("t2", fixture, customised: ["Infrastructure", "Customer"])
        let json = try #require(
            try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(json["tenant"] as? String == "t2")
        let entries = try #require(json["repositories"] as? [[String: Any]])
        let changes = Dictionary(
            uniqueKeysWithValues: entries.compactMap { entry in
                (entry["repository"] as? String).map { ($0, entry["change"] as? String ?? "") }
            })
        // Article is pinned to the same general_dev commit by t2 and t3: untouched.
        #expect(changes["Article"] == "unchanged")
        #expect(changes["Infrastructure"] == "checked out")

        result = sandbox.tenantctl(["switch", "general_dev", "--no-fetch"], in: fixture.workspace)
        #expect(result.status == 0, "\(result.stderr)")
        try expectOn("general_dev", fixture, customised: [])
    }

    @Test func secondSwitchToTheSameTenantChangesNothing() throws {
        let sandbox = try GitSandbox()
        let fixture = try SwitchFixture(sandbox: sandbox)
        #expect(sandbox.tenantctl(["switch", "t2"], in: fixture.workspace).status == 0)
        let before = try fixture.snapshot()
        let result = sandbox.tenantctl(["switch", "t2", "--json"], in: fixture.workspace)
        #expect(result.status == 0)
        #expect(try fixture.snapshot() == before)
        #expect(!result.stdout.contains("\"checked out\"") && !result.stdout.contains("\"created\""))
    }

    /// A local branch ahead of the pin with commits no remote holds is never reset and never "kept" off the pin:
    /// switching back to it is refused, naming the commit.
    @Test func localBranchAheadOfThePinWithUnpushedWorkIsRefusedNotKept() throws {
        let sandbox = try GitSandbox()
        let fixture = try SwitchFixture(sandbox: sandbox)
        let local = try fixture.leaveUnpushedWorkOnT2()
        #expect(try sandbox.git(["rev-parse", "refs/heads/t2"], in: fixture.module("Infrastructure")) == local)
        try expectRefusal(
            fixture, mentioning: ["Infrastructure (Modules/Infrastructure)", String(local.prefix(7)), "local work"])
        #expect(try sandbox.git(["rev-parse", "refs/heads/t2"], in: fixture.module("Infrastructure")) == local)
    }

    @Test func fastForwardsALocalBranchBehindThePin() throws {
        let sandbox = try GitSandbox()
        let fixture = try SwitchFixture(sandbox: sandbox)
        let infrastructure = fixture.module("Infrastructure")
        let pin = try fixture.pin("Infrastructure", on: "t2")
        try sandbox.git(["branch", "--no-track", "t2", "\(pin)~1"], in: infrastructure)
        try sandbox.git(["branch", "-q", "--set-upstream-to=origin/t2", "t2"], in: infrastructure)
        let result = sandbox.tenantctl(["switch", "t2", "--json"], in: fixture.workspace)
        #expect(result.status == 0, "\(result.stderr)")
        try expectOn("t2", fixture, customised: ["Infrastructure", "Customer"])
        #expect(result.stdout.contains("fast-forwarded"))
    }

    /// The checked-out module branch is fast-forwarded although its files' stat data changed (touched, copied or
    /// restored with the same content): the index is refreshed first, as `git switch` and `git merge` do on their
    /// own. Before, the fast-forward (`reset --keep`) refused half-way with "Entry '…' not uptodate".
    @Test func fastForwardsTheCheckedOutBranchWhenOnlyFileTimesChanged() throws {
        let sandbox = try GitSandbox()
        let fixture = try SwitchFixture(sandbox: sandbox)
        #expect(sandbox.tenantctl(["switch", "t1"], in: fixture.workspace).status == 0)
        let article = fixture.module("Article")
        #expect(try sandbox.git(["symbolic-ref", "HEAD"], in: article) == "refs/heads/general_dev")

        // A new general commit of Article, pinned on the remote's t1.
        let tip = try sandbox.commit(
            in: "src/Article", file: "Article.swift", content: "// Article, second\n", message: "Article: second")
        try sandbox.git(
            ["push", "-q", sandbox.path("remotes/Article.git"), "general_dev"], in: sandbox.path("src/Article"))
        let build = sandbox.path("src/Superproject")
        try sandbox.git(["switch", "-q", "t1"], in: build)
        try sandbox.git(["fetch", "-q"], in: build + "/Modules/Article")
        try sandbox.git(["checkout", "-q", "--detach", tip], in: build + "/Modules/Article")
        try sandbox.git(["commit", "-q", "-am", "t1: pin Article's second commit"], in: build)
        try sandbox.git(["push", "-q", "origin", "t1"], in: build)

        // Same content, new stat data: git's index now needs a refresh.
        let file = article + "/Article.swift"
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: 60)], ofItemAtPath: file)
        let stale = try sandbox.git(["diff-files", "--name-only"], in: article)
        #expect(stale == "Article.swift", "the index should be stale before the switch: \(stale)")

        let result = sandbox.tenantctl(["switch", "t1"], in: fixture.workspace)
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("fast-forwarded"), "\(result.stdout)")
        #expect(try sandbox.git(["rev-parse", "HEAD"], in: article) == tip)
        #expect(try sandbox.git(["symbolic-ref", "HEAD"], in: article) == "refs/heads/general_dev")
        #expect(try sandbox.git(["status", "--porcelain"], in: article).isEmpty)
        #expect(try String(contentsOfFile: file, encoding: .utf8) == "// Article, second\n")
    }

    /// A refusal: exit 1, every problem listed, every repository byte-for-byte as before.
    func expectRefusal(
        _ fixture: SwitchFixture, target: String = "t2", status: Int32 = 1, mentioning phrases: [String]
    ) throws {
        let before = try fixture.snapshot()
        let result = fixture.sandbox.tenantctl(["switch", target], in: fixture.workspace)
        #expect(result.status == status, "stdout: \(result.stdout)\nstderr: \(result.stderr)")
        for phrase in phrases { #expect(result.stderr.contains(phrase), "stderr lacks '\(phrase)': \(result.stderr)") }
        let after = try fixture.snapshot()
        for (repository, state) in before {
            #expect(after[repository] == state, "\(repository) changed")
        }
    }

    @Test func refusesADirtySuperproject() throws {
        let sandbox = try GitSandbox()
        let fixture = try SwitchFixture(sandbox: sandbox)
        try sandbox.write("workspace/ColourScheme.conf", "colour=pink\n")
        try sandbox.write("workspace/notes.txt", "untracked, preserved\n")
        try expectRefusal(fixture, mentioning: ["superproject (ColourScheme.conf): modified"])
        #expect(try sandbox.read("workspace/notes.txt") == "untracked, preserved\n")
    }

    @Test func refusesADirtyModuleAndListsEveryProblem() throws {
        let sandbox = try GitSandbox()
        let fixture = try SwitchFixture(sandbox: sandbox)
        try sandbox.write("workspace/Modules/Article/Article.swift", "// edited\n")
        try sandbox.write("workspace/ColourScheme.conf", "colour=pink\n")
        try expectRefusal(
            fixture,
            mentioning: [
                "Article (Modules/Article/Article.swift): modified", "superproject (ColourScheme.conf)",
                "2 problems",
            ])
    }

    @Test func refusesAStagedFile() throws {
        let sandbox = try GitSandbox()
        let fixture = try SwitchFixture(sandbox: sandbox)
        try sandbox.write("workspace/Modules/Customer/New.swift", "// new\n")
        try sandbox.git(["add", "New.swift"], in: fixture.module("Customer"))
        try expectRefusal(fixture, mentioning: ["Customer (Modules/Customer/New.swift): staged"])
    }

    @Test func refusesADetachedHeadWithAnOrphanCommit() throws {
        let sandbox = try GitSandbox()
        let fixture = try SwitchFixture(sandbox: sandbox)
        let orphan = try sandbox.commit(
            in: "workspace/Modules/Order", file: "Orphan.swift", content: "// lost?\n", message: "orphan")
        try expectRefusal(fixture, mentioning: ["Order (Modules/Order): detached HEAD", "1 commit that no branch"])
        #expect(try sandbox.git(["rev-parse", "HEAD"], in: fixture.module("Order")) == orphan)
    }

    @Test func refusesARebaseInProgress() throws {
        let sandbox = try GitSandbox()
        let fixture = try SwitchFixture(sandbox: sandbox)
        let article = fixture.module("Article")
        try sandbox.git(["switch", "-q", "-c", "one"], in: article)
        try sandbox.commit(in: "workspace/Modules/Article", file: "Article.swift", content: "// one\n")
        try sandbox.git(["switch", "-q", "-c", "two", "HEAD~1"], in: article)
        try sandbox.commit(in: "workspace/Modules/Article", file: "Article.swift", content: "// two\n")
        let rebase = try sandbox.gitResult(["rebase", "one"], in: article)
        #expect(rebase.status != 0)
        try expectRefusal(fixture, mentioning: ["unfinished operation in Article: a rebase is in progress"])
    }

    @Test func refusesADivergedLocalBranch() throws {
        let sandbox = try GitSandbox()
        let fixture = try SwitchFixture(sandbox: sandbox)
        let infrastructure = fixture.module("Infrastructure")
        let pin = try fixture.pin("Infrastructure", on: "t2")
        try sandbox.git(["switch", "-q", "--no-track", "-c", "t2", "\(pin)~1"], in: infrastructure)
        try sandbox.commit(in: "workspace/Modules/Infrastructure", file: "Mine.swift", content: "// mine\n")
        try expectRefusal(
            fixture,
            mentioning: [
                "Infrastructure (Modules/Infrastructure): local branch t2 has 1 commit that no remote branch holds"
            ])
    }

    @Test func refusesAStaleIndexLockAndKeepsIt() throws {
        let sandbox = try GitSandbox()
        let fixture = try SwitchFixture(sandbox: sandbox)
        let gitDirectory = try sandbox.git(["rev-parse", "--absolute-git-dir"], in: fixture.module("Customer"))
        let lock = gitDirectory + "/index.lock"
        #expect(FileManager.default.createFile(atPath: lock, contents: Data()))
        try expectRefusal(fixture, mentioning: ["lock file \(lock)"])
        #expect(FileManager.default.fileExists(atPath: lock))
    }

    @Test func refusesAnUnknownTenant() throws {
        let sandbox = try GitSandbox()
        let fixture = try SwitchFixture(sandbox: sandbox)
        // A usage error (exit 64) listing the known names, the general branch first.
        try expectRefusal(
            fixture, target: "t9", status: 64,
            mentioning: ["error: unknown tenant t9; known tenants: t1, t2, t3, general_dev"])
    }

    @Test func initialisesAMissingModule() throws {
        let sandbox = try GitSandbox()
        let fixture = try SwitchFixture(sandbox: sandbox)
        try sandbox.git(["submodule", "deinit", "-q", "--", "Modules/Customer"], in: fixture.workspace)
        let result = sandbox.tenantctl(["switch", "t2"], in: fixture.workspace)
        #expect(result.status == 0, "\(result.stderr)")
        try expectOn("t2", fixture, customised: ["Infrastructure", "Customer"])
    }

    /// A module whose checkout was removed (`git submodule deinit`) keeps its git directory and branches: setting it
    /// up again never resets a branch that holds commits no remote has.
    @Test func aDeinitialisedModulesUnpublishedBranchIsNotReset() throws {
        let sandbox = try GitSandbox()
        let fixture = try SwitchFixture(sandbox: sandbox)
        let local = try fixture.leaveUnpushedWorkOnT2()
        try sandbox.git(["submodule", "deinit", "-q", "-f", "--", "Modules/Infrastructure"], in: fixture.workspace)
        let gitDirectory = fixture.workspace + "/.git/modules/Modules/Infrastructure"  // submodule name = path
        try expectRefusal(fixture, mentioning: ["Infrastructure (Modules/Infrastructure)", String(local.prefix(7))])
        #expect(try sandbox.git(["rev-parse", "refs/heads/t2"], in: gitDirectory) == local)
        // Positive control: published, the branch may move back to the pin.
        try sandbox.git(["push", "-q", "origin", "t2:refs/heads/mine"], in: gitDirectory)
        let result = sandbox.tenantctl(["switch", "t2"], in: fixture.workspace)
        #expect(result.status == 0, "\(result.stderr)")
        try expectOn("t2", fixture, customised: ["Infrastructure", "Customer"])
    }

    @Test func helpHasAnExample() {
        let sandbox = try? GitSandbox()
        let result = sandbox?.tenantctl(["switch", "--help"])
        #expect(result?.status == 0)
        #expect(result?.stdout.contains("tenantctl switch t2") == true)
    }
}
