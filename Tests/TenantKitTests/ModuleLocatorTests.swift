import Foundation
import TenantKit
import TenantTestSupport
import Testing

@testable import TenantGit

/// Finding a module on a branch that has it at another path (by submodule name, then URL), and git's ignore output.
@Suite struct ModuleLocatorTests {
    let module = Module(name: "libdshowcapture", path: "deps/libdshowcapture/src", url: "https://example.com/o/ldc.git")

    @Test func theSubmoduleNameComesFirstThenTheOneEntryWithTheURL() {
        let byName = [
            GitmodulesEntry(name: "plugins/ldc", path: "plugins/ldc", url: "https://mirror.example/ldc"),
            GitmodulesEntry(name: "other", path: "other", url: "https://example.com/o/ldc.git"),
        ]
        #expect(ModuleLocator.path(of: module, submoduleName: "plugins/ldc", in: byName) == "plugins/ldc")
        // Without a submodule name of the general branch: the URL, with or without `.git` and a trailing slash.
        let byURL = [GitmodulesEntry(name: "x", path: "old/ldc", url: "https://example.com/o/ldc/")]
        #expect(ModuleLocator.path(of: module, submoduleName: nil, in: byURL) == "old/ldc")
        #expect(ModuleLocator.path(of: module, submoduleName: "gone", in: byURL) == "old/ldc")
        // Two entries with that URL: neither is taken.
        let twice = byURL + [GitmodulesEntry(name: "y", path: "old/ldc2", url: "https://example.com/o/ldc.git")]
        #expect(ModuleLocator.path(of: module, submoduleName: nil, in: twice) == nil)
        #expect(ModuleLocator.path(of: module, submoduleName: nil, in: []) == nil)
    }

    /// The reference's `.gitmodules` names today's path twice: the module's submodule name is the one git gives
    /// that path (the last section), so an older commit has it where that name is, not where the first name is.
    @Test func aPathNamedTwiceOnTheReferenceIsFoundByTheNameGitGivesIt() throws {
        let sandbox = try GitSandbox()
        let path = try sandbox.makeRepository("super")
        let pin = try sandbox.git(["rev-parse", "HEAD"], in: path)
        func commit(_ gitmodules: String, gitlinks: [String], removing: [String] = []) throws -> String {
            try sandbox.write("super/.gitmodules", gitmodules)
            try sandbox.git(["add", "--", ".gitmodules"], in: path)
            for gone in removing { try sandbox.git(["rm", "-q", "--cached", "--", gone], in: path) }
            for link in gitlinks {
                try sandbox.git(["update-index", "--add", "--cacheinfo", "160000,\(pin),\(link)"], in: path)
            }
            try sandbox.git(["commit", "-q", "-m", "gitmodules"], in: path)
            return try sandbox.git(["rev-parse", "HEAD"], in: path)
        }
        // Older: the submodule `second` at old/x, `first` at other/y, nothing at libs/x.
        let older = try commit(
            "[submodule \"second\"]\n\tpath = old/x\n\turl = https://example.com/x\n"
                + "[submodule \"first\"]\n\tpath = other/y\n\turl = https://example.com/y\n",
            gitlinks: ["old/x", "other/y"])
        // The reference: both names at libs/x (git registers `second` there).
        let reference = try commit(
            "[submodule \"first\"]\n\tpath = libs/x\n\turl = https://example.com/y\n"
                + "[submodule \"second\"]\n\tpath = libs/x\n\turl = https://example.com/x\n",
            gitlinks: ["libs/x"], removing: ["old/x", "other/y"])
        let module = Module(name: "x", path: "libs/x", url: "https://example.com/x")
        let git = try sandbox.gitRunner()
        let batch = try CatFileBatch(git: git, repository: path)
        defer { try? batch.close() }
        let moved = try ModuleLocator.moved(
            modules: [module], pins: [older: [:]], reference: reference, batch: batch,
            repository: git.repository(at: path))
        #expect(moved == [older: ["x": ModuleLocator.Location(path: "old/x", pin: pin)]])
    }

    @Test func checkIgnoreOutputLeavesOutPathsANegatedRuleTakesBack() {
        let output = Data(
            ".gitignore\u{0}1\u{0}/*\u{0}modules.json\u{0}.gitignore\u{0}3\u{0}!/Tenants/\u{0}Tenants/a.json\u{0}".utf8)
        #expect(
            IgnoreRules.parse(output)
                == [IgnoreRules.Match(path: "modules.json", source: ".gitignore", line: "1", pattern: "/*")])
        #expect(IgnoreRules.parse(Data()) == [])
    }
}
