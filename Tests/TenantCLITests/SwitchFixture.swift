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
    ///
    /// The fixture is built once per test process (``DirectoryTemplates``) and copied into `sandbox`.
    init(sandbox: GitSandbox, nested: Bool = false) throws {
        self.sandbox = sandbox
        _ = try DirectoryTemplates.shared.copy(nested ? "switch-fixture-nested" : "switch-fixture", to: sandbox.root) {
            template in
            let builder = try GitSandbox(function: "switchFixtureTemplate")
            try Self.buildRepositories(in: builder, nested: nested)
            try DirectoryTemplates.copyTree(from: builder.root, to: template, excluding: [".home"])
        }
        workspace = sandbox.path("workspace")
    }

    /// Builds the fixture's `src/`, `remotes/` and `workspace/` in `sandbox`.
    private static func buildRepositories(in sandbox: GitSandbox, nested: Bool) throws {
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
        for module in Self.modules {
            try sandbox.git(["submodule", "add", "-q", "../\(module).git", "Modules/\(module)"], in: build)
        }
        let tenants: [(String, [String])] = [("t1", []), ("t2", ["Infrastructure", "Customer"]), ("t3", ["Order"])]
        try Self.writeManifest(
            sandbox, modules: Self.modules,
            tenants: tenants.map { id, customised in
                (id, id == "t2" ? ["Infrastructure", "Customer"] : Self.modules, customised)
            })
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
        try sandbox.git([
            "clone", "-q", "--recurse-submodules", "-b", "general_dev", superRemote, sandbox.path("workspace"),
        ])
    }

    /// The superproject's build clone (`src/Superproject`), from which the fixture pushed the remote's branches.
    static let build = "src/Superproject"

    /// Writes `modules.json` (the modules in this order, each depending on the first) and `Tenants/<id>.json` (id,
    /// active modules, customised modules) in the build clone.
    static func writeManifest(
        _ sandbox: GitSandbox, modules: [String], tenants: [(id: String, active: [String], customised: [String])]
    ) throws {
        let entries = modules.enumerated().map { index, module in
            let depends = index == 0 ? "[]" : "[\"\(modules[0])\"]"
            return "    { \"name\": \"\(module)\", \"path\": \"Modules/\(module)\", \"url\": \"../\(module).git\", "
                + "\"dependsOn\": \(depends) }"
        }
        try sandbox.write(
            "\(build)/modules.json",
            "{\n  \"version\": 1,\n  \"generalBranch\": \"general_dev\",\n  \"modules\": [\n"
                + entries.joined(separator: ",\n") + "\n  ]\n}\n")
        func list(_ names: [String]) -> String { "[" + names.map { "\"\($0)\"" }.joined(separator: ", ") + "]" }
        for (id, active, customised) in tenants {
            try sandbox.write(
                "\(build)/Tenants/\(id).json",
                "{ \"id\": \"\(id)\", \"branch\": \"\(id)\", \"modules\": \(list(active)), "
                    + "\"customised\": \(list(customised)) }\n")
        }
    }

    /// Moves the remote's superproject branch `branch` on by one commit (a new `ColourScheme.conf`), made in the
    /// build clone and pushed; returns the commit.
    @discardableResult
    func pushColour(_ colour: String, on branch: String) throws -> String {
        let build = sandbox.path(Self.build)
        try sandbox.git(["switch", "-q", branch], in: build)
        try sandbox.git(["pull", "-q", "--ff-only", "origin", branch], in: build)
        try sandbox.write("\(Self.build)/ColourScheme.conf", "colour=\(colour)\n")
        try sandbox.git(["commit", "-q", "-am", "\(branch): \(colour)"], in: build)
        try sandbox.git(["push", "-q", "origin", branch], in: build)
        return try sandbox.git(["rev-parse", "HEAD"], in: build)
    }

    /// Makes `.gitmodules` on the remote's superproject branch `branch` name `url` for `module` (not modules.json's
    /// URL), in one pushed commit of the build clone.
    func pointGitmodules(of module: String, to url: String, on branch: String) throws {
        let build = sandbox.path(Self.build)
        try sandbox.git(["switch", "-q", branch], in: build)
        try sandbox.git(["config", "--file", ".gitmodules", "submodule.Modules/\(module).url", url], in: build)
        try sandbox.git(["commit", "-q", "-am", "\(branch): \(module) points elsewhere"], in: build)
        try sandbox.git(["push", "-q", "origin", branch], in: build)
    }

    /// Switches to t2, commits "local work" on Infrastructure's t2 (no remote has it), then switches to t3: t2 stays
    /// ahead of its pin with unpushed work. Returns the commit.
    func leaveUnpushedWorkOnT2(sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        #expect(sandbox.tenantctl(["switch", "t2"], in: workspace).status == 0, sourceLocation: sourceLocation)
        let local = try sandbox.commit(
            in: "workspace/Modules/Infrastructure", file: "Local.swift", content: "// mine\n", message: "local work")
        #expect(sandbox.tenantctl(["switch", "t3"], in: workspace).status == 0, sourceLocation: sourceLocation)
        return local
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
            result[name] = try state(sandbox, of: path, status: status)
        }
        return result
    }

    /// One repository's part of a snapshot: `status` (as the caller read it), then HEAD, the index, every ref and
    /// the local config.
    static func state(_ sandbox: GitSandbox, of path: String, status: String) throws -> String {
        let head = try sandbox.git(["rev-parse", "HEAD"], in: path)
        let index = try sandbox.git(["ls-files", "--stage"], in: path)
        let refs = try sandbox.refs(path).sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }
        let config = try sandbox.git(["config", "--local", "--list"], in: path)
        return [status, head, index, refs.joined(separator: "\n"), config].joined(separator: "\n--\n")
    }
}
