import Foundation
import TenantKit
import TenantTestSupport
import Testing

@Suite struct ProjectReaderTests {
    static let manifest = """
        { "version": 1, "generalBranch": "general_dev", "modules": [
          { "name": "A", "path": "Modules/A", "url": "../A.git", "dependsOn": [] } ] }
        """

    @Test func readsTheProjectFromABranchWithoutCheckout() throws {
        let sandbox = try GitSandbox()
        let repo = try sandbox.makeRepository(
            "super", branch: "general_dev",
            files: [
                "modules.json": Self.manifest,
                "Tenants/t1.json": "{ \"id\": \"t1\", \"modules\": [\"A\"], \"customised\": [\"A\"] }",
                "Tenants/t2.json": "{ \"id\": \"t2\", \"modules\": [\"A\"], \"customised\": [] }",
            ])
        // The working tree moves on to another branch with different files: the branch is what is read.
        try sandbox.git(["checkout", "-q", "-b", "other"], in: repo)
        try sandbox.git(["rm", "-q", "Tenants/t2.json"], in: repo)
        try sandbox.git(["commit", "-q", "-m", "drop t2"], in: repo)
        let git = try sandbox.gitRunner()
        let project = try ProjectReader.revision(
            "refs/heads/general_dev", in: git.repository(at: repo), options: ValidationOptions())
        #expect(project.tenants.map(\.id) == ["t1", "t2"])
        #expect(project.tenants[0].file == "general_dev:Tenants/t1.json")
        #expect(project.manifest.modules.map(\.name) == ["A"])
        let workingTree = try ProjectReader.workingTree(
            try Workspace.locate(from: repo, git: git), options: ValidationOptions())
        #expect(workingTree.tenants.map(\.id) == ["t1"])
    }

    @Test func problemsNameTheBranchAndFile() throws {
        let sandbox = try GitSandbox()
        let repo = try sandbox.makeRepository(
            "super", branch: "general_dev",
            files: ["modules.json": Self.manifest, "Tenants/t1.json": "{ \"id\": \"t1\", \"modules\": 3 }"])
        let error = #expect(throws: ManifestError.self) {
            try ProjectReader.revision(
                "refs/heads/general_dev", in: try sandbox.gitRunner().repository(at: repo), options: .init())
        }
        let text = try #require(error).description
        #expect(text.hasPrefix("general_dev:Tenants/t1.json:1:"), "\(text)")
        #expect(text.contains(": modules: expected an array"), "\(text)")
        let missing = #expect(throws: GitError.self) {
            try ProjectReader.revision(
                "refs/heads/nope", in: try sandbox.gitRunner().repository(at: repo), options: .init())
        }
        #expect(try #require(missing).description.hasPrefix("list Tenants/ on nope failed"))
    }

    @Test func moduleURLsResolveAgainstTheSuperprojectRemote() throws {
        let sandbox = try GitSandbox()
        let repo = try sandbox.makeRepository("super", files: ["modules.json": Self.manifest])
        try sandbox.git(["remote", "add", "origin", "https://git.example.com/erp/Superproject.git"], in: repo)
        let module = Module(name: "A", path: "Modules/A", url: "../A.git", dependsOn: [])
        let workspace = try Workspace.locate(from: repo, git: try sandbox.gitRunner())
        let specs = try ModuleRemotes.specs(for: [module], workspace: workspace)
        #expect(specs == [MirrorSpec(name: "A", url: "https://git.example.com/erp/A.git")])
        try sandbox.git(["remote", "set-url", "origin", sandbox.path("remotes/Superproject.git")], in: repo)
        let strict = try Git(environment: sandbox.environment, allowLocalRemotes: false)
        var strictWorkspace = workspace
        strictWorkspace.git = strict
        let error = #expect(throws: WorkspaceError.self) {
            try ModuleRemotes.specs(for: [module], workspace: strictWorkspace)
        }
        #expect(
            try #require(error).description
                == "module A: remote \(sandbox.path("remotes/A.git")) is a local path; allow local remotes with "
                + "--allow-local-remotes or TENANTCTL_ALLOW_LOCAL_REMOTES=1")
    }

    @Test func theGeneralBranchComesFromTheWorkingTreeManifest() throws {
        let sandbox = try GitSandbox()
        let repo = try sandbox.makeRepository(
            "super", files: ["modules.json": Self.manifest.replacingOccurrences(of: "general_dev", with: "develop")])
        let workspace = try Workspace.locate(from: repo, git: try sandbox.gitRunner())
        #expect(ProjectReader.generalBranchHint(workspace).branch == "develop")
        // A file that names no valid branch, or does not parse, gives no branch and says why (no silent default).
        try sandbox.write("super/modules.json", "{ \"version\": 1, \"generalBranch\": \"a..b\", \"modules\": [] }")
        #expect(ProjectReader.generalBranchHint(workspace).branch == nil)
        #expect(ProjectReader.generalBranchHint(workspace).problem?.contains("generalBranch") == true)
        try sandbox.write("super/modules.json", "{ truncated")
        #expect(ProjectReader.generalBranchHint(workspace).branch == nil)
        #expect(ProjectReader.generalBranchHint(workspace).problem?.hasPrefix("modules.json:") == true)
        // A file that omits generalBranch means the documented default.
        try sandbox.write("super/modules.json", "{ \"version\": 1, \"modules\": [] }")
        #expect(ProjectReader.generalBranchHint(workspace).branch == "general_dev")
        #expect(ProjectReader.generalBranchHint(workspace).problem == nil)
    }
}
