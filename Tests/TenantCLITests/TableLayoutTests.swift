import Foundation
import TenantKit
import TenantTestSupport
import Testing

/// Tables at real sizes and in pipes: a row key, an id, a branch or a run id is never cut; free text gives way
/// first; off a terminal (a pipe, a file) nothing is wrapped or cut; `--wide` does the same on a terminal.
@Suite(.tags(.slow), .notInTheFastSet) struct TableLayoutTests {
    // MARK: - The layout

    @Test func aKeyIsNeverCutFreeTextWrapsAtSpaces() {
        let table = TextTable(
            header: ["RUN", "STATE", "CHANGED"],
            rows: [
                ["20261124-033245-abcdef", "partly published", "3 refs in Superproject, Order, Customer"],
                ["20261124-033245-abcdf0", "published", "1 ref in Superproject"],
            ], text: [1, 2])
        let text = table.render(width: 50)
        let lines = text.split(separator: "\n").map(String.init)
        #expect(lines.allSatisfy { TextWidth.of($0) <= 50 }, "\(text)")
        // Both run ids whole, and the two rows told apart.
        #expect(text.contains("20261124-033245-abcdef") && text.contains("20261124-033245-abcdf0"), "\(text)")
        #expect(!text.contains("…"))
        // A word of free text is never broken: every word of the cells is on some line, whole.
        for word in ["partly", "published", "Superproject,", "Customer"] {
            #expect(lines.contains { $0.split(separator: " ").contains(Substring(word)) }, "\(word) in \(text)")
        }
        // Positive control: wide enough, one line per row.
        #expect(table.render(width: 200).split(separator: "\n").count == 3)
        #expect(table.render().split(separator: "\n").count == 3)
    }

    @Test func aListThatCannotFitBecomesRecords() {
        let table = TextTable(
            header: ["MODULE", "BRANCH", "HEAD", "PIN", "REMOTE"],
            rows: [["Infrastructure", "customer-with-a-long-name", "abcdef0", "1234567", "origin/x: ahead 1"]])
        let text = table.render(width: 40)
        #expect(text.split(separator: "\n").allSatisfy { TextWidth.of(String($0)) <= 40 }, "\(text)")
        #expect(text.contains("BRANCH  customer-with-a-long-name"), "\(text)")
        #expect(text.contains("HEAD    abcdef0") && text.contains("MODULE  Infrastructure"), "\(text)")
        // Positive control: the same table fits 100 columns as a grid.
        #expect(table.render(width: 100).hasPrefix("MODULE"))
        #expect(table.render(width: 100).split(separator: "\n").count == 2)
    }

    @Test func aMatrixThatCannotFitIsSplitIntoBlocksOfColumns() {
        let modules = (1...20).map { String(format: "M%03d", $0) }
        let rows = (1...3).map { tenant in [String(format: "t%04d", tenant)] + modules.map { _ in "✎2↓22" } }
        let table = TextTable(header: ["TENANT"] + modules, rows: rows, text: [])
        let text = table.render(width: 60, overflow: .columnBlocks)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.allSatisfy { TextWidth.of($0) <= 60 }, "\(text)")
        for module in modules { #expect(text.contains(module)) }
        // Every block repeats the tenant ids, whole.
        let blocks = text.components(separatedBy: "\n\n")
        #expect(blocks.count > 1)
        for block in blocks { #expect(block.contains("t0001") && block.contains("t0003") && block.hasPrefix("TENANT")) }
        #expect(!text.contains("…"))
    }

    // MARK: - Commands at 60, 80 and 200 columns and in a pipe

    static let commands: [[String]] = [
        ["roll", "--dry-run"], ["tenant", "list"], ["status"], ["audit", "--no-fetch"], ["switch", "t3"], ["runs"],
    ]

    /// Whether `text` has a cut cell (`t00…`; the audit legend's `(…) inactive` is none).
    static func isCut(_ text: String) -> Bool { text.replacingOccurrences(of: "(…)", with: "").contains("…") }

    /// The example after a roll that wrote a journal (so `runs` lists a run).
    static func example(_ sandbox: GitSandbox) throws -> (LifecycleExample, runId: String) {
        let example = try LifecycleExample(sandbox, stage: .afterUpdates)
        let roll = example.tenantctl(["roll", "-q", "--tenant", "t1"])
        #expect(roll.status == 0 || roll.status == 2, "\(roll.stderr)")
        return (example, roll.stdout.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    @Test(arguments: [60, 80, 200])
    func onATerminalIdsAndBranchesStayWhole(_ width: Int) throws {
        let sandbox = try GitSandbox()
        let (example, runId) = try Self.example(sandbox)
        #expect(!runId.isEmpty)
        for arguments in Self.commands {
            let run = sandbox.tenantctl(
                arguments + ["-C", example.workspace], environment: ["COLUMNS": "\(width)"], terminal: true)
            #expect(run.status == 0 || run.status == 2, "\(arguments): \(run.stderr)")
            #expect(!Self.isCut(run.stdout), "\(arguments) at \(width):\n\(run.stdout)")
            for line in run.stdout.split(separator: "\n") {
                #expect(TextWidth.of(String(line)) <= width, "\(arguments) at \(width): \(line)")
            }
        }
        let runs = sandbox.tenantctl(
            ["runs", "-C", example.workspace], environment: ["COLUMNS": "\(width)"], terminal: true)
        #expect(runs.stdout.contains(runId), "\(runs.stdout)")
        let status = sandbox.tenantctl(
            ["status", "-C", example.workspace], environment: ["COLUMNS": "\(width)"], terminal: true)
        #expect(status.stdout.contains("general_dev"), "\(status.stdout)")
    }

    @Test func inAPipeNothingIsWrappedOrCutWhateverColumnsSays() throws {
        let sandbox = try GitSandbox()
        let (example, _) = try Self.example(sandbox)
        let list = sandbox.tenantctl(["tenant", "list", "-C", example.workspace], environment: ["COLUMNS": "40"])
        #expect(list.status == 0, "\(list.stderr)")
        let rows = list.stdout.split(separator: "\n").filter { !$0.hasPrefix("note:") }
        // A header and one line per tenant: the active-module lists are whole, on their row.
        #expect(rows.count == 4, "\(list.stdout)")
        #expect(rows.contains { TextWidth.of(String($0)) > 40 })
        #expect(list.stdout.contains("Infrastructure"))
        // The same on a terminal with --wide; positive control: without it the terminal's 40 columns wrap.
        let wide = sandbox.tenantctl(
            ["tenant", "list", "--wide", "-C", example.workspace], environment: ["COLUMNS": "40"], terminal: true)
        #expect(wide.stdout == list.stdout)
        let narrow = sandbox.tenantctl(
            ["tenant", "list", "-C", example.workspace], environment: ["COLUMNS": "40"], terminal: true)
        #expect(narrow.stdout != list.stdout)
        #expect(narrow.stdout.split(separator: "\n").allSatisfy { TextWidth.of(String($0)) <= 40 }, "\(narrow.stdout)")
        // A report file is no terminal either.
        let file = sandbox.path("audit.txt")
        let audit = sandbox.tenantctl(
            ["audit", "--no-fetch", "-o", file, "-C", example.workspace], environment: ["COLUMNS": "30"],
            terminal: true)
        #expect(audit.status == 0, "\(audit.stderr)")
        let text = try String(contentsOfFile: file, encoding: .utf8)
        #expect(text.split(separator: "\n").contains { TextWidth.of(String($0)) > 30 }, "\(text)")
        #expect(!text.contains("\n\nTENANT"), "the matrix is one block in a file:\n\(text)")
    }

    // MARK: - At 100 tenants × 20 modules

    @Test func theAuditOfAHundredTenantsKeepsEveryTenantIdWhole() throws {
        let sandbox = try GitSandbox()
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("scripts/bench/generate").path
        let directory = sandbox.path("bench")
        let generated = try sandbox.run(
            "/usr/bin/env", ["python3", script, "--tenants", "100", "--modules", "20", directory])
        #expect(generated.status == 0, "\(generated.stderr)")
        let workspace = directory + "/workspace"
        let ids = (1...100).map { String(format: "t%04d", $0) }
        for width in [120, 60] {
            let audit = sandbox.tenantctl(
                ["audit", "--matrix", "--allow-local-remotes", "-C", workspace], environment: ["COLUMNS": "\(width)"],
                terminal: true)
            #expect(audit.status == 0, "\(audit.stderr)")
            let lines = audit.stdout.split(separator: "\n").map(String.init)
            #expect(lines.allSatisfy { TextWidth.of($0) <= width }, "at \(width)")
            for id in ids { #expect(lines.contains { $0.hasPrefix(id + " ") }, "\(id) at \(width)") }
            #expect(!Self.isCut(audit.stdout))
        }
        // In a pipe: one row per tenant, all 20 modules on it.
        let piped = sandbox.tenantctl(["audit", "--matrix", "--no-fetch", "--allow-local-remotes", "-C", workspace])
        let rows = piped.stdout.split(separator: "\n").filter { $0.hasPrefix("t0") && !$0.contains(":") }
        #expect(rows.count == 100, "\(piped.stdout.prefix(2000))")
        #expect(piped.stdout.split(separator: "\n").first?.contains("M020") == true)
        // Without --matrix, 100 tenants get the compact view: a line per tenant, its customised cells named, the
        // tenants with findings first; the matrix is one flag away.
        let compact = sandbox.tenantctl(
            ["audit", "--no-fetch", "--allow-local-remotes", "-C", workspace], environment: ["COLUMNS": "120"],
            terminal: true)
        #expect(compact.status == 0, "\(compact.stderr)")
        let lines = compact.stdout.split(separator: "\n").map(String.init)
        #expect(
            lines.first?.hasPrefix("TENANT  FINDINGS  BEHIND  MOST  CUSTOMISED  CELLS") == true, "\(lines.first ?? "")")
        #expect(lines.count < 160, "\(lines.count) lines")
        #expect(compact.stdout.contains("tenantctl audit --matrix shows every cell"))
        #expect(lines.allSatisfy { TextWidth.of($0) <= 120 })
        for id in ids { #expect(compact.stdout.contains(id), "\(id)") }
        // t0001 customises only M001 (the switch pair): its row names that cell.
        let first = try #require(lines.first { $0.hasPrefix("t0001 ") })
        #expect(first.contains("M001 ✎") && !first.contains("M002"), "\(first)")

        // roll --dry-run at 100 × 20 in an 80-column terminal: compact (pins counted, not listed with their ids);
        // every detail one flag away.
        let roll = sandbox.tenantctl(
            ["roll", "--dry-run", "--no-fetch", "--allow-local-remotes", "-C", workspace],
            environment: ["COLUMNS": "80"], terminal: true)
        #expect(roll.status == 0 || roll.status == 2, "\(roll.stderr)")
        let rollLines = roll.stdout.split(separator: "\n").map(String.init)
        #expect(rollLines.count < 250, "\(rollLines.count) lines")
        #expect(
            roll.stdout.contains("A compact view of 100 tenants") && roll.stdout.contains("--details"),
            "\(roll.stdout.suffix(600))")
        #expect(rollLines.allSatisfy { TextWidth.of($0) <= 80 })
        for id in ids { #expect(rollLines.contains { $0.hasPrefix(id + " ") }, "\(id)") }
        let details = sandbox.tenantctl(
            ["roll", "--dry-run", "--details", "--no-fetch", "--allow-local-remotes", "-C", workspace],
            environment: ["COLUMNS": "80"], terminal: true)
        #expect(details.stdout.split(separator: "\n").count > 2 * rollLines.count)
        #expect(details.stdout.contains("M020 ") && !details.stdout.contains("A compact view"))
    }

    @Test func aFewTenantsKeepTheMatrixAndManyGetTheCompactView() {
        func report(_ count: Int) -> AuditReport {
            let module = ModuleAudit(
                module: "Order", pin: String(repeating: "a", count: 40), branch: "general_dev", customised: false,
                ahead: 0, behind: 1, pinIsTip: true, active: true, changedFiles: [], findings: [])
            var finding = module
            finding.findings = [AuditFinding(.missingBranch, "no branch")]
            let tenants = (1...count).map { index in
                TenantAudit(
                    id: String(format: "t%03d", index), branch: String(format: "t%03d", index),
                    superproject: SuperprojectAudit(ahead: 0, behind: 0, changedFiles: [], findings: []),
                    modules: [index == count ? finding : module])
            }
            return AuditReport(generalBranch: "general_dev", modules: ["Order"], tenants: tenants)
        }
        let console = Console(out: BufferOutputSink(), err: BufferOutputSink())
        let few = AuditTableRenderer.render(report(AuditTableRenderer.compactAbove), console: console)
        #expect(few.hasPrefix("TENANT  SUPERPROJECT  Order"), "\(few)")
        let many = AuditTableRenderer.render(report(AuditTableRenderer.compactAbove + 1), console: console)
        #expect(many.hasPrefix("TENANT  FINDINGS"), "\(many)")
        // The tenant with a finding comes first.
        let first = many.split(separator: "\n")[1]
        #expect(first.hasPrefix("t031 ") && first.hasSuffix("Order ↓1! missing-branch"), "\(many)")
        let forced = AuditTableRenderer.render(report(40), console: console, view: .matrix)
        #expect(forced.hasPrefix("TENANT  SUPERPROJECT"))
    }
}
