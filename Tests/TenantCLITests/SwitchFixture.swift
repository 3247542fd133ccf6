import Foundation
import TenantTestSupport
import Testing

/// A small ERP-shaped workspace for switch/status/pin tests, built with plain git: bare remotes under
/// `remotes/`, and `workspace/` cloned on `general_dev` with submodules initialised (detached at the pins).
/// Same shape as `tenantctl example`: Infrastructure `t2`, Customer `t2`, Order `t3`; t2 pins Infrastructure@t2 and
/// Customer@t2, t3 pins Order@t3, everything else the module `general_dev` tips.
struct SwitchFixture {
    static let modules = ["Infrastructure", "Article", "Customer", "Order"]
    static let tenantBranches: [String: [String]] = ["Infrastructure": ["t2"], "Customer": ["t2"], "Order": ["t3"]]

    let sandbox: GitSandbox
    /// The superproject working copy.
    let workspace: String

    /// - Parameter nested: Article has a submodule of its own, `Vendor/Lib` (remote `remotes/Lib.git`).
    init(sandbox: GitSandbox, nested: Bool = false) throws {
        self.sandbox = sandbox
        let source = "src"
        if nested {
            try sandbox.makeRepository("\(source)/Lib", branch: "main", files: ["Lib.c": "/* lib */\n"])
            try sandbox.git(["clone", "-q", "--bare", sandbox.path("\(source)/Lib"), sandbox.path("remotes/Lib.git")])
        }
        for module in Self.modules {
            try sandbox.makeRepository(
                "\(source)/\(module)", branch: "general_dev", files: ["\(module).swift": "// \(module)\n"])
            if nested && module == "Article" {
                let article = sandbox.path("\(source)/Article")
                try sandbox.git(["submodule", "add", "-q", sandbox.path("remotes/Lib.git"), "Vendor/Lib"], in: article)
                try sandbox.git(["commit", "-q", "-m", "Article: vendor Lib"], in: article)
            }
            for branch in Self.tenantBranches[module] ?? [] {
                try sandbox.git(["switch", "-q", "-c", branch], in: sandbox.path("\(source)/\(module)"))
                try sandbox.commit(
                    in: "\(source)/\(module)", file: "Strings.csv", content: "\(branch);\(module)\n",
                    message: "\(module): \(branch) customisation")
                try sandbox.git(["switch", "-q", "general_dev"], in: sandbox.path("\(source)/\(module)"))
            }
            try sandbox.git([
                "clone", "-q", "--bare", sandbox.path("\(source)/\(module)"), sandbox.path("remotes/\(module).git"),
            ])
        }
        let superRemote = sandbox.path("remotes/Superproject.git")
        try sandbox.git(["init", "-q", "--bare", "-b", "general_dev", superRemote])
        let build = sandbox.path("\(source)/Superproject")
        try sandbox.git(["clone", "-q", superRemote, build])
        try sandbox.git(["switch", "-q", "--orphan", "general_dev"], in: build)
        var manifestModules: [String] = []
        for (index, module) in Self.modules.enumerated() {
            try sandbox.git(["submodule", "add", "-q", "../\(module).git", "Modules/\(module)"], in: build)
            let depends = index == 0 ? "[]" : "[\"Infrastructure\"]"
            manifestModules.append(
                "    { \"name\": \"\(module)\", \"path\": \"Modules/\(module)\", \"url\": \"../\(module).git\", "
                    + "\"dependsOn\": \(depends) }")
        }
        try sandbox.write(
            "\(source)/Superproject/modules.json",
            "{\n  \"version\": 1,\n  \"generalBranch\": \"general_dev\",\n  \"modules\": [\n"
                + manifestModules.joined(separator: ",\n") + "\n  ]\n}\n")
        let tenants: [(String, [String])] = [("t1", []), ("t2", ["Infrastructure", "Customer"]), ("t3", ["Order"])]
        for (id, customised) in tenants {
            let active = id == "t2" ? ["Infrastructure", "Customer"] : Self.modules
            func list(_ names: [String]) -> String { "[" + names.map { "\"\($0)\"" }.joined(separator: ", ") + "]" }
            try sandbox.write(
                "\(source)/Superproject/Tenants/\(id).json",
                "{ \"id\": \"\(id)\", \"branch\": \"\(id)\", \"modules\": \(list(active)), "
                    + "\"customised\": \(list(customised)) }\n")
        }
        try sandbox.write("\(source)/Superproject/ColourScheme.conf", "colour=grey\n")
        try sandbox.git(["add", "-A"], in: build)
        try sandbox.git(["commit", "-q", "-m", "general_dev: modules and tenants"], in: build)
        for (id, _) in tenants {
            try sandbox.git(["switch", "-q", "-c", id, "general_dev"], in: build)
            try sandbox.write("\(source)/Superproject/ColourScheme.conf", "colour=\(id)\n")
            for (module, branches) in Self.tenantBranches where branches.contains(id) {
                try sandbox.git(["checkout", "-q", "--detach", "origin/\(id)"], in: build + "/Modules/\(module)")
            }
            try sandbox.git(["add", "-A"], in: build)
            try sandbox.git(["commit", "-q", "-m", "\(id): branding and pins"], in: build)
            try sandbox.git(["switch", "-q", "general_dev"], in: build)
            try sandbox.git(["submodule", "-q", "update"], in: build)
        }
        try sandbox.git(["push", "-q", "origin", "general_dev", "t1", "t2", "t3"], in: build)
        workspace = sandbox.path("workspace")
        try sandbox.git(["clone", "-q", "--recurse-submodules", "-b", "general_dev", superRemote, workspace])
    }

    /// Absolute path of a module in the workspace.
    func module(_ name: String) -> String { workspace + "/Modules/" + name }

    /// The pin of `module` on superproject branch `branch` of the remote.
    func pin(_ module: String, on branch: String) throws -> String {
        try sandbox.git(["rev-parse", "origin/\(branch):Modules/\(module)"], in: workspace)
    }

    /// Everything that must not change on a refusal: per repository, `status --porcelain=v2` with untracked and
    /// ignored files, HEAD, the index, every ref and the local config (of the superproject and `modules`).
    /// `superprojectStatus: false` leaves out the superproject's `status` (git refuses it while a module path is
    /// a symbolic link).
    func snapshot(modules: [String] = SwitchFixture.modules, superprojectStatus: Bool = true) throws -> [String: String]
    {
        try Self.snapshot(
            sandbox: sandbox, repositories: [("superproject", workspace)] + modules.map({ ($0, module($0)) }),
            superprojectStatus: superprojectStatus)
    }

    /// ``snapshot(modules:superprojectStatus:)`` of any repositories (name, path); the one named `superproject`
    /// is the superproject.
    static func snapshot(
        sandbox: GitSandbox, repositories: [(String, String)], superprojectStatus: Bool = true
    ) throws -> [String: String] {
        var result: [String: String] = [:]
        for (name, path) in repositories {
            let status =
                name == "superproject" && !superprojectStatus
                ? try sandbox.git(["ls-files", "--others", "--ignored", "--exclude-standard"], in: path)
                : try sandbox.git(
                    ["status", "--porcelain=v2", "--branch", "--untracked-files=all", "--ignored"], in: path)
            let head = try sandbox.git(["rev-parse", "HEAD"], in: path)
            let index = try sandbox.git(["ls-files", "--stage"], in: path)
            let refs = try sandbox.refs(path).sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }
            let config = try sandbox.git(["config", "--local", "--list"], in: path)
            result[name] = [status, head, index, refs.joined(separator: "\n"), config].joined(separator: "\n--\n")
        }
        return result
    }
}
