import Foundation
import TenantExample
import TenantKit
import TenantTestSupport
import Testing

/// Checks the example's repositories with plain git run by the test, not through the builder.
@Suite(.tags(.slow), .notInTheFastSet) struct ExampleBuilderTests {
    static let modules = ["Infrastructure", "Article", "Customer", "Order"]
    static let updated = ["Infrastructure", "Article", "Order"]

    /// A runner that does not allow local remotes: the builder must allow them itself, for its own directories.
    static func build(_ sandbox: GitSandbox, _ relative: String, stage: ExampleStage = .beforeUpdates) throws
        -> ExampleResult
    {
        var environment = sandbox.environment
        environment["TENANTCTL_ALLOW_LOCAL_REMOTES"] = nil
        let git = try Git(environment: environment, allowLocalRemotes: false)
        return try ExampleBuilder(git: git).build(in: sandbox.path(relative), stage: stage)
    }

    /// Branch → commit id of a repository, from `for-each-ref`.
    static func branches(_ sandbox: GitSandbox, _ repository: String) throws -> [String: String] {
        var result: [String: String] = [:]
        for (ref, id) in try sandbox.refs(repository) where ref.hasPrefix("refs/heads/") {
            result[String(ref.dropFirst("refs/heads/".count))] = id
        }
        return result
    }

    /// Path → gitlink commit of a superproject branch, from `ls-tree`.
    static func pins(_ sandbox: GitSandbox, _ repository: String, _ branch: String) throws -> [String: String] {
        try sandbox.gitlinks(on: branch, in: repository).filter { $0.key.hasPrefix("Modules/") }
    }

    @Test func createsTheBranchesAndPinsOfTheThesisExample() throws {
        let sandbox = try GitSandbox()
        let result = try Self.build(sandbox, "erp")
        let remotes = sandbox.path("erp/remotes")
        #expect(result.remotes == remotes && result.workspace == sandbox.path("erp/workspace"))
        #expect(
            Set(try FileManager.default.contentsOfDirectory(atPath: remotes))
                == Set((Self.modules + ["Superproject"]).map { "\($0).git" }))

        let expectedBranches: [String: Set<String>] = [
            "Superproject": ["general_dev", "t1", "t2", "t3"], "Infrastructure": ["general_dev", "t2"],
            "Article": ["general_dev"], "Customer": ["general_dev", "t2"], "Order": ["general_dev", "t3"],
        ]
        var tips: [String: [String: String]] = [:]
        for (repository, expected) in expectedBranches {
            let path = "\(remotes)/\(repository).git"
            tips[repository] = try Self.branches(sandbox, path)
            #expect(Set(tips[repository]?.keys ?? [:].keys) == expected, "\(repository)")
            #expect(try sandbox.git(["symbolic-ref", "HEAD"], in: path) == "refs/heads/general_dev")
            #expect(try sandbox.git(["rev-parse", "--is-bare-repository"], in: path) == "true")
        }
        #expect(result.branches == tips)
        for module in Self.modules {
            let count = try sandbox.git(["rev-list", "--count", "general_dev"], in: "\(remotes)/\(module).git")
            #expect((Int(count) ?? 0) >= 3, "\(module)")
        }

        let superproject = "\(remotes)/Superproject.git"
        let customised = ["t1": [String](), "t2": ["Infrastructure", "Customer"], "t3": ["Order"]]
        for branch in ["general_dev", "t1", "t2", "t3"] {
            var expected: [String: String] = [:]
            for module in Self.modules {
                let source = customised[branch]?.contains(module) == true ? branch : "general_dev"
                expected["Modules/\(module)"] = tips[module]?[source]
            }
            #expect(try Self.pins(sandbox, superproject, branch) == expected, "pins of \(branch)")
            if branch != "general_dev" {
                #expect(
                    try sandbox.git(["rev-parse", "\(branch)^"], in: superproject)
                        == tips["Superproject"]?["general_dev"])
            }
        }

        // Files: manifest, tenants and .gitmodules agree with the scenario; branding only on tenant branches.
        #expect(
            try sandbox.git(["show", "general_dev:modules.json"], in: superproject) + "\n"
                == ExampleScenario.modulesJSON)
        #expect(
            try sandbox.git(["show", "t2:Tenants/t2.json"], in: superproject).contains(
                "\"customised\": [\"Infrastructure\", \"Customer\"]"))
        let gitmodules = try sandbox.git(["config", "--blob", "general_dev:.gitmodules", "--list"], in: superproject)
        for module in Self.modules {
            #expect(gitmodules.contains("submodule.\(module).path=Modules/\(module)"))
            #expect(gitmodules.contains("submodule.\(module).url=../\(module).git"))
        }
        let changed = try sandbox.git(["diff", "--name-only", "general_dev", "t2"], in: superproject)
        #expect(changed.contains("ColourScheme.conf") && changed.contains("Modules/Customer"))
        #expect(!changed.contains("Modules/Article") && !changed.contains("Modules/Order"))
        #expect(
            try sandbox.git(["show", "t3:Sources/Order/OrderLoader.swift"], in: "\(remotes)/Order.git").contains(
                "SBJson"))
        let t3Description = try sandbox.git(["show", "t3:ModuleDescription.json"], in: "\(remotes)/Order.git")
        #expect(t3Description.contains("SBJson"))

        // Workspace: general_dev, modules checked out on a branch (not detached) at the pins.
        let workspace = result.workspace
        #expect(try sandbox.git(["symbolic-ref", "--short", "HEAD"], in: workspace) == "general_dev")
        #expect(try sandbox.git(["status", "--porcelain"], in: workspace).isEmpty)
        for module in Self.modules {
            let checkout = "\(workspace)/Modules/\(module)"
            #expect(try sandbox.git(["symbolic-ref", "--short", "HEAD"], in: checkout) == "general_dev")
            #expect(try sandbox.git(["rev-parse", "HEAD"], in: checkout) == tips[module]?["general_dev"])
            #expect(
                try sandbox.git(["rev-parse", "--abbrev-ref", "@{upstream}"], in: checkout) == "origin/general_dev")
        }
    }

    @Test func cloneRecurseSubmodulesWorksForEveryBranch() throws {
        let sandbox = try GitSandbox()
        let result = try Self.build(sandbox, "erp")
        for branch in ["general_dev", "t2"] {
            let clone = sandbox.path("clone-\(branch)")
            try sandbox.git([
                "-c", "protocol.file.allow=always", "clone", "-q", "--recurse-submodules", "-b", branch,
                "\(result.remotes)/Superproject.git", clone,
            ])
            let status = try sandbox.git(["submodule", "status"], in: clone)
            #expect(status.split(separator: "\n").count == 4)
            // A leading "-" means not initialised, "+" not at the pin, "U" conflicts.
            #expect(!status.split(separator: "\n").contains { ["-", "+", "U"].contains($0.first) })
        }
        let german = try sandbox.read("clone-t2/Modules/Infrastructure/Strings.csv")
        #expect(german.hasPrefix("key,en,de"))
        #expect(try sandbox.read("clone-t2/Modules/Customer/MyStrings.csv").contains("customer.validation.email"))
        #expect(try sandbox.read("clone-general_dev/Modules/Infrastructure/Strings.csv").hasPrefix("key,en\n"))
    }

    @Test func commitIdsAreIdenticalAcrossRunsAndStagesOnlyAddTheUpdates() throws {
        let sandbox = try GitSandbox()
        let before = try Self.build(sandbox, "one/erp")
        let after = try Self.build(sandbox, "two/deeper/erp", stage: .afterUpdates)
        let again = try Self.build(sandbox, "three", stage: .afterUpdates)
        #expect(after.branches == again.branches)
        for repository in ["Superproject"] + Self.modules {
            let one = try Self.branches(sandbox, "\(before.remotes)/\(repository).git")
            let two = try Self.branches(sandbox, "\(after.remotes)/\(repository).git")
            let three = try Self.branches(sandbox, "\(again.remotes)/\(repository).git")
            #expect(two == three, "\(repository)")
            #expect(one == before.branches[repository])
            for (branch, id) in one where !(branch == "general_dev" && Self.updated.contains(repository)) {
                #expect(two[branch] == id, "\(repository)/\(branch) differs between stages")
            }
        }
        for module in Self.updated {
            let repository = "\(after.remotes)/\(module).git"
            #expect(
                try sandbox.git(["rev-parse", "general_dev^"], in: repository)
                    == before.branches[module]?["general_dev"])
            let count = try sandbox.git(["rev-list", "--count", "general_dev"], in: repository)
            let earlier = try sandbox.git(
                ["rev-list", "--count", "general_dev"], in: "\(before.remotes)/\(module).git")
            #expect(Int(count) == (Int(earlier) ?? 0) + 1, "\(module)")
            // The superproject still pins the pre-update commit; the workspace module is behind its origin by one.
            let workspaceModule = "\(after.workspace)/Modules/\(module)"
            #expect(try sandbox.git(["rev-list", "--count", "HEAD..origin/general_dev"], in: workspaceModule) == "1")
        }
        #expect(after.branches["Customer"] == before.branches["Customer"])
        // The update merges into the tenant branches without conflicts (what roll will do).
        for (module, tenant) in [("Infrastructure", "t2"), ("Order", "t3")] {
            let repository = "\(after.remotes)/\(module).git"
            let merge = try sandbox.gitResult(
                ["merge-tree", "--write-tree", "--name-only", tenant, "general_dev"], in: repository)
            #expect(merge.status == 0, "\(module): \(merge.stdout)")
        }
    }

    @Test func refusesANonEmptyDirectoryAndWritesNothing() throws {
        let sandbox = try GitSandbox()
        try sandbox.write("busy/notes.txt", "mine\n")
        let error = #expect(throws: ExampleError.self) { try Self.build(sandbox, "busy") }
        #expect(error?.description.contains("not empty") == true)
        #expect(try FileManager.default.contentsOfDirectory(atPath: sandbox.path("busy")) == ["notes.txt"])

        try sandbox.write("file", "x\n")
        #expect(throws: ExampleError.self) { try Self.build(sandbox, "file") }

        try FileManager.default.createDirectory(atPath: sandbox.path("empty"), withIntermediateDirectories: true)
        let result = try Self.build(sandbox, "empty")
        #expect(result.directory == sandbox.path("empty"))
    }

    @Test func aFailingGitLeavesNothingBehind() throws {
        let sandbox = try GitSandbox()
        let shim = try GitShim(in: sandbox)
        var environment = sandbox.environment
        environment["SHIM_FAIL_AT"] = "12"  // init + fast-import for 5 repositories, clone, then submodule update
        let git = try Git(executable: shim.path, environment: environment)
        #expect(throws: GitError.self) {
            try ExampleBuilder(git: git).build(in: sandbox.path("new/erp"), stage: .beforeUpdates)
        }
        #expect(try shim.calls().last?.contains("submodule update") == true)
        #expect(!FileManager.default.fileExists(atPath: sandbox.path("new/erp")))

        try FileManager.default.createDirectory(atPath: sandbox.path("empty"), withIntermediateDirectories: true)
        try shim.reset()
        #expect(throws: GitError.self) {
            try ExampleBuilder(git: git).build(in: sandbox.path("empty"), stage: .beforeUpdates)
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: sandbox.path("empty")).isEmpty)
    }
}

@Suite struct ExampleLandUpdatesTests {
    @Test func landingUpdatesLaterGivesTheSameCommitsAsTheAfterUpdatesStage() throws {
        let sandbox = try GitSandbox()
        let git = try sandbox.gitRunner()
        let before = try ExampleBuilder(git: git).build(in: sandbox.path("before"), stage: .beforeUpdates)
        let after = try ExampleBuilder(git: git).build(in: sandbox.path("after"), stage: .afterUpdates)
        let tips = try ExampleBuilder(git: git).landUpdates(remotes: before.remotes)
        #expect(tips.keys.sorted() == ["Article", "Infrastructure", "Order"])
        for module in ["Infrastructure", "Article", "Customer", "Order", "Superproject"] {
            var landed = try sandbox.refs("\(before.remotes)/\(module).git")
            var built = try sandbox.refs("\(after.remotes)/\(module).git")
            landed["HEAD"] = nil
            built["HEAD"] = nil
            #expect(landed == built, "\(module)")
        }
        #expect(tips["Article"] == (try sandbox.git(["rev-parse", "general_dev"], in: "\(after.remotes)/Article.git")))
    }
}
