import Foundation
import TenantExample
import TenantKit
import TenantTestSupport
import Testing

/// `tenantctl audit --json` and `tenantctl verify --json` on the same repositories report the same findings: the
/// same codes for the same tenant and module, in every state (one judge decides for both commands).
@Suite(.tags(.slow), .notInTheFastSet) struct AuditVerifyAgreementTests {
    let audit = AuditCommandTests()

    /// A finding reduced to what both commands must agree on: where, the code, and the words.
    struct Key: Hashable, Comparable, CustomStringConvertible {
        var tenant: String
        var module: String
        var code: String
        var message = ""

        static func < (lhs: Key, rhs: Key) -> Bool { lhs.description < rhs.description }
        var description: String { "\(tenant)/\(module.isEmpty ? "-" : module): \(code) \(message)" }
    }

    /// The codes no cell of the audit holds (verify's file checks) are left out of the comparison; the findings not
    /// tied to a tenant are compared by code and message.
    static let fileCodes: Set<String> = ["gitmodules-drift", "invalid-file"]

    func key(_ finding: [String: Any], tenant: String, module: String) -> Key {
        Key(
            tenant: tenant, module: module, code: finding["code"] as? String ?? "?",
            message: finding["message"] as? String ?? "?")
    }

    /// The findings of `audit --json` and of `verify --json`: per tenant and module, and the others.
    func findings(_ sandbox: GitSandbox, _ example: ExampleResult) throws -> (
        audit: (cells: [Key], other: [String]), verify: (cells: [Key], other: [String])
    ) {
        let audited = sandbox.tenantctl(["audit", "--json"], in: example.workspace)
        #expect(audited.status == 0, "\(audited.stderr)")
        let auditJSON = try #require(
            try JSONSerialization.jsonObject(with: Data(audited.stdout.utf8)) as? [String: Any])
        var auditCells: [Key] = []
        for tenant in try #require(auditJSON["tenants"] as? [[String: Any]]) {
            let id = try #require(tenant["id"] as? String)
            for finding in tenant["superproject"].flatMap({ ($0 as? [String: Any])?["findings"] }) as? [[String: Any]]
                ?? []
            {
                auditCells.append(key(finding, tenant: id, module: ""))
            }
            for module in try #require(tenant["modules"] as? [[String: Any]]) {
                let name = try #require(module["module"] as? String)
                for finding in module["findings"] as? [[String: Any]] ?? [] {
                    auditCells.append(key(finding, tenant: id, module: name))
                }
            }
        }
        let auditOther = (auditJSON["findings"] as? [[String: Any]] ?? []).map {
            "\($0["code"] as? String ?? "?"): \($0["message"] as? String ?? "?")"
        }

        let verified = sandbox.tenantctl(["verify", "--json", "--no-fetch"], in: example.workspace)
        #expect(verified.status == 0 || verified.status == 2, "\(verified.stderr)")
        let verifyJSON = try #require(
            try JSONSerialization.jsonObject(with: Data(verified.stdout.utf8)) as? [String: Any])
        var verifyCells: [Key] = []
        var verifyOther: [String] = []
        for finding in try #require(verifyJSON["findings"] as? [[String: Any]]) {
            let code = try #require(finding["code"] as? String)
            guard !Self.fileCodes.contains(code) else { continue }
            if let tenant = finding["tenant"] as? String, code != "orphan-branch" {
                verifyCells.append(key(finding, tenant: tenant, module: finding["module"] as? String ?? ""))
            } else {
                verifyOther.append("\(code): \(finding["message"] as? String ?? "?")")
            }
        }
        return ((auditCells.sorted(), auditOther.sorted()), (verifyCells.sorted(), verifyOther.sorted()))
    }

    /// Both commands' findings, which must be equal; returns the audit's per-cell findings.
    @discardableResult
    func expectAgreement(_ sandbox: GitSandbox, _ example: ExampleResult, _ state: String) throws -> [Key] {
        let both = try findings(sandbox, example)
        #expect(
            both.audit.cells == both.verify.cells, "\(state): audit \(both.audit.cells), verify \(both.verify.cells)")
        #expect(
            both.audit.other == both.verify.other, "\(state): audit \(both.audit.other), verify \(both.verify.other)")
        return both.audit.cells
    }

    @Test func auditAndVerifyReportTheSameFindingsInEveryState() throws {
        let sandbox = try GitSandbox()
        let example = try audit.example(sandbox)

        // The example as built: nothing to report (positive control of the comparison below).
        #expect(try expectAgreement(sandbox, example, "as built") == [])

        // t2 pushes a commit to its Customer branch without pinning it: the pin is no longer the branch's head.
        _ = try audit.commitOnModule(sandbox, example, "Customer", branch: "t2")
        let stale = try expectAgreement(sandbox, example, "unpinned commit")
        #expect(stale.contains { $0.tenant == "t2" && $0.module == "Customer" && $0.code == "stale-pin" }, "\(stale)")

        // t2's Infrastructure branch is merged back into Infrastructure's general_dev.
        let clone = sandbox.path("merge-back")
        try sandbox.git(["clone", "-q", "-b", "general_dev", "\(example.remotes)/Infrastructure.git", clone])
        try sandbox.git(["merge", "-q", "--no-ff", "--no-edit", "-X", "ours", "origin/t2"], in: clone)
        try sandbox.git(["push", "-q", "origin", "general_dev"], in: clone)
        let merged = try expectAgreement(sandbox, example, "merged back")
        #expect(
            merged.contains { $0.tenant == "t2" && $0.module == "Infrastructure" && $0.code == "tenant-merged-back" },
            "\(merged)")

        // Order's t3 branch is deleted (its commit stays on a backup branch).
        let order = "\(example.remotes)/Order.git"
        try sandbox.git(["branch", "backup", "t3"], in: order)
        try sandbox.git(["branch", "-D", "t3"], in: order)
        let missing = try expectAgreement(sandbox, example, "missing module branch")
        #expect(
            missing.contains { $0.tenant == "t3" && $0.module == "Order" && $0.code == "missing-branch" }, "\(missing)")

        // Article gets a branch t1, but t1 does not declare Article customised: an orphan branch.
        try sandbox.git(["branch", "t1", "general_dev"], in: "\(example.remotes)/Article.git")
        let orphan = try findings(sandbox, example)
        #expect(orphan.audit.other.contains { $0.hasPrefix("orphan-branch: ") }, "\(orphan.audit.other)")
        try expectAgreement(sandbox, example, "orphan branch")
    }

    /// `audit --check` (which fails on every finding verify reports) reads each repository's history once, as without
    /// `--check`: one listing of its commit graph per repository (the superproject's `rev-list --parents`, each
    /// module's `log --branches` with the parents and the branch names), and no `for-each-ref` of a module's branches
    /// besides it.
    @Test func auditCheckReadsEachHistoryOnce() throws {
        let sandbox = try GitSandbox()
        let example = try audit.example(sandbox)
        let shim = try GitShim(in: sandbox)
        func calls(_ arguments: [String]) throws -> [String: [String]] {
            try shim.reset()
            let result = sandbox.tenantctl(arguments + ["--no-fetch", "--git", shim.path], in: example.workspace)
            #expect(result.status == 0, "\(result.stderr)")
            return Self.byRepository(try shim.calls())
        }
        #expect(sandbox.tenantctl(["audit"], in: example.workspace).status == 0)
        for arguments in [["audit", "--json"], ["audit", "--json", "--check"]] {
            let byRepository = try calls(arguments)
            let listings = byRepository.mapValues { $0.filter(Self.listsHistory).count }.filter { $0.value > 0 }
            #expect(listings.count == 1 + AuditCommandTests.modules.count, "\(arguments): \(byRepository)")
            #expect(listings.values.allSatisfy { $0 == 1 }, "\(arguments): \(listings)")
            for (repository, lines) in byRepository where repository.contains("/tenantctl/mirrors/") {
                #expect(!lines.contains { $0.contains(" for-each-ref ") }, "\(arguments): \(repository): \(lines)")
            }
        }
        // Negative control of the count: a repository whose history is listed twice, once each way, is found.
        let twice = Self.byRepository([
            "-C /r/a.git -c core.fsmonitor=false rev-list --parents --topo-order --stdin",
            "-C /r/a.git -c core.fsmonitor=false log --branches --format=tformat:%H %P%x00%D --stdin",
            "-C /r/b.git -c core.fsmonitor=false log --branches --format=tformat:%H %P%x00%D --stdin",
            "-C /r/b.git -c core.fsmonitor=false diff-tree --stdin",
        ]).mapValues { $0.filter(Self.listsHistory).count }
        #expect(twice == ["/r/a.git": 2, "/r/b.git": 1])
    }

    /// A call that lists a repository's commit graph: `rev-list --parents` or a `log` whose format has the parents.
    static func listsHistory(_ call: String) -> Bool {
        (call.contains(" rev-list ") && call.contains(" --parents")) || (call.contains(" log ") && call.contains("%P"))
    }

    /// The shim's calls (arguments joined by spaces) by the repository given with `-C`.
    static func byRepository(_ calls: [String]) -> [String: [String]] {
        var result: [String: [String]] = [:]
        for call in calls {
            let words = call.split(separator: " ").map(String.init)
            guard let index = words.firstIndex(of: "-C"), index + 1 < words.count else { continue }
            result[words[index + 1], default: []].append(" " + call + " ")
        }
        return result
    }
}
