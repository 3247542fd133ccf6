import Foundation
import TenantKit
import TenantTestSupport
import Testing

/// `module add` and `module remove` on example workspaces.
@Suite struct LifecycleModuleTests {
    /// A new module remote `Invoice.git` next to the example's remotes, with a general_dev branch.
    static func invoiceRemote(_ example: LifecycleExample) throws -> String {
        let sandbox = example.sandbox
        try sandbox.makeRepository("invoice-src", branch: "general_dev", files: ["Invoice.swift": "// invoice\n"])
        let remote = example.remote("Invoice")
        try sandbox.git(["clone", "-q", "--bare", sandbox.path("invoice-src"), remote])
        return try sandbox.git(["rev-parse", "general_dev"], in: remote)
    }

    @Test func moduleAddThenRemove() throws {
        let sandbox = try GitSandbox()
        let example = try LifecycleExample(sandbox)
        let tip = try Self.invoiceRemote(example)
        let gitmodulesBefore = try example.file("general_dev", ".gitmodules")
        let add = example.tenantctl([
            "module", "add", "Invoice", "--url", "../Invoice.git", "--depends-on", "Infrastructure,Customer",
        ])
        #expect(add.status == 0, "\(add.stdout)\(add.stderr)")
        let manifest = try example.file("general_dev", "modules.json")
        #expect(manifest.contains("\"name\": \"Invoice\""))
        #expect(manifest.contains("\"dependsOn\": [\"Infrastructure\", \"Customer\"]"))
        let config = try sandbox.git(
            ["config", "--blob", "general_dev:.gitmodules", "--get", "submodule.Invoice.url"],
            in: example.remote("Superproject"))
        #expect(config == "../Invoice.git")
        #expect(try example.pin("general_dev", "Invoice") == tip)
        // Tenants receive it with the next roll: their branches are unchanged.
        #expect(
            try sandbox.gitResult(["cat-file", "-e", "t1:Modules/Invoice"], in: example.remote("Superproject")).status
                != 0)

        let remove = example.tenantctl(["module", "remove", "Invoice"])
        #expect(remove.status == 0, "\(remove.stdout)\(remove.stderr)")
        #expect(try !example.file("general_dev", "modules.json").contains("Invoice"))
        #expect(try example.file("general_dev", ".gitmodules") == gitmodulesBefore)
        #expect(
            try sandbox.gitResult(
                ["cat-file", "-e", "general_dev:Modules/Invoice"], in: example.remote("Superproject")
            ).status != 0)
    }

    @Test(
        .tags(.slow), .notInTheFastSet,
        arguments: [
            (["module", "remove", "Order"], "tenant t3 customises it"),
            (["module", "remove", "Article"], "Order depends on it"),
            (["module", "remove", "Billing"], "unknown module Billing"),
            (["module", "add", "Order", "--url", "../Order2.git"], "Order"),
            (["module", "add", "Invoice", "--url", "../Invoice.git", "--depends-on", "Billing"], "Billing"),
            (
                ["module", "add", "Invoice", "--url", "../Invoice.git", "--path", "Modules/Order/Invoice"],
                "Modules/Order"
            ),
            (["module", "add", "Invoice", "--url", "../Missing.git"], "Invoice"),
        ])
    func refusalChangesNothing(_ arguments: [String], _ expected: String) throws {
        let sandbox = try GitSandbox()
        let example = try LifecycleExample(sandbox)
        _ = try Self.invoiceRemote(example)
        let before = try example.snapshot()
        let run = example.tenantctl(arguments)
        // An unknown name is a usage error (exit 64); every other refusal exits 1.
        let usage = expected.hasPrefix("unknown tenant") || expected.hasPrefix("unknown module")
        #expect(run.status == (usage ? 64 : 1), "\(run.stdout)\(run.stderr)")
        #expect(run.stderr.contains(expected), "\(run.stderr)")
        #expect(try example.snapshot() == before)
    }
}
