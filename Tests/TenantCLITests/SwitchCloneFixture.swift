import Foundation
import TenantExample
import TenantKit
import TenantTestSupport
import Testing

/// The example's remotes, cloned as a new user would (`git clone --recurse-submodules`, or a plain `git clone`):
/// modules detached at the pins of `general_dev`, each with a local `general_dev` at the remote tip.
struct SwitchCloneFixture {
    static let modules = ["Infrastructure", "Article", "Customer", "Order"]

    let sandbox: GitSandbox
    let example: ExampleResult
    /// The user's clone.
    let workspace: String

    /// - Parameters:
    ///   - stage: `.afterUpdates`: general development moved on after the last roll (module tips ahead of the pins).
    ///   - recurse: `git clone --recurse-submodules`; else a plain clone whose modules are empty directories.
    ///
    /// The example and its clone are built once per test process for each `stage` and `recurse`
    /// (``DirectoryTemplates``) and copied into the sandbox: `erp/` (the example, with its remotes) and `clone/`; the
    /// copy's remote and submodule URLs name its own `erp/remotes`.
    init(stage: ExampleStage = .afterUpdates, recurse: Bool = true, function: String = #function) throws {
        let sandbox = try GitSandbox(function: function)
        self.sandbox = sandbox
        let key = "switch-clone-\(stage.rawValue)" + (recurse ? "-recursive" : "-plain")
        let (built, template) = try DirectoryTemplates.shared.copy(key, to: sandbox.root) { directory in
            let example = try sandbox.exampleCopy(in: directory + "/erp", stage: stage)
            try sandbox.git(
                ["clone", "-q"] + (recurse ? ["--recurse-submodules"] : []) + [
                    "-b", "general_dev", "\(example.remotes)/Superproject.git", directory + "/clone",
                ])
            return example
        }
        func moved(_ path: String) -> String {
            path.hasPrefix(template) ? sandbox.root + path.dropFirst(template.count) : path
        }
        var example = built
        example.directory = moved(built.directory)
        example.remotes = moved(built.remotes)
        example.workspace = moved(built.workspace)
        self.example = example
        workspace = sandbox.path("clone")
    }

    /// A bare remote of the example.
    func remote(_ name: String) -> String { "\(example.remotes)/\(name).git" }

    /// Absolute path of a module in the clone.
    func module(_ name: String) -> String { workspace + "/Modules/" + name }

    /// The pin of `module` on superproject branch `branch` of the remote.
    func pin(_ module: String, on branch: String) throws -> String {
        try sandbox.git(["rev-parse", "\(branch):Modules/\(module)"], in: remote("Superproject"))
    }

    /// Runs tenantctl in the clone.
    func tenantctl(_ arguments: [String]) -> CLIResult { sandbox.tenantctl(arguments, in: workspace) }

    /// Everything a refusal must leave byte-for-byte: per repository HEAD, every ref, the index, the status with
    /// untracked files, and the local config (upstreams).
    func snapshot() throws -> [String: String] {
        try SwitchCloneFixture.snapshot(sandbox, workspace: workspace, modules: Self.modules)
    }

    static func snapshot(_ sandbox: GitSandbox, workspace: String, modules: [String]) throws -> [String: String] {
        var result: [String: String] = [:]
        for (name, path) in [("superproject", workspace)] + modules.map({ ($0, workspace + "/Modules/" + $0) }) {
            guard FileManager.default.fileExists(atPath: path + "/.git") else {
                let listing = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? ["(missing)"]
                result[name] = "not a repository: " + listing.sorted().joined(separator: ",")
                continue
            }
            let status = try sandbox.git(["status", "--porcelain=v2", "--branch", "--untracked-files=all"], in: path)
            result[name] = try SwitchFixture.state(sandbox, of: path, status: status)
        }
        return result
    }

    /// Asserts a refusal: exit 1, the phrases on stderr, every repository unchanged.
    func expectRefusal(
        _ arguments: [String], mentioning phrases: [String], sourceLocation: SourceLocation = #_sourceLocation
    )
        throws
    {
        let before = try snapshot()
        let result = tenantctl(arguments)
        #expect(
            result.status == 1, "stdout: \(result.stdout)\nstderr: \(result.stderr)", sourceLocation: sourceLocation)
        for phrase in phrases {
            #expect(
                result.stderr.contains(phrase), "stderr lacks '\(phrase)': \(result.stderr)",
                sourceLocation: sourceLocation)
        }
        let after = try snapshot()
        for (repository, state) in before {
            #expect(after[repository] == state, "\(repository) changed", sourceLocation: sourceLocation)
        }
    }

    /// Asserts the clone is `tenant`: superproject on its branch, every module on its branch at the pin.
    func expectOn(
        _ tenant: String, customised: Set<String>, modules: [String] = modules,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        #expect(
            try sandbox.git(["symbolic-ref", "--short", "HEAD"], in: workspace) == tenant,
            sourceLocation: sourceLocation)
        for module in modules {
            let branch = customised.contains(module) ? tenant : "general_dev"
            #expect(
                try sandbox.git(["symbolic-ref", "--short", "HEAD"], in: self.module(module)) == branch,
                "\(module) on \(branch)", sourceLocation: sourceLocation)
            #expect(
                try sandbox.git(["rev-parse", "HEAD"], in: self.module(module)) == pin(module, on: tenant),
                "\(module) at the pin of \(tenant)", sourceLocation: sourceLocation)
        }
    }

    /// Commits `files` onto `branch` of the superproject remote through a scratch clone (what a colleague pushes).
    @discardableResult
    func pushSuperproject(branch: String, files: [String: String], message: String) throws -> String {
        let scratch = sandbox.path("scratch-\(UUID().uuidString.prefix(8))")
        try sandbox.git(["clone", "-q", "-b", branch, remote("Superproject"), scratch])
        for (path, content) in files {
            let url = URL(fileURLWithPath: scratch + "/" + path)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try content.write(to: url, atomically: false, encoding: .utf8)
        }
        try sandbox.git(["add", "-A"], in: scratch)
        try sandbox.git(["commit", "-q", "-m", message], in: scratch)
        try sandbox.git(["push", "-q", "origin", branch], in: scratch)
        return try sandbox.git(["rev-parse", "HEAD"], in: scratch)
    }

    /// The JSON of `tenantctl status --json` in the clone.
    func status() throws -> [String: Any] {
        let result = tenantctl(["status", "--json"])
        try #require(result.status == 0, "\(result.stderr)")
        return try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
    }
}
