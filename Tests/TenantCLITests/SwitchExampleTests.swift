import Foundation
import TenantExample
import TenantKit
import TenantTestSupport
import Testing

/// switch on the thesis' example workspace, checked with plain git.
@Suite(.tags(.slow), .notInTheFastSet) struct SwitchExampleTests {
    /// The pin of `module` on superproject branch `branch` of the example remote.
    func pin(_ sandbox: GitSandbox, _ example: ExampleResult, _ module: String, on branch: String) throws -> String {
        let line = try sandbox.git(
            ["ls-tree", branch, "--", "Modules/\(module)"], in: "\(example.remotes)/Superproject.git")
        return String(line.split(separator: " ")[2].prefix(40))
    }

    func expectOn(_ tenant: String, customised: Set<String>, _ sandbox: GitSandbox, _ example: ExampleResult) throws {
        #expect(try sandbox.git(["symbolic-ref", "--short", "HEAD"], in: example.workspace) == tenant)
        for module in ["Infrastructure", "Article", "Customer", "Order"] {
            let dir = "\(example.workspace)/Modules/\(module)"
            let branch = customised.contains(module) ? tenant : "general_dev"
            #expect(try sandbox.git(["symbolic-ref", "--short", "HEAD"], in: dir) == branch, "\(module)")
            #expect(try sandbox.git(["rev-parse", "HEAD"], in: dir) == (try pin(sandbox, example, module, on: tenant)))
        }
        #expect(try sandbox.git(["status", "--porcelain=v2"], in: example.workspace).isEmpty)
    }

    @Test func switchT2T3AndBackOnTheExample() throws {
        let sandbox = try GitSandbox()
        let example = try sandbox.exampleCopy(in: sandbox.path("erp"), stage: .beforeUpdates)
        var result = sandbox.tenantctl(["switch", "t2"], in: example.workspace)
        #expect(result.status == 0, "\(result.stderr)")
        try expectOn("t2", customised: ["Infrastructure", "Customer"], sandbox, example)
        result = sandbox.tenantctl(["switch", "t3"], in: example.workspace)
        #expect(result.status == 0, "\(result.stderr)")
        try expectOn("t3", customised: ["Order"], sandbox, example)
        result = sandbox.tenantctl(["switch", "t2"], in: example.workspace)
        #expect(result.status == 0, "\(result.stderr)")
        try expectOn("t2", customised: ["Infrastructure", "Customer"], sandbox, example)
        result = sandbox.tenantctl(["switch", "general_dev"], in: example.workspace)
        #expect(result.status == 0, "\(result.stderr)")
        try expectOn("general_dev", customised: [], sandbox, example)
    }
}

@Suite(.tags(.slow), .notInTheFastSet) struct SwitchTouchesOnlyWhatDiffersTests {
    @Test func aModuleWithTheSamePinIsNeitherFetchedNorChanged() throws {
        let sandbox = try GitSandbox()
        let example = try sandbox.exampleCopy(in: sandbox.path("erp"), stage: .beforeUpdates)
        #expect(sandbox.tenantctl(["switch", "t2"], in: example.workspace).status == 0)
        let shim = try GitShim(in: sandbox)
        let result = sandbox.tenantctl(["switch", "t3", "--git", shim.path], in: example.workspace)
        #expect(result.status == 0, "\(result.stderr)")
        let article = example.workspace + "/Modules/Article "
        let calls = try shim.calls()
        let inArticle = calls.filter { $0.contains("-C " + article) }
        let writing = ["fetch", "switch", "checkout", "branch", "update-ref", "merge", "reset", "submodule"]
        #expect(!inArticle.isEmpty, "Article is still inspected (dirty check)")
        for call in inArticle {
            let words = call.split(separator: " ").map(String.init)
            #expect(!writing.contains { words.contains($0) }, "Article was touched: \(call)")
        }
        // Order differs (general_dev → t3): it is fetched and switched.
        #expect(calls.contains { $0.contains("-C \(example.workspace)/Modules/Order ") && $0.contains(" fetch ") })
    }
}

@Suite struct SwitchOriginTests {
    /// A module checkout whose origin is another repository is refused, not switched.
    @Test func aModuleWhoseOriginDiffersFromTheManifestIsRefused() throws {
        let sandbox = try GitSandbox()
        let example = try sandbox.exampleCopy(in: sandbox.path("erp"), stage: .beforeUpdates)
        let infrastructure = example.workspace + "/Modules/Infrastructure"
        let elsewhere = sandbox.path("elsewhere/Infrastructure.git")
        try sandbox.git(["clone", "-q", "--bare", "\(example.remotes)/Infrastructure.git", elsewhere])
        try sandbox.git(["remote", "set-url", "origin", elsewhere], in: infrastructure)
        let repositories =
            [example.workspace]
            + ["Infrastructure", "Article", "Customer", "Order"].map {
                example.workspace + "/Modules/" + $0
            }
        let before = try repositories.map { try sandbox.refs($0) }
        let result = sandbox.tenantctl(["switch", "t2"], in: example.workspace)
        #expect(result.status == 1)
        #expect(result.stderr.contains("Infrastructure"), "\(result.stderr)")
        #expect(result.stderr.contains("its origin is \(elsewhere)"), "\(result.stderr)")
        #expect(result.stderr.contains("\(example.remotes)/Infrastructure.git"))
        #expect(try repositories.map { try sandbox.refs($0) } == before)
        // Put right, the same switch goes through.
        try sandbox.git(["remote", "set-url", "origin", "\(example.remotes)/Infrastructure.git"], in: infrastructure)
        #expect(sandbox.tenantctl(["switch", "t2"], in: example.workspace).status == 0)
    }
}

@Suite struct LocalRemotePermissionTests {
    @Test func exampleWorkspaceAllowsItsOwnLocalRemotesAndAPlainCloneDoesNot() throws {
        let sandbox = try GitSandbox()
        let example = try sandbox.exampleCopy(in: sandbox.path("erp"), stage: .beforeUpdates)
        let strict = ["TENANTCTL_ALLOW_LOCAL_REMOTES": "0"]
        #expect(try sandbox.git(["config", "--local", "tenantctl.allowLocalRemotes"], in: example.workspace) == "true")
        let allowed = sandbox.tenantctl(
            ["switch", "t2"], in: example.workspace + "/Modules/Article", environment: strict)
        #expect(allowed.status == 0, "\(allowed.stderr)")

        try sandbox.git(["clone", "-q", "\(example.remotes)/Superproject.git", sandbox.path("clone")])
        let before = try sandbox.refs(sandbox.path("clone"))
        let refused = sandbox.tenantctl(["switch", "t2"], in: sandbox.path("clone"), environment: strict)
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("transport 'file' not allowed"), "\(refused.stderr)")
        #expect(refused.stderr.contains("hint: this remote is a local path or file:// URL; allow local remotes"))
        #expect(try sandbox.refs(sandbox.path("clone")) == before)
    }
}
