import Foundation
import TenantKit
import TenantTestSupport
import Testing

@Suite struct ModuleMirrorsTests {
    /// A superproject clone plus two module remotes.
    private func fixture(_ sandbox: GitSandbox) throws -> (workspace: Workspace, a: String, b: String) {
        let a = try sandbox.makeRepository("src/A")
        try sandbox.git(["branch", "t1"], in: a)
        let b = try sandbox.makeRepository("src/B")
        let sup = try sandbox.makeRepository("sup", files: ["modules.json": "{}"])
        try sandbox.git(["clone", "-q", "--bare", a, sandbox.path("remotes/A.git")])
        try sandbox.git(["clone", "-q", "--bare", b, sandbox.path("remotes/B.git")])
        let workspace = try Workspace.locate(from: sup, git: try sandbox.gitRunner())
        return (workspace, sandbox.path("remotes/A.git"), sandbox.path("remotes/B.git"))
    }

    @Test func syncCreatesMirrorsWhoseBranchesEqualTheRemotes() throws {
        let sandbox = try GitSandbox()
        let (workspace, a, b) = try fixture(sandbox)
        let mirrors = ModuleMirrors(workspace: workspace)
        let paths = try mirrors.sync([MirrorSpec(name: "A", url: a), MirrorSpec(name: "B", url: b)], jobs: 2)
        #expect(paths["A"] == workspace.gitDirectory + "/tenantctl/mirrors/A.git")
        let mirrorA = try #require(paths["A"])
        var expected = try sandbox.refs(a)
        expected["HEAD"] = nil
        var actual = try sandbox.refs(mirrorA)
        actual["HEAD"] = nil
        #expect(actual == expected)
        #expect(actual.keys.sorted() == ["refs/heads/main", "refs/heads/t1"])
        // A branch deleted on the remote disappears from the mirror; a moved one follows, also when it was
        // rewritten (not a fast-forward); a new one appears.
        let oldMain = try #require(actual["refs/heads/main"])
        try sandbox.git(["branch", "-D", "t1"], in: a)
        try sandbox.git(["branch", "t2"], in: a)
        let rewritten = try sandbox.git(["commit-tree", "-m", "rewritten", "refs/heads/main^{tree}"], in: a)
        try sandbox.git(["update-ref", "refs/heads/main", rewritten], in: a)
        #expect(rewritten != oldMain)
        #expect(try sandbox.gitResult(["merge-base", "--is-ancestor", oldMain, rewritten], in: a).status == 1)
        try mirrors.sync([MirrorSpec(name: "A", url: a)])
        let synced = try sandbox.refs(mirrorA)
        #expect(synced["refs/heads/t1"] == nil)
        #expect(synced["refs/heads/main"] == rewritten)
        #expect(synced["refs/heads/t2"] == oldMain)
        // Then a fast-forward.
        let advanced = try sandbox.git(
            ["commit-tree", "-p", rewritten, "-m", "advanced", "refs/heads/main^{tree}"], in: a)
        try sandbox.git(["update-ref", "refs/heads/main", advanced], in: a)
        try mirrors.sync([MirrorSpec(name: "A", url: a)])
        #expect(try sandbox.refs(mirrorA)["refs/heads/main"] == advanced)
        // The user's working copy is untouched.
        #expect(try sandbox.git(["status", "--porcelain=v2"], in: workspace.root).isEmpty)
    }

    @Test func everyFailingModuleIsReportedTogether() throws {
        let sandbox = try GitSandbox()
        let (workspace, a, _) = try fixture(sandbox)
        let mirrors = ModuleMirrors(workspace: workspace)
        let error = #expect(throws: MirrorError.self) {
            try mirrors.sync([
                MirrorSpec(name: "A", url: a),
                MirrorSpec(name: "Gone", url: sandbox.path("remotes/Gone.git")),
                MirrorSpec(name: "Secret", url: "https://bob:hunter2@127.0.0.1:1/x.git"),
            ])
        }
        let text = try #require(error).description
        #expect(text.hasPrefix("cannot fetch 2 module repositories:"))
        #expect(text.contains("- Gone: fetch module Gone from \(sandbox.path("remotes/Gone.git")) failed"))
        #expect(text.contains("- Secret: fetch module Secret from https://bob:***@127.0.0.1:1/x.git failed"))
        #expect(!text.contains("hunter2"))
    }

    @Test func localRemotesAreRefusedWithoutPermission() throws {
        let sandbox = try GitSandbox()
        let (workspace, a, _) = try fixture(sandbox)
        let strict = try Git(environment: sandbox.environment, allowLocalRemotes: false)
        var strictWorkspace = workspace
        strictWorkspace.git = strict
        let error = #expect(throws: MirrorError.self) {
            try ModuleMirrors(workspace: strictWorkspace).sync([MirrorSpec(name: "A", url: a)])
        }
        #expect(try #require(error).description.contains("transport 'file' not allowed"))
    }

    @Test func noFetchNeedsAnEarlierFetch() throws {
        let sandbox = try GitSandbox()
        let (workspace, a, _) = try fixture(sandbox)
        let mirrors = ModuleMirrors(workspace: workspace)
        let error = #expect(throws: MirrorError.self) { try mirrors.existing([MirrorSpec(name: "A", url: a)]) }
        #expect(try #require(error).description.contains("A: never fetched; run once without --no-fetch"))
        try mirrors.sync([MirrorSpec(name: "A", url: a)])
        #expect(try mirrors.existing([MirrorSpec(name: "A", url: a)])["A"] == mirrors.path(for: "A"))
    }
}
