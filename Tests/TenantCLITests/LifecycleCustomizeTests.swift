import Foundation
import TenantExample
import TenantKit
import TenantTestSupport
import Testing

/// `customize` and its undo on example workspaces; state checked with plain git.
@Suite(.tags(.slow), .notInTheFastSet) struct LifecycleCustomizeTests {
    /// AF.4: customising Order for t3 on an example where it is not customised yet ends in the example's branch
    /// and pin layout; the working copy is untouched.
    @Test func af4CustomizeOrderForT3GivesTheExampleLayout() throws {
        let sandbox = try GitSandbox()
        let reference = try LifecycleExample(sandbox)
        let expected = try reference.layout()
        let other = try GitSandbox()
        let example = try LifecycleExample(other)
        try example.uncustomiseT3Order()
        #expect(try example.layout() != expected)
        let workingCopy = try other.refs(example.workspace).filter { !$0.key.hasPrefix("refs/remotes/") }
        let status = try other.git(["status", "--porcelain=v2", "-uall"], in: example.workspace)

        let run = example.tenantctl(["customize", "t3", "Order"])
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")

        #expect(try example.layout() == expected)
        let orderBranches = try example.branches("Order")
        #expect(Set(orderBranches.keys) == ["general_dev", "t3"])
        #expect(orderBranches["t3"] == orderBranches["general_dev"])
        #expect(try example.pin("t3", "Order") == orderBranches["t3"])
        let t3JSON = try #require(ExampleScenario.tenantJSON.first { $0.id == "t3" }?.json)
        #expect(try example.file("general_dev", "Tenants/t3.json") + "\n" == t3JSON)
        #expect(try example.file("t3", "Tenants/t3.json") + "\n" == t3JSON)
        // Plumbing only: the user's branches, HEAD and working tree did not change.
        #expect(try other.refs(example.workspace).filter { !$0.key.hasPrefix("refs/remotes/") } == workingCopy)
        #expect(try other.git(["status", "--porcelain=v2", "-uall"], in: example.workspace) == status)
        // Pushed in order and fast-forward: general_dev and t3 each got one commit on top of the old tip.
        #expect(try other.git(["rev-list", "--count", "general_dev"], in: example.remote("Superproject")) == "4")
    }

    @Test func customizeFromACommitRepinsTheTenant() throws {
        let sandbox = try GitSandbox()
        let example = try LifecycleExample(sandbox)
        let first = try sandbox.git(["rev-list", "--max-parents=0", "general_dev"], in: example.remote("Article"))
        let run = example.tenantctl(["customize", "t1", "Article", "--from", first])
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        #expect(try example.branches("Article")["t1"] == first)
        #expect(try example.pin("t1", "Article") == first)
        #expect(try example.file("t1", "Tenants/t1.json").contains("\"customised\": [\"Article\"]"))
    }

    @Test func undoRestoresTheUncustomisedState() throws {
        let sandbox = try GitSandbox()
        let example = try LifecycleExample(sandbox)
        let before = try example.layout()
        #expect(example.tenantctl(["customize", "t1", "Article"]).status == 0)
        #expect(try example.branches("Article")["t1"] != nil)
        let undo = example.tenantctl(["customize", "--undo", "t1", "Article"])
        #expect(undo.status == 0, "\(undo.stdout)\(undo.stderr)")
        #expect(try example.branches("Article")["t1"] == nil)
        #expect(try example.layout() == before)
        #expect(try example.file("general_dev", "Tenants/t1.json").contains("\"customised\": []"))
        // uncustomize is the same command.
        #expect(example.tenantctl(["customize", "t1", "Customer"]).status == 0)
        #expect(example.tenantctl(["uncustomize", "t1", "Customer"]).status == 0)
        #expect(try example.branches("Customer")["t1"] == nil)
    }

    struct Refusal: CustomTestStringConvertible, Sendable {
        var name: String
        var arguments: [String]
        var expected: [String]
        var prepare: @Sendable (LifecycleExample) throws -> Void = { _ in }
        var testDescription: String { name }
    }

    static let refusals: [Refusal] = [
        Refusal(name: "unknown tenant", arguments: ["customize", "t9", "Order"], expected: ["unknown tenant t9"]),
        Refusal(
            name: "unknown module", arguments: ["customize", "t1", "Billing"], expected: ["unknown module Billing"]),
        Refusal(
            name: "inactive module", arguments: ["customize", "t2", "Order"],
            expected: ["Order", "t2", "effective active set"]),
        Refusal(
            name: "already customised", arguments: ["customize", "t3", "Order"],
            expected: ["already customised", "t3"]),
        Refusal(
            name: "existing branch", arguments: ["customize", "t1", "Article"],
            expected: ["module Article already has a branch t1"],
            prepare: { example in
                // Not at t1's pin: a branch at the pin is taken over (what an interrupted customize leaves behind,
                // CustomizeFaultInjectionTests).
                try example.sandbox.git(
                    ["branch", "t1", "general_dev~1"], in: example.remote("Article"))
            }),
        Refusal(
            name: "undo with commits", arguments: ["customize", "--undo", "t3", "Order"],
            expected: ["2 commits not on general_dev", "(AF.4)"]),
        Refusal(
            name: "undo of a module not customised", arguments: ["uncustomize", "t1", "Order"],
            expected: ["does not customise Order"]),
        Refusal(
            name: "--from not on the remote", arguments: ["customize", "t1", "Article", "--from", "deadbeef"],
            expected: ["--from deadbeef"]),
    ]

    /// Every refusal exits 1, names what is wrong, and changes no ref of any repository and no file.
    @Test(arguments: refusals)
    func refusalChangesNothing(_ refusal: Refusal) throws {
        let sandbox = try GitSandbox()
        let example = try LifecycleExample(sandbox)
        try refusal.prepare(example)
        let before = try example.snapshot()
        let run = example.tenantctl(refusal.arguments)
        // An unknown name is a usage error (exit 64); every other refusal exits 1.
        #expect(run.status == (refusal.name.hasPrefix("unknown") ? 64 : 1), "\(run.stdout)\(run.stderr)")
        for fragment in refusal.expected {
            #expect(run.stderr.contains(fragment), "missing \(fragment) in \(run.stderr)")
        }
        #expect(try example.snapshot() == before)
    }

    /// The superproject remote rejects the push (pre-receive hook): the module branch pushed before is taken back, so
    /// nothing changes anywhere, and a re-run after the hook is gone succeeds.
    @Test func aRejectedSuperprojectPushTakesTheModuleBranchBack() throws {
        let sandbox = try GitSandbox()
        let example = try LifecycleExample(sandbox)
        let hook = try sandbox.writeExecutable(
            "example/remotes/Superproject.git/hooks/pre-receive", "#!/bin/sh\necho rejected by policy >&2\nexit 1\n")
        let before = try example.snapshot()
        let run = example.tenantctl(["customize", "t1", "Article"])
        #expect(run.status == 1, "\(run.stdout)\(run.stderr)")
        #expect(run.stderr.contains("the push to the superproject was rejected"), "\(run.stderr)")
        #expect(run.stderr.contains("deleted again; nothing was changed"), "\(run.stderr)")
        #expect(try example.snapshot() == before)
        try FileManager.default.removeItem(atPath: hook)
        let again = example.tenantctl(["customize", "t1", "Article"])
        #expect(again.status == 0, "\(again.stdout)\(again.stderr)")
        #expect(try example.branches("Article")["t1"] != nil)
    }
}
