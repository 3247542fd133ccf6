import Foundation
import TenantKit
import TenantTestSupport
import Testing

/// `diff` at a terminal pages as `git diff` does: a patch taller than the terminal goes through the pager, and
/// `--no-pager` prints it as it is.
@Suite(
    "diff at a terminal", .enabled(if: PseudoTerminal.available, "script(1) makes the terminal"), .tags(.slow),
    .notInTheFastSet)
struct DiffPagerTests {
    @Test func aLongDiffGoesThroughThePagerAsGitDiffDoes() throws {
        let sandbox = try GitSandbox()
        let example = try sandbox.exampleCopy(in: sandbox.path("erp"), stage: .beforeUpdates)
        let pager = try TerminalViewTests.fakePager(sandbox)
        let environment = ["TENANTCTL_PAGER": pager.command, "GIT_PAGER": "false", "PAGER": "false"]
        let binary = try TerminalViewTests.binary()
        let paged = try PseudoTerminal.run(
            binary, ["diff", "t2"], in: example.workspace, columns: 100, rows: 10, environment: environment,
            sandbox: sandbox)
        #expect(paged.status == 0, "\(paged.output)")
        #expect(try sandbox.read("pager-calls") == "called LESS=FRX\n")
        #expect(try sandbox.read("pager-input").contains("diff --git"))
        #expect(!paged.output.contains("diff --git"), "the diff went to the pager: \(paged.output)")
        // Positive control: --no-pager prints it at the terminal.
        let direct = try PseudoTerminal.run(
            binary, ["--no-pager", "diff", "t2"], in: example.workspace, columns: 100, rows: 10,
            environment: environment, sandbox: sandbox)
        #expect(direct.output.contains("diff --git"), "\(direct.output)")
    }
}
