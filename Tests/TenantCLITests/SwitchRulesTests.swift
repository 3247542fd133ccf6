import Foundation
import TenantExample
import TenantKit
import TenantTestSupport
import Testing

/// Switch on clones made as a new user makes them.
@Suite(.tags(.slow), .notInTheFastSet) struct SwitchMovesBackOnlyPublishedCommitsTests {
    /// `git clone --recurse-submodules` after general development moved on leaves a local
    /// `general_dev` at the remote tip in every module; switch puts every module at the pin, moving the branch back
    /// because every commit it leaves is on `origin/general_dev`, and says so.
    @Test func cloneRecurseSubmodulesThenSwitchPutsEveryModuleAtThePin() throws {
        let fixture = try SwitchCloneFixture()
        let article = fixture.module("Article")
        let tip = try fixture.sandbox.git(["rev-parse", "refs/heads/general_dev"], in: article)
        let pin = try fixture.pin("Article", on: "t1")
        try #require(tip != pin, "the fixture must have general changes after the pin")
        let left = try fixture.sandbox.git(["rev-list", "--count", "\(pin)..\(tip)"], in: article)

        let result = fixture.tenantctl(["switch", "t1"])
        #expect(result.status == 0, "\(result.stderr)")
        try fixture.expectOn("t1", customised: [])
        #expect(
            result.stdout.contains(
                "moved back from \(left) commit\(left == "1" ? " that is" : "s that are") on origin/general_dev"),
            "\(result.stdout)")
        #expect(!result.stdout.contains("kept"))
        let status = try fixture.status()
        for module in try #require(status["modules"] as? [[String: Any]]) {
            #expect(module["relation"] as? String == "at-pin", "\(module)")
        }
        // Nothing of general_dev's unrolled changes can be pinned to t1 now.
        let pin2 = fixture.tenantctl(["pin", "--push"])
        #expect(pin2.status == 0, "\(pin2.stderr)")
        #expect(pin2.stdout.contains("nothing to pin"), "\(pin2.stdout)")
    }

    /// The same rule between tenants: back on general_dev after a tenant, modules are at general_dev's pins.
    @Test func switchTenantThenGeneralIsAtGeneralsPins() throws {
        let fixture = try SwitchCloneFixture()
        #expect(fixture.tenantctl(["switch", "t3"]).status == 0)
        let result = fixture.tenantctl(["switch", "general_dev"])
        #expect(result.status == 0, "\(result.stderr)")
        try fixture.expectOn("general_dev", customised: [])
    }

    /// A tenant pins a commit that is not on general_dev without declaring it customised: the local general_dev
    /// created there is moved back for the next tenant (the commit is on origin/t3), never kept in another's build.
    @Test func aCommitOfOneTenantIsNotKeptInAnothersBuild() throws {
        let fixture = try SwitchCloneFixture()
        let t3 = try fixture.sandbox.git(
            ["show", "t3:Tenants/t3.json"], in: fixture.remote("Superproject"))
        try fixture.pushSuperproject(
            branch: "t3",
            files: [
                "Tenants/t3.json": t3.replacingOccurrences(
                    of: "\"customised\": [\"Order\"]", with: "\"customised\": []")
            ],
            message: "t3: Order no longer declared")
        let toT3 = fixture.tenantctl(["switch", "t3"])
        #expect(toT3.status == 0, "\(toT3.stderr)")
        #expect(
            try fixture.sandbox.git(["rev-parse", "HEAD"], in: fixture.module("Order"))
                == fixture.pin("Order", on: "t3"))
        let toT1 = fixture.tenantctl(["switch", "t1"])
        #expect(toT1.status == 0, "\(toT1.stderr)")
        try fixture.expectOn("t1", customised: [])
        #expect(toT1.stdout.contains("on origin/t3"), "\(toT1.stdout)")
    }

    /// Commits only the local branch holds are the user's work: refused, named, nothing changed.
    @Test func refusesToLeaveUnpublishedCommitsAndNamesThem() throws {
        let fixture = try SwitchCloneFixture()
        #expect(fixture.tenantctl(["switch", "t1"]).status == 0)
        let mine = try fixture.sandbox.commit(
            in: "clone/Modules/Article", file: "Mine.swift", content: "// mine\n", message: "my unpushed work")
        try fixture.expectRefusal(
            ["switch", "t3"],
            mentioning: [
                "Article (Modules/Article)", "general_dev", String(mine.prefix(7)), "my unpushed work",
            ])
        // Positive control: once pushed (here to a branch of its own), the branch may move back.
        try fixture.sandbox.git(["push", "-q", "origin", "general_dev:refs/heads/mine"], in: fixture.module("Article"))
        let result = fixture.tenantctl(["switch", "t3"])
        #expect(result.status == 0, "\(result.stderr)")
        try fixture.expectOn("t3", customised: ["Order"])
        #expect(result.stdout.contains("moved back from 1 commit that is on origin/mine"), "\(result.stdout)")
    }

    /// `switch --dry-run` prints the plan per repository and changes nothing.
    @Test func dryRunPrintsThePlanAndChangesNothing() throws {
        let fixture = try SwitchCloneFixture()
        let before = try fixture.snapshot()
        let result = fixture.tenantctl(["switch", "t2", "--dry-run"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try fixture.snapshot() == before)
        #expect(result.stdout.contains("would switch to t2"), "\(result.stdout)")
        for repository in ["superproject"] + SwitchCloneFixture.modules {
            #expect(result.stdout.contains(repository), "\(repository): \(result.stdout)")
        }
        #expect(result.stdout.contains("create"), "\(result.stdout)")
        #expect(result.stdout.contains("move back"), "\(result.stdout)")
        let pin = try fixture.pin("Infrastructure", on: "t2")
        #expect(result.stdout.contains(String(pin.prefix(7))), "\(result.stdout)")
    }
}

/// A module directory that is not its own repository never gets a module command.
@Suite struct SwitchModuleDirectoryTests {
    @Test func updateNoneModuleIsSetUpAndTheSuperprojectIsUntouched() throws {
        let fixture = try SwitchCloneFixture(recurse: false)
        let sandbox = fixture.sandbox
        try sandbox.git(["config", "--local", "submodule.Order.update", "none"], in: fixture.workspace)
        try sandbox.write("clone/Unpushed.txt", "mine\n")
        try sandbox.git(["add", "Unpushed.txt"], in: fixture.workspace)
        try sandbox.git(["commit", "-q", "-m", "unpushed superproject work"], in: fixture.workspace)
        let unpushed = try sandbox.git(["rev-parse", "HEAD"], in: fixture.workspace)

        let result = fixture.tenantctl(["switch", "t1"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try sandbox.git(["rev-parse", "refs/heads/general_dev"], in: fixture.workspace) == unpushed)
        #expect(
            try sandbox.git(["rev-parse", "--show-toplevel"], in: fixture.module("Order")) == fixture.module("Order"))
        try fixture.expectOn("t1", customised: [])
    }

    @Test func aModuleDirectoryWithFilesButNoRepositoryIsRefused() throws {
        let fixture = try SwitchCloneFixture(recurse: false)
        try fixture.sandbox.write("clone/Modules/Order/Stray.swift", "// not a checkout\n")
        try fixture.expectRefusal(["switch", "t1"], mentioning: ["Order (Modules/Order)", "not a git repository"])
    }
}

/// Untracked files the target would overwrite are found before anything changes.
@Suite struct SwitchUntrackedFilesTests {
    @Test func anUntrackedFileTheTargetWouldOverwriteIsRefusedAndNamed() throws {
        let fixture = try SwitchCloneFixture()
        let customer = fixture.module("Customer")
        let added = try fixture.sandbox.git(
            [
                "diff", "--name-only", "--diff-filter=A", try fixture.pin("Customer", on: "general_dev"),
                try fixture.pin("Customer", on: "t2"),
            ], in: customer
        ).split(separator: "\n").first.map(String.init)
        let file = try #require(added, "t2's Customer must add a file")
        try fixture.sandbox.write("clone/Modules/Customer/\(file)", "my own copy\n")
        try fixture.expectRefusal(
            ["switch", "t2"], mentioning: ["Customer (Modules/Customer/\(file))", "untracked", "overwrite"])
        #expect(try fixture.sandbox.read("clone/Modules/Customer/\(file)") == "my own copy\n")
    }
}

/// Switch plans from the target commit.
@Suite(.tags(.slow), .notInTheFastSet) struct SwitchPlansFromTheTargetTests {
    @Test func aTenantAddedSinceIsFound() throws {
        let fixture = try SwitchCloneFixture(stage: .beforeUpdates)
        let add = fixture.sandbox.tenantctl(["tenant", "add", "t4", "--from", "t2"], in: fixture.example.workspace)
        try #require(add.status == 0, "\(add.stderr)")
        let result = fixture.tenantctl(["switch", "t4"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try fixture.sandbox.git(["symbolic-ref", "--short", "HEAD"], in: fixture.workspace) == "t4")
        for module in SwitchCloneFixture.modules {
            #expect(
                try fixture.sandbox.git(["rev-parse", "HEAD"], in: fixture.module(module))
                    == fixture.pin(module, on: "t4"), "\(module)")
        }
    }

    @Test func aModuleCustomisedSinceIsOnTheTenantBranch() throws {
        let fixture = try SwitchCloneFixture(stage: .beforeUpdates)
        let customize = fixture.sandbox.tenantctl(["customize", "t1", "Article"], in: fixture.example.workspace)
        try #require(customize.status == 0, "\(customize.stderr)")
        let result = fixture.tenantctl(["switch", "t1"])
        #expect(result.status == 0, "\(result.stderr)")
        try fixture.expectOn("t1", customised: ["Article"])
    }

    @Test func aModuleAddedSinceIsSetUp() throws {
        let fixture = try SwitchCloneFixture(stage: .beforeUpdates)
        let sandbox = fixture.sandbox
        try sandbox.makeRepository("invoice-src", branch: "general_dev", files: ["Invoice.swift": "// invoice\n"])
        try sandbox.git(["clone", "-q", "--bare", sandbox.path("invoice-src"), fixture.remote("Invoice")])
        let add = sandbox.tenantctl(
            ["module", "add", "Invoice", "--url", "../Invoice.git", "--depends-on", "Infrastructure"],
            in: fixture.example.workspace)
        try #require(add.status == 0, "\(add.stderr)")
        let result = fixture.tenantctl(["switch", "general_dev"])
        #expect(result.status == 0, "\(result.stderr)")
        try fixture.expectOn("general_dev", customised: [], modules: SwitchCloneFixture.modules + ["Invoice"])
    }
}

/// Branches checked out elsewhere and the common git directory: worktrees of the superproject and of modules.
@Suite(.tags(.slow), .notInTheFastSet) struct SwitchWorktreeTests {
    @Test func aSuperprojectBranchCheckedOutInAnotherWorktreeIsRefusedInThePreflight() throws {
        let fixture = try SwitchCloneFixture()
        let other = fixture.sandbox.path("other")
        try fixture.sandbox.git(["worktree", "add", "-q", other, "t2"], in: fixture.workspace)
        try fixture.expectRefusal(["switch", "t2"], mentioning: ["superproject", "t2", "checked out", other])
    }

    @Test func aModuleBranchCheckedOutInAnotherWorktreeIsRefusedBeforeAnythingMoves() throws {
        let fixture = try SwitchCloneFixture(stage: .beforeUpdates)
        let other = fixture.sandbox.path("article-wt")
        try fixture.sandbox.git(["worktree", "add", "-q", other, "general_dev"], in: fixture.module("Article"))
        try fixture.expectRefusal(["switch", "t1"], mentioning: ["Article (Modules/Article)", "checked out", other])
    }

    @Test func lockJournalAndMirrorsLiveInTheCommonGitDirectory() throws {
        let fixture = try SwitchCloneFixture()
        let sandbox = fixture.sandbox
        let worktree = sandbox.path("wt")
        try sandbox.git(["worktree", "add", "-q", "--detach", worktree, "general_dev"], in: fixture.workspace)
        let common = fixture.workspace + "/.git"
        let located = try Workspace.locate(from: worktree, git: try sandbox.gitRunner())
        #expect(located.commonDirectory == common)
        #expect(located.gitDirectory != common)

        // A run in the main checkout blocks one in the worktree.
        let lock = try WorkspaceLock(gitDirectory: common)
        let blocked = sandbox.tenantctl(["switch", "t1", "--no-fetch"], in: worktree)
        #expect(blocked.status != 0)
        #expect(blocked.stderr.contains("another tenantctl run"), "\(blocked.stderr)")
        lock.release()

        // roll from the worktree: its journal and the mirrors are where the main checkout finds them.
        let roll = sandbox.tenantctl(["roll"], in: worktree)
        #expect(roll.status == 0, "\(roll.stderr)")
        let journal = try FileManager.default.contentsOfDirectory(atPath: common + "/tenantctl/journal")
        #expect(journal.contains { $0.hasSuffix(".json") }, "\(journal)")
        #expect(FileManager.default.fileExists(atPath: common + "/tenantctl/mirrors/Article.git/HEAD"))
        let runId = try #require(journal.first { $0.hasSuffix(".json") }.map { String($0.dropLast(5)) })
        let undo = sandbox.tenantctl(["roll", "--undo", runId], in: fixture.workspace)
        #expect(undo.status == 0, "\(undo.stderr)")
    }
}
