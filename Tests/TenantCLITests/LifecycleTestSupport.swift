import Foundation
import TenantExample
import TenantKit
import TenantTestSupport
import Testing

/// An `example` workspace for lifecycle tests, with helpers that read and break it with plain git.
struct LifecycleExample {
    let sandbox: GitSandbox
    let result: ExampleResult

    static let modules = ["Infrastructure", "Article", "Customer", "Order"]
    static let repositories = modules + ["Superproject"]

    init(_ sandbox: GitSandbox, stage: ExampleStage = .beforeUpdates) throws {
        self.sandbox = sandbox
        result = try sandbox.exampleCopy(in: sandbox.path("example"), stage: stage)
    }

    var workspace: String { result.workspace }

    func remote(_ name: String) -> String { "\(result.remotes)/\(name).git" }

    /// Runs tenantctl in the workspace.
    func tenantctl(_ arguments: [String]) -> CLIResult {
        sandbox.tenantctl(arguments + ["-C", workspace])
    }

    /// Every ref of every remote and of the workspace (with HEAD), plus the workspace's status.
    func snapshot() throws -> [String: [String: String]] {
        var all: [String: [String: String]] = [:]
        for name in Self.repositories { all[name] = try sandbox.refs(remote(name)) }
        all["workspace"] = try sandbox.refs(workspace)
        all["workspace status"] = ["status": try sandbox.git(["status", "--porcelain=v2", "-uall"], in: workspace)]
        return all
    }

    /// Branch name → commit of a remote.
    func branches(_ name: String) throws -> [String: String] {
        var branches: [String: String] = [:]
        for (ref, id) in try sandbox.refs(remote(name)) where ref.hasPrefix("refs/heads/") {
            branches[String(ref.dropFirst(11))] = id
        }
        return branches
    }

    /// The commit a superproject branch pins for a module.
    func pin(_ branch: String, _ module: String) throws -> String {
        let line = try sandbox.git(["ls-tree", branch, "--", "Modules/\(module)"], in: remote("Superproject"))
        return String(line.split(separator: " ")[2].prefix(40))
    }

    /// A file on a superproject branch.
    func file(_ branch: String, _ path: String) throws -> String {
        try sandbox.git(["show", "\(branch):\(path)"], in: remote("Superproject"))
    }

    /// For every tenant branch and module: does the pin equal the tip of the module's tenant branch (customised)
    /// or of general_dev? And which modules are customised per tenant?
    func layout() throws -> [String: [String: String]] {
        var layout: [String: [String: String]] = [:]
        for tenant in ["t1", "t2", "t3"] {
            let json = try file("general_dev", "Tenants/\(tenant).json")
            var row: [String: String] = [:]
            for module in Self.modules {
                let moduleBranches = try branches(module)
                let pin = try pin(tenant, module)
                let declared = json.contains("\"customised\": [") && customised(json).contains(module)
                let branch = declared ? tenant : "general_dev"
                row[module] = (moduleBranches[branch] == pin ? "tip of " : "NOT tip of ") + branch
            }
            layout[tenant] = row
        }
        for module in Self.modules { layout["branches of \(module)"] = try branches(module).mapValues { _ in "" } }
        return layout
    }

    private func customised(_ json: String) -> [String] {
        guard let data = json.data(using: .utf8),
            let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
        else { return [] }
        return object["customised"] as? [String] ?? []
    }

    /// Changes superproject branches with plain git in a scratch clone and pushes them.
    func editSuperproject(_ branch: String, files: [String: String] = [:], gitlinks: [String: String] = [:])
        throws
    {
        let clone = sandbox.path("edit-\(UUID().uuidString.prefix(6))")
        try sandbox.git(["clone", "-q", "--branch", branch, remote("Superproject"), clone])
        for (path, content) in files {
            let url = URL(fileURLWithPath: clone + "/" + path)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try content.write(to: url, atomically: true, encoding: .utf8)
            try sandbox.git(["add", "--", path], in: clone)
        }
        for (path, id) in gitlinks {
            try sandbox.git(["update-index", "--add", "--cacheinfo", "160000,\(id),\(path)"], in: clone)
        }
        try sandbox.git(["commit", "-q", "-m", "test edit"], in: clone)
        try sandbox.git(["push", "-q", "origin", branch], in: clone)
    }

    /// The example where t3 has not customised Order yet: no Order branch t3, t3 pins Order's general_dev tip,
    /// Tenants/t3.json declares nothing customised.
    func uncustomiseT3Order() throws {
        let t3 = try #require(ExampleScenario.tenantJSON.first { $0.id == "t3" }?.json)
        let plain = t3.replacingOccurrences(of: "\"customised\": [\"Order\"]", with: "\"customised\": []")
        let general = try #require(try branches("Order")["general_dev"])
        try editSuperproject("general_dev", files: ["Tenants/t3.json": plain])
        try editSuperproject("t3", files: ["Tenants/t3.json": plain], gitlinks: ["Modules/Order": general])
        try sandbox.git(["update-ref", "-d", "refs/heads/t3"], in: remote("Order"))
        try sandbox.git(["fetch", "-q", "origin"], in: workspace)
    }
}
