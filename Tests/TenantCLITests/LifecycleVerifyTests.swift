import Foundation
import TenantKit
import TenantTestSupport
import Testing

/// `verify`'s git checks: each finding produced by breaking an example in exactly that way.
@Suite(.tags(.slow), .notInTheFastSet) struct LifecycleVerifyTests {
    static let unknownCommit = "0123456789abcdef0123456789abcdef01234567"

    struct Breakage: CustomTestStringConvertible, Sendable {
        var code: String
        var tenant: String?
        var module: String?
        var repository: String
        var branch: String
        var breakIt: @Sendable (LifecycleExample) throws -> Void
        var testDescription: String { "\(code) \(repository) \(branch)" }
    }

    static let breakages: [Breakage] = [
        Breakage(
            code: "gitmodules-drift", tenant: "t1", module: "Article", repository: "superproject", branch: "t1",
            breakIt: { example in
                let gitmodules = try example.file("t1", ".gitmodules").replacingOccurrences(
                    of: "../Article.git", with: "../Articles.git")
                try example.editSuperproject("t1", files: [".gitmodules": gitmodules + "\n"])
            }),
        Breakage(
            code: "missing-branch", tenant: "t1", module: nil, repository: "superproject", branch: "t1",
            breakIt: { example in
                try example.sandbox.git(["update-ref", "-d", "refs/heads/t1"], in: example.remote("Superproject"))
            }),
        Breakage(
            code: "missing-branch", tenant: "t2", module: "Customer", repository: "Customer", branch: "t2",
            breakIt: { example in
                // The branch goes, its commit stays pinned: rename it so that the pin is still on the remote.
                try example.sandbox.git(["branch", "-m", "t2", "old-t2"], in: example.remote("Customer"))
            }),
        Breakage(
            code: "not-pinned", tenant: "t1", module: "Order", repository: "superproject", branch: "t1",
            breakIt: { example in
                let clone = example.sandbox.path("edit-pin")
                try example.sandbox.git(["clone", "-q", "--branch", "t1", example.remote("Superproject"), clone])
                try example.sandbox.git(["rm", "-q", "--cached", "Modules/Order"], in: clone)
                try example.sandbox.git(["commit", "-q", "-m", "drop the Order pin"], in: clone)
                try example.sandbox.git(["push", "-q", "origin", "t1"], in: clone)
            }),
        Breakage(
            code: "missing-commit", tenant: "t1", module: "Article", repository: "Article", branch: "general_dev",
            breakIt: { example in
                try example.editSuperproject("t1", gitlinks: ["Modules/Article": LifecycleVerifyTests.unknownCommit])
            }),
        Breakage(
            code: "undeclared-customisation", tenant: "t1", module: "Order", repository: "Order", branch: "general_dev",
            breakIt: { example in
                let t3 = try #require(try example.branches("Order")["t3"])
                try example.editSuperproject("t1", gitlinks: ["Modules/Order": t3])
            }),
        Breakage(
            code: "tenant-merged-back", tenant: "t3", module: "Order", repository: "Order", branch: "t3",
            breakIt: { example in
                try example.sandbox.mergeBack("t3", of: example.remote("Order"))
            }),
        Breakage(
            code: "tenant-merged-back", tenant: "t2", module: nil, repository: "superproject", branch: "t2",
            breakIt: { example in
                try example.sandbox.mergeBack("t2", of: example.remote("Superproject"))
            }),
    ]

    @Test func theExampleVerifiesCleanAgainstGit() throws {
        let sandbox = try GitSandbox()
        let example = try LifecycleExample(sandbox)
        let run = example.tenantctl(["verify"])
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        #expect(run.stdout.contains("the repositories agree"))
        let json = example.tenantctl(["verify", "--json"])
        #expect(json.status == 0)
        let object = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
        #expect(object?["ok"] as? Bool == true)
    }

    @Test(arguments: breakages)
    func eachFindingComesFromItsBreakage(_ breakage: Breakage) throws {
        let sandbox = try GitSandbox()
        let example = try LifecycleExample(sandbox)
        #expect(example.tenantctl(["verify"]).status == 0)
        try breakage.breakIt(example)
        // --no-fetch checks what was fetched before the breakage: still clean.
        let stale = example.tenantctl(["verify", "--no-fetch"])
        #expect(stale.status == 0, "\(stale.stdout)\(stale.stderr)")
        let before = try example.snapshot()
        let run = example.tenantctl(["verify", "--json"])
        #expect(run.status == 2, "\(run.stdout)\(run.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        let findings = try #require(object["findings"] as? [[String: Any]])
        let match = findings.first {
            $0["code"] as? String == breakage.code && $0["repository"] as? String == breakage.repository
                && $0["branch"] as? String == breakage.branch && $0["tenant"] as? String == breakage.tenant
                && $0["module"] as? String == breakage.module
        }
        #expect(match != nil, "no \(breakage.testDescription) in \(findings)")
        // The text report names repository, branch and module too.
        let text = example.tenantctl(["verify", "--no-fetch"])
        #expect(text.status == 2)
        #expect(text.stdout.contains("repository \(breakage.repository), branch \(breakage.branch)"), "\(text.stdout)")
        // In the same words as the JSON, the audit and the docs: `[missing-branch: …]`, never `[missingBranch: …]`.
        #expect(text.stdout.contains("[\(breakage.code): repository \(breakage.repository)"), "\(text.stdout)")
        // What to do about it, runnable as printed: no `<tenant>` or `<url>` to fill in.
        let next = VerifyNextStepTests.nextLines(text.stdout)
        #expect(next.contains { $0.hasPrefix("next (\(breakage.code)): ") }, "\(text.stdout)")
        for line in next { #expect(VerifyNextStepTests.placeholders(line).isEmpty, "\(line)") }
        // verify changes nothing (after its own fetch).
        try sandbox.git(["fetch", "-q", "--prune", "origin"], in: example.workspace)
        var after = try example.snapshot()
        var expected = before
        after["workspace"] = after["workspace"]?.filter { !$0.key.hasPrefix("refs/remotes/") }
        expected["workspace"] = expected["workspace"]?.filter { !$0.key.hasPrefix("refs/remotes/") }
        #expect(after == expected)
    }
}
