import Foundation
import TenantKit
import Testing

/// `"branches"` in a tenant file: a module mapped to the module branch the tenant follows, validated like the other
/// fields (each problem names the file and the field), and the one function every command names a tenant's module
/// branch with.
@Suite("Tenant files: branches")
struct ModuleBranchesLoaderTests {
    /// A tenant file with `branches` (and `customised`) as given.
    static func tenant(_ id: String, branches: String, customised: [String] = [], branch: String? = nil) -> String {
        let list = customised.map { "\"\($0)\"" }.joined(separator: ", ")
        let branchLine = branch.map { "\"branch\": \"\($0)\", " } ?? ""
        return """
            { "id": "\(id)", \(branchLine)"modules": ["Infrastructure", "Article"], "customised": [\(list)], \
            "branches": \(branches) }
            """
    }

    /// A valid mapping loads: the module is customised on the mapped branch, listed in `customised` or not; the
    /// other modules keep the tenant's branch name; the file is written back with the mapping.
    @Test func aMappedModuleIsCustomisedOnItsBranch() throws {
        let project = try ProjectLoader.load(
            manifest: source("modules.json", erpManifest()),
            tenantFiles: [
                source("Tenants/t1.json", Self.tenant("t1", branches: #"{ "Article": "release/5.5.6" }"#)),
                source(
                    "Tenants/t2.json",
                    Self.tenant(
                        "t2", branches: #"{ "Infrastructure": "lts/2" }"#, customised: ["Infrastructure", "Article"])),
            ])
        let t1 = try #require(project.tenant(id: "t1"))
        let article = try #require(project.module(named: "Article"))
        let infrastructure = try #require(project.module(named: "Infrastructure"))
        #expect(t1.customises("Article"))
        #expect(t1.customisedModules == ["Article"])
        #expect(t1.moduleBranch(for: "Article") == "release/5.5.6")
        #expect(t1.moduleBranch(for: "Infrastructure") == "t1")
        #expect(project.branch(of: article, for: t1) == "release/5.5.6")
        #expect(project.branch(of: infrastructure, for: t1) == "general_dev")
        let t2 = try #require(project.tenant(id: "t2"))
        #expect(project.branch(of: infrastructure, for: t2) == "lts/2")
        #expect(project.branch(of: article, for: t2) == "t2")
        #expect(project.tenantModuleBranches(of: article) == ["release/5.5.6", "t2"])
        let written = String(decoding: t1.encoded(), as: UTF8.self)
        #expect(written.contains(#"  "branches": { "Article": "release/5.5.6" }"#), "\(written)")
        let reloaded = try ProjectLoader.load(
            manifest: source("modules.json", erpManifest()), tenantFiles: [source("Tenants/t1.json", written)])
        #expect(reloaded.tenants == [t1])
    }

    /// Each bad mapping is reported with the file and the field: not an object, not a string, an unknown module,
    /// an inactive module, an invalid branch name, the module's general branch, a branch two tenants follow, a
    /// branch named after another tenant.
    @Test func badMappingsNameTheFileAndTheField() {
        let file = "Tenants/t1.json"
        let notObject = problems(tenants: [(file, Self.tenant("t1", branches: #"["Article"]"#))])
        #expect(contains(notObject, file: file, field: "branches", "expected an object"), "\(notObject)")
        let notString = problems(tenants: [(file, Self.tenant("t1", branches: #"{ "Article": 5 }"#))])
        #expect(contains(notString, file: file, field: "branches.Article", "expected a string"), "\(notString)")
        let unknown = problems(tenants: [(file, Self.tenant("t1", branches: #"{ "Orders": "release/1" }"#))])
        #expect(contains(unknown, file: file, field: "branches.Orders", "unknown module \"Orders\""), "\(unknown)")
        let inactive = problems(tenants: [(file, Self.tenant("t1", branches: #"{ "Order": "release/1" }"#))])
        #expect(contains(inactive, file: file, field: "branches.Order", "not one of its active modules"), "\(inactive)")
        let invalid = problems(tenants: [(file, Self.tenant("t1", branches: #"{ "Article": "release..1" }"#))])
        #expect(contains(invalid, file: file, field: "branches.Article", "invalid branch name"), "\(invalid)")
        let general = problems(tenants: [(file, Self.tenant("t1", branches: #"{ "Article": "general_dev" }"#))])
        #expect(contains(general, file: file, field: "branches.Article", "the module's general branch"), "\(general)")
        let shared = problems(tenants: [
            (file, Self.tenant("t1", branches: #"{ "Article": "release/1" }"#)),
            ("Tenants/t2.json", Self.tenant("t2", branches: #"{ "Article": "release/1" }"#)),
        ])
        #expect(
            contains(shared, file: "Tenants/t2.json", field: "branches.Article", "which tenant \"t1\""), "\(shared)")
        let othersName = problems(tenants: [
            (file, Self.tenant("t1", branches: #"{ "Article": "t2" }"#)),
            ("Tenants/t2.json", tenantJSON("t2")),
        ])
        #expect(
            contains(othersName, file: file, field: "branches.Article", "the name of tenant \"t2\"'s branch"),
            "\(othersName)")
        // The control: the same files with distinct, valid branches load.
        let fine = problems(tenants: [
            (file, Self.tenant("t1", branches: #"{ "Article": "release/1" }"#)),
            ("Tenants/t2.json", Self.tenant("t2", branches: #"{ "Article": "release/2" }"#)),
        ])
        #expect(fine.isEmpty, "\(fine)")
    }
}
