import Foundation
import TenantExample
import TenantKit
import TenantTestSupport
import Testing

@testable import TenantCLI

/// audit computes the files each customisation changes (one `diff-tree` per repository) only for the reports that
/// show them: the table's matrix, Markdown, HTML, and the JSON with `--changed-files`. The JSON without it says
/// "not computed" (`null`) in every cell. Runs the built tenantctl as a process (`TENANTCTL_BINARY` picks another
/// build).
@Suite struct AuditChangedFilesTests {
    static let schemaPath = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("docs/audit-schema.json").path

    /// The example before its updates (t2 customises Infrastructure and Customer, t3 Order) with its mirrors made
    /// by a first audit, and a logging git shim.
    static func workspace() throws -> (GitSandbox, ExampleResult, GitShim) {
        let sandbox = try GitSandbox()
        let example = try sandbox.exampleCopy(in: sandbox.path("erp"), stage: .beforeUpdates)
        let shim = try GitShim(in: sandbox)
        let first = try sandbox.tenantctlProcess(["audit", "--json"], in: example.workspace)
        #expect(first.status == 0, "\(first.stderr)")
        return (sandbox, example, shim)
    }

    /// Runs `audit --no-fetch` with `arguments` through the shim; the result and the `diff-tree` calls it made.
    static func audit(_ sandbox: GitSandbox, _ example: ExampleResult, _ shim: GitShim, _ arguments: [String])
        throws -> (result: CLIResult, diffs: [String])
    {
        try shim.reset()
        let result = try sandbox.tenantctlProcess(
            ["audit", "--no-fetch", "--git", shim.path] + arguments, in: example.workspace,
            environment: ["SOURCE_DATE_EPOCH": "0"])
        #expect(result.status == 0, "\(arguments): \(result.stderr)")
        return (result, try shim.calls().filter { $0.contains("diff-tree") })
    }

    /// tenant id → module name (`superproject` for the tenant's own cell) → the cell's `changedFiles`.
    static func changedFiles(_ stdout: String) throws -> [String: [String: Any]] {
        let json = try #require(try JSONSerialization.jsonObject(with: Data(stdout.utf8)) as? [String: Any])
        var result: [String: [String: Any]] = [:]
        for tenant in try #require(json["tenants"] as? [[String: Any]]) {
            let id = try #require(tenant["id"] as? String)
            let superproject = try #require(tenant["superproject"] as? [String: Any])
            let changed = try #require(superproject["changedFiles"])
            result[id, default: [:]]["superproject"] = changed
            for module in try #require(tenant["modules"] as? [[String: Any]]) {
                let name = try #require(module["module"] as? String)
                let files = try #require(module["changedFiles"])
                result[id, default: [:]][name] = files
            }
        }
        return result
    }

    @Test func theJSONSaysNotComputedUnlessAskedAndStartsNoDiff() throws {
        let (sandbox, example, shim) = try Self.workspace()
        let (plain, noDiffs) = try Self.audit(sandbox, example, shim, ["--json"])
        #expect(noDiffs.isEmpty, "\(noDiffs)")
        let cells = try Self.changedFiles(plain.stdout)
        #expect(cells.count == 3 && cells.values.allSatisfy { $0.count == 5 })
        for (tenant, row) in cells {
            for (cell, files) in row { #expect(files is NSNull, "\(tenant)/\(cell): \(files)") }
        }
        let json = try JSONSerialization.jsonObject(with: Data(plain.stdout.utf8)) as? [String: Any]
        #expect(json?["schemaVersion"] as? Int == 2)
        #expect(try JSONSchemaCheck(contentsOf: Self.schemaPath).violations(of: plain.stdout) == [])
        // The same report again is the same bytes.
        #expect(try Self.audit(sandbox, example, shim, ["--json"]).result.stdout == plain.stdout)

        // Positive control: with --changed-files every cell has its list, as plain git gives it.
        let (listed, diffs) = try Self.audit(sandbox, example, shim, ["--json", "--changed-files"])
        #expect(!diffs.isEmpty)
        #expect(try JSONSchemaCheck(contentsOf: Self.schemaPath).violations(of: listed.stdout) == [])
        let computed = try Self.changedFiles(listed.stdout)
        for (tenant, row) in computed {
            for (module, files) in row where module != "superproject" {
                let repository = "\(example.remotes)/\(module).git"
                let line = try sandbox.git(
                    ["ls-tree", tenant, "--", "Modules/\(module)"], in: "\(example.remotes)/Superproject.git")
                let pin = String(line.split(separator: " ")[2].prefix(40))
                let base = try sandbox.git(["merge-base", "general_dev", pin], in: repository)
                let expected = try sandbox.git(["diff", "--name-only", "-z", base, pin], in: repository)
                    .split(separator: "\0").map(String.init).sorted()
                #expect(files as? [String] == expected, "\(tenant)/\(module)")
            }
            let superproject = try sandbox.git(
                ["diff", "--name-only", "general_dev...\(tenant)"], in: "\(example.remotes)/Superproject.git"
            ).split(separator: "\n").map(String.init).filter { !$0.hasPrefix("Modules/") }.sorted()
            #expect(row["superproject"] as? [String] == superproject, "\(tenant)")
        }
        #expect((computed["t2"]?["Customer"] as? [String])?.isEmpty == false)
        #expect(computed["t1"]?["Customer"] as? [String] == [])
        #expect(try Self.audit(sandbox, example, shim, ["--json", "--changed-files"]).result.stdout == listed.stdout)
    }

    @Test func theFormatsThatShowChangedFilesComputeThem() throws {
        let (sandbox, example, shim) = try Self.workspace()
        let (json, _) = try Self.audit(sandbox, example, shim, ["--json", "--changed-files"])
        let files = try #require(try Self.changedFiles(json.stdout)["t2"]?["Customer"] as? [String])
        let file = try #require(files.first)
        // The matrix (3 tenants: not compact), Markdown and HTML list them; the table's summary shows none.
        for (arguments, shows) in [
            ([String](), true), (["--matrix"], true), (["--format", "markdown"], true), (["--format", "html"], true),
            (["--summary"], false),
        ] {
            let (result, diffs) = try Self.audit(sandbox, example, shim, arguments)
            #expect(diffs.isEmpty == !shows, "\(arguments): \(diffs)")
            #expect(result.stdout.contains(file) == shows, "\(arguments)")
        }
        let (matrix, _) = try Self.audit(sandbox, example, shim, [])
        let line = matrix.stdout.split(separator: "\n").first { $0.contains("t2/Customer: ") }
        #expect(line?.contains(" — \(file)") == true, "\(matrix.stdout)")

        // A report of more tenants than the table's limit computes none: every cell says nil.
        let workspace = try Workspace.locate(from: example.workspace, git: try sandbox.gitRunner())
        for (limit, computed) in [(2, false), (3, true)] {
            var run = AuditRun(generatedAt: Date(timeIntervalSince1970: 0))
            run.changedFiles = .upToTenants(limit)
            let (report, _) = try run.run(workspace: workspace, fetch: false, wait: false, console: nil)
            let cells = report.tenants.flatMap { [$0.superproject.changedFiles] + $0.modules.map(\.changedFiles) }
            #expect(cells.count == 15 && cells.allSatisfy { ($0 != nil) == computed }, "limit \(limit)")
        }
    }

    /// The table computes them only where it shows them: up to its compact threshold, with --matrix at any size;
    /// the JSON only with --changed-files.
    @Test func theCommandAsksForChangedFilesWhereItsFormatShowsThem() throws {
        func need(_ arguments: [String]) throws -> AuditRun.ChangedFiles {
            let command = try #require(try Tenantctl.parseAsRoot(["audit"] + arguments) as? Tenantctl.Audit)
            return command.changedFilesNeeded(format: command.format ?? (command.global.json ? .json : .table))
        }
        #expect(try need([]) == .upToTenants(AuditTableRenderer.compactAbove))
        #expect(try need(["--matrix"]) == .computed)
        #expect(try need(["--summary"]) == .notComputed)
        #expect(try need(["--json"]) == .notComputed)
        #expect(try need(["--format", "json"]) == .notComputed)
        #expect(try need(["--json", "--changed-files"]) == .computed)
        #expect(try need(["--format", "markdown"]) == .computed)
        #expect(try need(["--format", "html"]) == .computed)
        #expect(AuditRun.ChangedFiles.upToTenants(30).computed(tenants: 30))
        #expect(!AuditRun.ChangedFiles.upToTenants(30).computed(tenants: 31))
    }
}
