import Foundation
import TenantKit
import Testing

/// `"generalBranch"` on a module in `modules.json`: optional, validated, encoded only when set, and what the branch
/// rule uses for that module.
@Suite struct ModuleGeneralBranchTests {
    func manifest(_ moduleFields: String) -> SourceFile {
        SourceFile(
            path: "modules.json",
            data: Data(
                """
                { "version": 1, "generalBranch": "main", "modules": [
                  { "name": "Core", "path": "Modules/Core", "url": "../Core.git"\(moduleFields) },
                  { "name": "Shop", "path": "Modules/Shop", "url": "../Shop.git" } ] }
                """.utf8))
    }

    @Test func decodedUsedByTheBranchRuleAndEncodedOnlyWhenSet() throws {
        let project = try ProjectLoader.load(
            manifest: manifest(#", "generalBranch": "master""#),
            tenantFiles: [
                SourceFile(
                    path: "Tenants/acme.json",
                    data: Data(
                        #"{ "id": "acme", "modules": ["Core", "Shop"], "customised": ["Shop"] }"#.utf8))
            ], options: ValidationOptions(allowLocalRemotes: true))
        let core = try #require(project.module(named: "Core"))
        let shop = try #require(project.module(named: "Shop"))
        let acme = try #require(project.tenant(id: "acme"))
        #expect(project.generalBranch(of: core) == "master")
        #expect(project.generalBranch(of: shop) == "main")
        #expect(project.branch(of: core, for: acme) == "master")
        #expect(project.branch(of: core, for: nil) == "master")
        #expect(project.branch(of: shop, for: acme) == "acme")

        let encoded = String(decoding: project.manifest.encoded(), as: UTF8.self)
        #expect(encoded.contains(#""generalBranch": "master""#))
        #expect(encoded.components(separatedBy: "generalBranch").count == 3)  // the manifest's and Core's
        let again = try ProjectLoader.load(
            manifest: SourceFile(path: "modules.json", data: project.manifest.encoded()), tenantFiles: [],
            options: ValidationOptions(allowLocalRemotes: true))
        #expect(again.manifest == project.manifest)
    }

    @Test func invalidValuesAreReportedWithTheirField() throws {
        for (fields, expected) in [
            (#", "generalBranch": "a..b""#, "modules[0].generalBranch: invalid branch name \"a..b\""),
            (#", "generalBranch": 7"#, "modules[0].generalBranch"),
        ] {
            let error = #expect(throws: ManifestError.self) {
                try ProjectLoader.load(
                    manifest: manifest(fields), tenantFiles: [], options: ValidationOptions(allowLocalRemotes: true))
            }
            #expect(error.map { String(describing: $0) }?.contains(expected) == true, "\(String(describing: error))")
        }
        // Control: a valid branch name loads.
        _ = try ProjectLoader.load(
            manifest: manifest(#", "generalBranch": "release/1.x""#), tenantFiles: [],
            options: ValidationOptions(allowLocalRemotes: true))
    }

    @Test func aTenantCannotCustomiseAModuleOnTheModulesGeneralBranch() throws {
        let tenant = SourceFile(
            path: "Tenants/master.json",
            data: Data(#"{ "id": "master", "modules": ["Core"], "customised": ["Core"] }"#.utf8))
        let error = #expect(throws: ManifestError.self) {
            try ProjectLoader.load(
                manifest: manifest(#", "generalBranch": "master""#), tenantFiles: [tenant],
                options: ValidationOptions(allowLocalRemotes: true))
        }
        #expect(
            error.map { String(describing: $0) }?.contains("on branch \"master\", the module's general branch") == true)
        // Control: without the module's own general branch the same tenant is fine.
        _ = try ProjectLoader.load(
            manifest: manifest(""), tenantFiles: [tenant], options: ValidationOptions(allowLocalRemotes: true))
    }

    @Test func initNamesModulesAndTenantsGitCannotUseAsThey() {
        #expect(Adoption.moduleName(forPath: "Modules/My Extra") == "My-Extra")
        #expect(Adoption.moduleName(forPath: "Modules/Core") == "Core")
        #expect(Adoption.moduleName(forPath: "lib/-x") == "x")
        #expect(Adoption.tenantID(forBranch: "customer/acme") == "customer-acme")
        #expect(Adoption.tenantID(forBranch: "t1") == "t1")
    }

    @Test func initNamesAModuleAfterItsRepositoryThenItsSubmoduleName() {
        func entry(_ name: String, _ path: String, _ url: String?) -> GitmodulesEntry {
            GitmodulesEntry(name: name, path: path, url: url)
        }
        let dshow = entry(
            "plugins/win-dshow/libdshowcapture", "deps/libdshowcapture/src",
            "https://github.com/obsproject/libdshowcapture.git")
        #expect(Adoption.moduleName(for: dshow) == "libdshowcapture")
        #expect(Adoption.moduleName(for: entry("x", "Modules/My Extra", "../Extra.git")) == "Extra")
        #expect(Adoption.moduleName(for: entry("x", "lib/src", "git@host:org/My Lib.git/")) == "My-Lib")
        #expect(Adoption.moduleName(for: entry("vendor/zlib", "vendor/zlib/src", "..")) == "zlib")
        #expect(Adoption.moduleName(for: entry("", "lib/src", nil)) == "src")
        #expect(Adoption.repositoryName(ofURL: "https://host/org/Repo/.git") == "Repo")
        #expect(Adoption.repositoryName(ofURL: "./") == nil)
    }

    @Test func initRefusesTwoModulesOfOneNameAndSuggestsNamesAfterTheirPaths() throws {
        let entries = [
            GitmodulesEntry(name: "a", path: "deps/a/src", url: "https://one.example/json.git"),
            GitmodulesEntry(name: "b", path: "deps/b/src", url: "https://two.example/JSON"),
        ]
        let clash = #expect(throws: Adoption.ModuleNameClash.self) { try Adoption.modules(from: entries) }
        #expect(clash?.suggested.map(\.name) == ["deps-a-src", "deps-b-src"])
        #expect(clash?.description.contains("would all be module json") == true)
        // Control: named apart, both are taken.
        let modules = try Adoption.modules(from: entries, names: ["deps/b/src": "json-two"])
        #expect(modules.map(\.name) == ["json", "json-two"])
    }

    @Test func initKeepsSlashedBranchesAndSkipsCollidingOnes() throws {
        var entry = GitmodulesEntry(name: "Core")
        entry.path = "Modules/Core"
        entry.url = "../Core.git"
        let plan = try Adoption.plan(
            workspace: Workspace(
                root: "/nonexistent-tenantctl-root", gitDirectory: "/nonexistent-tenantctl-root/.git", git: try Git()),
            generalBranch: "main", glob: "*", gitmodules: [entry],
            branches: ["main", "customer/acme", "team/x", "team-x", "t1"],
            moduleBranches: ["Core": ["master", "customer/acme"]], moduleDefaults: ["Core": "master"])
        #expect(plan.files.map(\.path) == ["modules.json", "Tenants/customer-acme.json", "Tenants/t1.json"])
        #expect(plan.skipped.count == 2)
        #expect(plan.skipped.allSatisfy { $0.contains("would all be tenant team-x") })
        let acme = String(decoding: plan.files[1].data, as: UTF8.self)
        #expect(acme.contains(#""branch": "customer/acme""#))
        #expect(acme.contains(#""customised": ["Core"]"#))
        #expect(String(decoding: plan.files[0].data, as: UTF8.self).contains(#""generalBranch": "master""#))
    }
}
