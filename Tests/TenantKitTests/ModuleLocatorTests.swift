import Foundation
import Testing

@testable import TenantKit

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

    @Test func checkIgnoreOutputLeavesOutPathsANegatedRuleTakesBack() {
        let output = Data(
            ".gitignore\u{0}1\u{0}/*\u{0}modules.json\u{0}.gitignore\u{0}3\u{0}!/Tenants/\u{0}Tenants/a.json\u{0}".utf8)
        #expect(
            IgnoreRules.parse(output)
                == [IgnoreRules.Match(path: "modules.json", source: ".gitignore", line: "1", pattern: "/*")])
        #expect(IgnoreRules.parse(Data()) == [])
    }
}
