import Foundation
import TenantExample
import TenantKit
import TenantTestSupport
import Testing

/// A missing branch is reported as missing, never as a conflict, and every next step roll prints runs as printed.
@Suite struct RollNextStepTests {
    /// Runs a printed next step from the superproject root: `tenantctl …` in-process, `git …` through the shell.
    static func runAsPrinted(_ line: String, sandbox: GitSandbox, workspace: String) throws -> (Int32, String) {
        if line.hasPrefix("tenantctl ") {
            let result = sandbox.tenantctl(line.split(separator: " ").dropFirst().map(String.init), in: workspace)
            return (result.status, result.stdout + result.stderr)
        }
        let result = try sandbox.run("/bin/sh", ["-c", "cd \"$1\" && " + line, "sh", workspace], extraEnvironment: [:])
        return (result.status, result.stdout + result.stderr)
    }

    /// The `next steps:` lines of a roll report (`t2: <command>` → `<command>`), for `tenant`.
    static func nextSteps(_ output: String, tenant: String) -> [String] {
        output.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { $0.hasPrefix("\(tenant): ") }.map { String($0.dropFirst(tenant.count + 2)) }
    }

    @Test func missingBranchesAreReportedAsMissingAndTheirFixesRunAsPrinted() throws {
        let sandbox = try GitSandbox()
        let example = try sandbox.exampleCopy(in: sandbox.path("erp"), stage: .afterUpdates)
        let workspace = example.workspace
        // t2's Infrastructure branch is deleted on the remote (Infrastructure moves in the updates, so roll looks at
        // it); the working copy, on general_dev, has no local t2 but still has the commit.
        let pin = try #require(example.branches["Infrastructure"]?["t2"])
        try sandbox.git(["update-ref", "-d", "refs/heads/t2"], in: example.remotes + "/Infrastructure.git")
        #expect(throws: Never.self) {
            try sandbox.git(["cat-file", "-e", pin + "^{commit}"], in: workspace + "/Modules/Infrastructure")
        }
        #expect(
            try sandbox.git(["branch", "--list", "t2"], in: workspace + "/Modules/Infrastructure").isEmpty,
            "no local t2: the fix must not need one")
        // t3's superproject branch is deleted on the remote.
        try sandbox.git(["update-ref", "-d", "refs/heads/t3"], in: example.remotes + "/Superproject.git")

        let json = sandbox.tenantctl(["roll", "--json"], in: workspace)
        #expect(json.status == 2, "\(json.stderr)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let tenants = (report["tenants"] as? [[String: Any]] ?? []).reduce(into: [String: [String: Any]]()) {
            $0[$1["id"] as? String ?? ""] = $1
        }
        for id in ["t2", "t3"] {
            #expect(tenants[id]?["status"] as? String == "blocked", "\(id): \(tenants[id] ?? [:])")
            #expect(tenants[id]?["next"] == nil, "\(id): no resolve for a missing branch")
            let codes = (tenants[id]?["reasons"] as? [[String: Any]] ?? []).compactMap { $0["code"] as? String }
            #expect(codes.contains("missing-branch"), "\(id): \(codes)")
        }
        #expect(tenants["t1"]?["status"] as? String == "rolled", "positive control: t1 rolls")

        let text = sandbox.tenantctl(["roll", "--dry-run"], in: workspace)
        #expect(!text.stdout.contains("tenantctl resolve"), "\(text.stdout)")
        #expect(text.stdout.contains(", 0 with conflicts, 2 blocked"), "\(text.stdout)")
        let t2Steps = Self.nextSteps(text.stdout, tenant: "t2")
        let t3Steps = Self.nextSteps(text.stdout, tenant: "t3")
        #expect(t2Steps == ["git -C Modules/Infrastructure push origin \(pin):refs/heads/t2"], "\(text.stdout)")
        #expect(t3Steps == ["tenantctl tenant remove t3 --archive"], "\(text.stdout)")
        for step in t2Steps + t3Steps {
            let (status, output) = try Self.runAsPrinted(step, sandbox: sandbox, workspace: workspace)
            #expect(status == 0, "\(step): \(output)")
        }
        #expect(try sandbox.git(["rev-parse", "refs/heads/t2"], in: example.remotes + "/Infrastructure.git") == pin)
        let again = sandbox.tenantctl(["roll", "--json"], in: workspace)
        #expect(again.status == 0, "after the fixes every tenant rolls: \(again.stdout)\(again.stderr)")
    }
}
