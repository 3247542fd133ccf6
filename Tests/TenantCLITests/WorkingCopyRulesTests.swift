import Foundation
import TenantKit
import TenantTestSupport
import Testing

/// Nested submodules (a module's own submodules): initialised at the module's recorded commits, reported by status.
@Suite(.tags(.slow), .notInTheFastSet) struct SwitchNestedSubmoduleTests {
    @Test func switchInitialisesNestedSubmodulesUnlessNoRecursive() throws {
        let sandbox = try GitSandbox()
        let fixture = try SwitchFixture(sandbox: sandbox, nested: true)
        let article = fixture.module("Article")
        let recorded = try sandbox.git(["rev-parse", "HEAD:Vendor/Lib"], in: article)
        try sandbox.git(["submodule", "deinit", "-q", "-f", "--", "Vendor/Lib"], in: article)

        let skipped = sandbox.tenantctl(["switch", "t2", "--no-recursive"], in: fixture.workspace)
        #expect(skipped.status == 0, "\(skipped.stderr)")
        #expect(!FileManager.default.fileExists(atPath: article + "/Vendor/Lib/.git"))

        let result = sandbox.tenantctl(["switch", "t3"], in: fixture.workspace)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try sandbox.git(["rev-parse", "HEAD"], in: article + "/Vendor/Lib") == recorded)
    }

    @Test func statusReportsANestedSubmoduleOffItsRecordedCommit() throws {
        let sandbox = try GitSandbox()
        let fixture = try SwitchFixture(sandbox: sandbox, nested: true)
        #expect(sandbox.tenantctl(["switch", "t3"], in: fixture.workspace).status == 0)
        let clean = sandbox.tenantctl(["status", "--json"], in: fixture.workspace)
        #expect(clean.status == 0, "\(clean.stderr)")
        #expect(!clean.stdout.contains("Vendor/Lib"), "\(clean.stdout)")
        let moved = try sandbox.commit(
            in: "workspace/Modules/Article/Vendor/Lib", file: "Lib.c", content: "/* moved */\n", message: "lib work")
        let json = sandbox.tenantctl(["status", "--json"], in: fixture.workspace)
        #expect(json.status == 0, "\(json.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let modules = try #require(object["modules"] as? [[String: Any]])
        let articleStatus = try #require(modules.first { $0["module"] as? String == "Article" })
        let nested = try #require(articleStatus["nested"] as? [[String: Any]], "\(articleStatus)")
        #expect(nested.first?["path"] as? String == "Modules/Article/Vendor/Lib")
        #expect(nested.first?["head"] as? String == moved)
        let table = sandbox.tenantctl(["status"], in: fixture.workspace)
        #expect(table.stdout.contains("Modules/Article/Vendor/Lib"), "\(table.stdout)")
        #expect(table.stdout.contains("not at its recorded commit"), "\(table.stdout)")
    }
}

/// status: a gone upstream is shown as gone; annotated-tag pins are peeled.
@Suite struct StatusRulesTests {
    @Test func aGoneUpstreamIsShownAsGone() throws {
        let sandbox = try GitSandbox()
        let fixture = try SwitchFixture(sandbox: sandbox)
        #expect(sandbox.tenantctl(["switch", "t3"], in: fixture.workspace).status == 0)
        try sandbox.git(["branch", "-q", "-D", "t3"], in: sandbox.path("remotes/Superproject.git"))
        // status judges by what tenantctl fetched (switch and roll fetch with --prune), not by refs/remotes/….
        #expect(sandbox.tenantctl(["switch", "t3"], in: fixture.workspace).status == 0)
        let table = sandbox.tenantctl(["status"], in: fixture.workspace)
        #expect(table.status == 0, "\(table.stderr)")
        #expect(table.stdout.contains("origin/t3: gone"), "\(table.stdout)")
        #expect(!table.stdout.contains("ahead 0, behind 0"), "\(table.stdout)")
        let json = sandbox.tenantctl(["status", "--json"], in: fixture.workspace)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let superproject = try #require(object["superproject"] as? [String: Any])
        #expect(superproject["upstreamGone"] as? Bool == true)
    }

    @Test func anAnnotatedTagAsPinIsPeeled() throws {
        let sandbox = try GitSandbox()
        let fixture = try SwitchFixture(sandbox: sandbox)
        let article = fixture.module("Article")
        let head = try sandbox.git(["rev-parse", "HEAD"], in: article)
        try sandbox.git(["tag", "-a", "v1", "-m", "release 1"], in: article)
        let tag = try sandbox.git(["rev-parse", "v1"], in: article)
        try #require(tag != head)
        try sandbox.git(["update-index", "--cacheinfo", "160000,\(tag),Modules/Article"], in: fixture.workspace)
        try sandbox.git(["commit", "-q", "-m", "pin Article to tag v1"], in: fixture.workspace)
        let json = sandbox.tenantctl(["status", "--json"], in: fixture.workspace)
        #expect(json.status == 0, "\(json.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let modules = try #require(object["modules"] as? [[String: Any]])
        let status = try #require(modules.first { $0["module"] as? String == "Article" })
        #expect(status["pin"] as? String == head, "\(status)")
        #expect(status["relation"] as? String == "at-pin")
        // pin does not re-record an unchanged module because its gitlink names a tag.
        let pin = sandbox.tenantctl(["pin", "Article", "--no-fetch"], in: fixture.workspace)
        #expect(pin.status == 0, "\(pin.stderr)")
        #expect(pin.stdout.contains("nothing to pin"), "\(pin.stdout)")
    }
}

/// pin --push never recreates a branch deleted on the remote, never pushes general_dev from a tenant view silently.
@Suite(.tags(.slow), .notInTheFastSet) struct PinPushRulesTests {
    @Test func aModuleBranchDeletedOnTheRemoteIsNotRecreated() throws {
        let sandbox = try GitSandbox()
        let fixture = try SwitchFixture(sandbox: sandbox)
        #expect(sandbox.tenantctl(["switch", "t2"], in: fixture.workspace).status == 0)
        let remote = sandbox.path("remotes/Infrastructure.git")
        try sandbox.git(["branch", "-q", "-D", "t2"], in: remote)
        try sandbox.commit(in: "workspace/Modules/Infrastructure", file: "Fix.swift", content: "// fix\n")
        try Self.expectPinPushRefusedWithoutRecreatingT2(fixture, remote: remote)
    }

    /// `pin --push Infrastructure` on t2, whose branch `remote` no longer has: refused naming it, the branch not
    /// recreated, the superproject's HEAD unchanged.
    static func expectPinPushRefusedWithoutRecreatingT2(
        _ fixture: SwitchFixture, remote: String, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let sandbox = fixture.sandbox
        let head = try sandbox.git(["rev-parse", "HEAD"], in: fixture.workspace)
        let result = sandbox.tenantctl(["pin", "--push", "Infrastructure"], in: fixture.workspace)
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)", sourceLocation: sourceLocation)
        #expect(
            result.stderr.contains("t2 does not exist on the remote"), "\(result.stderr)",
            sourceLocation: sourceLocation)
        #expect(
            try sandbox.gitResult(["rev-parse", "--verify", "-q", "refs/heads/t2"], in: remote).status != 0,
            sourceLocation: sourceLocation)
        #expect(
            try sandbox.git(["rev-parse", "HEAD"], in: fixture.workspace) == head, sourceLocation: sourceLocation)
    }

    @Test func aSuperprojectBranchDeletedOnTheRemoteIsNotRecreated() throws {
        let sandbox = try GitSandbox()
        let fixture = try SwitchFixture(sandbox: sandbox)
        #expect(sandbox.tenantctl(["switch", "t2"], in: fixture.workspace).status == 0)
        try sandbox.commit(in: "workspace/Modules/Infrastructure", file: "Fix.swift", content: "// fix\n")
        try sandbox.git(["push", "-q", "origin", "t2"], in: fixture.module("Infrastructure"))
        let remote = sandbox.path("remotes/Superproject.git")
        try sandbox.git(["branch", "-q", "-D", "t2"], in: remote)
        try Self.expectPinPushRefusedWithoutRecreatingT2(fixture, remote: remote)
    }

    @Test func aTenantViewPushesAModulesGeneralBranchOnlyWithToGeneral() throws {
        let sandbox = try GitSandbox()
        let fixture = try SwitchFixture(sandbox: sandbox)
        #expect(sandbox.tenantctl(["switch", "t2"], in: fixture.workspace).status == 0)
        let remote = sandbox.path("remotes/Article.git")
        let before = try sandbox.git(["rev-parse", "refs/heads/general_dev"], in: remote)
        let mine = try sandbox.commit(in: "workspace/Modules/Article", file: "Shared.swift", content: "// shared\n")
        let refused = sandbox.tenantctl(["pin", "--push", "Article"], in: fixture.workspace)
        #expect(refused.status == 1, "\(refused.stdout)\(refused.stderr)")
        #expect(refused.stderr.contains("--to-general"), "\(refused.stderr)")
        #expect(try sandbox.git(["rev-parse", "refs/heads/general_dev"], in: remote) == before)
        let allowed = sandbox.tenantctl(["pin", "--push", "--to-general", "Article"], in: fixture.workspace)
        #expect(allowed.status == 0, "\(allowed.stderr)")
        #expect(try sandbox.git(["rev-parse", "refs/heads/general_dev"], in: remote) == mine)
    }
}
