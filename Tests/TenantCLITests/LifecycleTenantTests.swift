import Foundation
import TenantKit
import TenantTestSupport
import Testing

/// `tenant add`, `tenant remove` and `tag` on example workspaces; state checked with plain git.
@Suite struct LifecycleTenantTests {
    @Test(.tags(.slow), .notInTheFastSet) func tenantAddFromT2BranchesInfrastructureAndCustomerAtT2Pins() throws {
        let sandbox = try GitSandbox()
        let example = try LifecycleExample(sandbox)
        let run = example.tenantctl(["tenant", "add", "t4", "--from", "t2", "--name", "Tenant Four AG"])
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        for module in ["Infrastructure", "Customer"] {
            #expect(try example.branches(module)["t4"] == example.pin("t2", module), "\(module)")
            #expect(try example.pin("t4", module) == example.pin("t2", module))
        }
        for module in ["Article", "Order"] { #expect(try example.branches(module)["t4"] == nil) }
        let json = try example.file("general_dev", "Tenants/t4.json")
        #expect(json.contains("\"customised\": [\"Infrastructure\", \"Customer\"]"))
        #expect(json.contains("\"name\": \"Tenant Four AG\""))
        // t2's own string tables come along (compose applies them after the modules' tables).
        let t2Strings = try #require(
            try example.file("general_dev", "Tenants/t2.json").split(separator: "\n").first {
                $0.contains("\"strings\"")
            })
        #expect(json.contains(t2Strings.trimmingCharacters(in: [","])), "\(json)")
        #expect(try example.file("t4", "Tenants/t4.json") == json)
        // t4 starts from t2's branch (its branding).
        #expect(try example.file("t4", "AppName") == example.file("t2", "AppName"))
        let t2Tip = try #require(try example.branches("Superproject")["t2"])
        #expect(try sandbox.git(["rev-parse", "t4^"], in: example.remote("Superproject")) == t2Tip)
        // tenant list (from the working tree after a pull) shows it.
        try sandbox.git(["merge", "-q", "--ff-only", "origin/general_dev"], in: example.workspace)
        let list = example.tenantctl(["tenant", "list"])
        #expect(list.stdout.contains("t4"))
    }

    @Test(.tags(.slow), .notInTheFastSet) func tenantAddFromGeneralDevBranchesTheNewGeneralDevCommit() throws {
        let sandbox = try GitSandbox()
        let example = try LifecycleExample(sandbox)
        let run = example.tenantctl(["tenant", "add", "t5", "--modules", "Infrastructure,Article"])
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        let branches = try example.branches("Superproject")
        #expect(branches["t5"] == branches["general_dev"])
        let json = try example.file("t5", "Tenants/t5.json")
        #expect(json.contains("\"modules\": [\"Infrastructure\", \"Article\"]"))
        #expect(json.contains("\"customised\": []"))
        for module in LifecycleExample.modules { #expect(try example.branches(module)["t5"] == nil) }
    }

    static let addRefusals: [([String], String)] = [
        (["tenant", "add", "t2"], "tenant t2 exists"),
        (["tenant", "add", "a..b"], "invalid tenant id \"a..b\""),
        (["tenant", "add", "t4", "--from", "t9"], "--from t9: no such tenant"),
        (["tenant", "add", "t4", "--modules", "Billing"], "unknown module Billing"),
        (["tenant", "add", "T2"], "T2"),
        (["tenant", "remove", "t2"], "refusing to remove tenant t2"),
        (["tenant", "remove", "t9"], "unknown tenant t9"),
        (["tag", "M1", "--pattern", "{MILESTONE}"], "would name two branches"),
        (["tag", "M 1"], "tag DEV-M 1"),
    ]

    @Test(.tags(.slow), .notInTheFastSet, arguments: addRefusals)
    func refusalChangesNothing(_ arguments: [String], _ expected: String) throws {
        let sandbox = try GitSandbox()
        let example = try LifecycleExample(sandbox)
        let before = try example.snapshot()
        let run = example.tenantctl(arguments)
        // An unknown name or an id that cannot be a branch is a usage error (exit 64); every other refusal exits 1.
        let usage =
            expected.hasPrefix("unknown tenant") || expected.hasPrefix("unknown module")
            || expected.hasPrefix("invalid tenant id")
        #expect(run.status == (usage ? 64 : 1), "\(run.stdout)\(run.stderr)")
        #expect(run.stderr.contains(expected), "\(run.stderr)")
        #expect(try example.snapshot() == before)
    }

    @Test(.tags(.slow), .notInTheFastSet) func tenantAddRefusesAModuleBranchOfThatName() throws {
        let sandbox = try GitSandbox()
        let example = try LifecycleExample(sandbox)
        try sandbox.git(["branch", "t4", "general_dev"], in: example.remote("Order"))
        let before = try example.snapshot()
        let run = example.tenantctl(["tenant", "add", "t4"])
        #expect(run.status == 1)
        #expect(run.stderr.contains("module Order already has a branch t4"), "\(run.stderr)")
        #expect(try example.snapshot() == before)
    }

    @Test func tenantRemoveOfAnEmptyTenantAndArchiveOfACustomisedOne() throws {
        let sandbox = try GitSandbox()
        let example = try LifecycleExample(sandbox)
        #expect(example.tenantctl(["tenant", "add", "t5"]).status == 0)
        let remove = example.tenantctl(["tenant", "remove", "t5"])
        #expect(remove.status == 0, "\(remove.stdout)\(remove.stderr)")
        #expect(try example.branches("Superproject")["t5"] == nil)
        #expect(
            try sandbox.gitResult(
                ["cat-file", "-e", "general_dev:Tenants/t5.json"], in: example.remote("Superproject")
            ).status != 0)

        let t2 = try example.branches("Superproject")["t2"]
        let infrastructure = try example.branches("Infrastructure")["t2"]
        let archive = example.tenantctl(["tenant", "remove", "t2", "--archive"])
        #expect(archive.status == 0, "\(archive.stdout)\(archive.stderr)")
        #expect(try example.branches("Superproject")["t2"] == nil)
        #expect(try example.branches("Infrastructure")["t2"] == nil)
        #expect(try example.branches("Customer")["t2"] == nil)
        #expect(try sandbox.git(["rev-parse", "refs/tags/archive/t2"], in: example.remote("Superproject")) == t2)
        #expect(
            try sandbox.git(["rev-parse", "refs/tags/archive/t2"], in: example.remote("Infrastructure"))
                == infrastructure)
    }

    @Test func tagCreatesFourTagsAndRefusesExistingOnes() throws {
        let sandbox = try GitSandbox()
        let example = try LifecycleExample(sandbox)
        let run = example.tenantctl(["tag", "ERP-APP-QR"])
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        let tags = try sandbox.git(
            ["for-each-ref", "--format=%(refname:short) %(objectname)", "refs/tags"], in: example.remote("Superproject")
        )
        let branches = try example.branches("Superproject")
        let expected = [
            "DEV-ERP-APP-QR": "general_dev", "T1-ERP-APP-QR": "t1", "T2-ERP-APP-QR": "t2", "T3-ERP-APP-QR": "t3",
        ]
        let lines = tags.split(separator: "\n")
        #expect(lines.count == 4)
        for line in lines {
            let parts = line.split(separator: " ").map(String.init)
            #expect(branches[expected[parts[0]] ?? "?"] == parts[1], "\(line)")
        }
        // A fetch (which tenantctl does first) brings the new tags into the workspace; that is not a change.
        try sandbox.git(["fetch", "-q", "origin"], in: example.workspace)
        // The same milestone again, every tag at its branch's tip: nothing to change (the re-run of a run that
        // stopped after its push finishes this way).
        let same = try example.snapshot()
        let rerun = example.tenantctl(["tag", "ERP-APP-QR"])
        #expect(rerun.status == 0, "\(rerun.stderr)")
        #expect(rerun.stdout.contains("nothing to change"), "\(rerun.stdout)")
        #expect(try example.snapshot() == same)
        // Once general_dev moved on, its tag names another commit: refused, nothing changes.
        try example.editSuperproject("general_dev", files: ["NOTES": "moved on\n"])
        try sandbox.git(["fetch", "-q", "origin"], in: example.workspace)
        let before = try example.snapshot()
        let again = example.tenantctl(["tag", "ERP-APP-QR"])
        #expect(again.status == 1)
        #expect(again.stderr.contains("tag DEV-ERP-APP-QR exists"), "\(again.stderr)")
        #expect(!again.stderr.contains("tag T1-ERP-APP-QR exists"), "\(again.stderr)")
        #expect(try example.snapshot() == before)
    }
}
