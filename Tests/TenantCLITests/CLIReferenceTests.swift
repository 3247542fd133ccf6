import ArgumentParser
import Foundation
import TenantTestSupport
import Testing

@testable import TenantCLI

/// `docs/CLI.md` is generated from every command's `--help`; this test fails when they drift apart.
/// Regenerate with `scripts/update-cli-reference` (runs this test with `TENANTCTL_UPDATE_REFERENCE=1`).
@Suite(.tags(.slow), .notInTheFastSet) struct CLIReferenceTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    static func allCommands(_ command: ParsableCommand.Type, path: [String] = []) -> [(String, ParsableCommand.Type)] {
        let name = command.configuration.commandName ?? String(describing: command).lowercased()
        let full = path + [name]
        return [(full.joined(separator: " "), command)]
            + command.configuration.subcommands.flatMap { allCommands($0, path: full) }
    }

    static func reference() -> String {
        var text = """
            # tenantctl command reference

            Generated from `--help` by `scripts/update-cli-reference`; CI fails when it is out of date.

            ## Output conventions

            Every command follows them (helpers in `Sources/TenantSupport/Support/`, listed in
            docs/DESIGN.md; tested by `OutputConventionTests`):

            - **JSON**: every command that prints accepts `--json` (printed even with `--quiet`); every JSON report
              has a top-level `"schemaVersion": 1` (audit's: 2) and a JSON Schema in
              `docs/schemas/<command>.schema.json` (audit: `docs/audit-schema.json`, compose:
              `docs/compose-schema.json`). Full commit ids in JSON.
              A command given `--json` that is refused or fails (exit 1 or 64) before its report prints the error
              on stdout too, as `{"error": {"code", "message", "names"}, "schemaVersion": 1}`
              (`docs/schemas/error.schema.json`; codes `usage`, `unknown-tenant`, `unknown-module`, `git`,
              `failed`), so that a script reading stdout sees why.
            - **Tables** never cut a tenant id, a module name, a branch, a commit id or a run id. On a terminal
              they fit its width (`COLUMNS`, else the terminal's own width, else 80; at least 20): free text
              (names, details, lists) wraps at spaces within its column, a word is never broken; a list that still
              does not fit is printed as one block of `TITLE  value` lines per row, and the audit matrix in blocks
              of module columns, each with the tenant ids. Off a terminal (a pipe, a CI log, `audit -o file`)
              nothing is wrapped or cut, whatever `COLUMNS` says, so every row is one line for `grep` and `awk`;
              `--wide` does the same on a terminal. Prose around a table wraps at the terminal's width only.
              `--json` always has the full text.
            - **Headers** are UPPERCASE (module names in the audit matrix keep their case: they are data).
            - **Commit ids** in text are 7 characters (`ObjectID.short`).
            - **Counted nouns** are written out: "1 branch", "2 branches" (`English.count`).
            - **Dry runs** speak in the conditional: "would add tenant t5", "would switch to t2", "3 would roll".
            - **Errors** start `error: ` on stderr (usage errors too; the argument parser's `Error:` is rewritten)
              and end with the next step where there is one. Warnings start `warning: `.
            - **Exit codes**: 0 success, 1 failure, 2 completed with conflicts or findings, 64 usage error
              (including an unknown tenant or module, and a mistyped command: "did you mean switch?"), 130
              interrupted (the message says whether anything may have been published and how to undo it).
            - **Unknown names** are refused (roll, audit, compose, customize: before any module repository is
              fetched) with at most three close names ("did you mean …?", by edit distance; a swap of two
              letters is one edit), every known one only when there are a few, then `see: tenantctl tenant
              list`. A mistyped command gets the same.
            - **Help**: `--help` prints the overview, USAGE, the arguments, the command's own options and the
              global options first, then DESCRIPTION and EXAMPLES (every command has examples); `-h` prints the
              short help (USAGE and the command's own options). `--version` is an option of `tenantctl` only.
            - **Colour** with `--color auto|always|never` (auto: a terminal without `NO_COLOR`): audit cells,
              status (dirty, diverged), roll (conflict, rejected, blocked, rolled).
            - **Completions**: `tenantctl --generate-completion-script zsh|bash|fish`; tenant and module
              arguments complete from the working tree's `Tenants/` and `modules.json`.


            """
        for (name, command) in allCommands(Tenantctl.self) {
            text += "## `\(name)`\n\n```text\n"
            text += HelpLayout.arranged(Tenantctl.helpMessage(for: command, columns: 100))
                .trimmingCharacters(in: .whitespacesAndNewlines)
            text += "\n```\n\n"
        }
        return text
    }

    @Test func referenceIsUpToDate() throws {
        let file = Self.root.appendingPathComponent("docs/CLI.md")
        let expected = Self.reference()
        if ProcessInfo.processInfo.environment["TENANTCTL_UPDATE_REFERENCE"] == "1" {
            try expected.write(to: file, atomically: true, encoding: .utf8)
        }
        let actual = try String(contentsOf: file, encoding: .utf8)
        #expect(
            actual == expected,
            "docs/CLI.md is out of date: run scripts/update-cli-reference and commit the result")
    }

    @Test func helpShowsEachDefaultOnceAndTheGlobalOptionsAfterTheCommandsOwn() throws {
        for (name, command) in Self.allCommands(Tenantctl.self) {
            let help = HelpLayout.arranged(Tenantctl.helpMessage(for: command, columns: 80))
            let flat = help.split(whereSeparator: \.isWhitespace).joined(separator: " ")
            #expect(
                flat.range(of: #"\(default: [^)]*\)\.? \(default:"#, options: .regularExpression) == nil,
                "\(name) shows a default twice")
            guard command is any TenantctlCommand.Type else { continue }
            let own = try #require(help.range(of: "\nOPTIONS:\n"), "\(name)")
            let global = try #require(help.range(of: "\nGLOBAL OPTIONS:\n"), "\(name)")
            #expect(own.upperBound < global.lowerBound, "\(name): global options before the command's own")
            #expect(help[global.upperBound...].contains("-C <dir>"), "\(name)")
            #expect(help[own.upperBound..<global.lowerBound].contains("--help"), "\(name)")
        }
        // Positive control: the argument parser alone puts the titled section first.
        let raw = Tenantctl.helpMessage(for: Tenantctl.Switch.self, columns: 80)
        #expect(
            try #require(raw.range(of: "GLOBAL OPTIONS:")).lowerBound < #require(raw.range(of: "\nOPTIONS:")).lowerBound
        )
    }

    /// Example lines and the indented lists of a help text stay whole at 80 columns (a longer line would wrap to
    /// column 0).
    @Test func indentedHelpLinesKeepTheirLayoutAt80Columns() {
        for (name, command) in Self.allCommands(Tenantctl.self) {
            let help = Tenantctl.helpMessage(for: command, columns: 80)
            for line in command.configuration.discussion.split(separator: "\n") where line.hasPrefix("  ") {
                #expect(help.contains(line + "\n"), "\(name): `\(line)` wraps at 80 columns")
            }
        }
    }

    @Test func helpForAnUnknownCommandIsAUsageError() throws {
        let sandbox = try GitSandbox()
        let typo = sandbox.tenantctl(["help", "swich"])
        #expect(typo.status == 64)
        #expect(typo.stderr.hasPrefix("error: unknown command 'swich'") && typo.stderr.contains("did you mean switch?"))
        #expect(typo.stdout.isEmpty)
        let nested = sandbox.tenantctl(["help", "tenant", "ad"])
        #expect(nested.status == 64 && nested.stderr.contains("did you mean add?"), "\(nested.stderr)")
        let unknown = sandbox.tenantctl(["help", "nosuch"])
        #expect(unknown.status == 64 && unknown.stderr.contains("commands: "), "\(unknown.stderr)")
        // Positive controls: a known command's help, through `help` and through `--help`, global options last.
        let known = sandbox.tenantctl(["help", "tenant", "add"])
        #expect(known.status == 0 && known.stdout.contains("USAGE: tenantctl tenant add"), "\(known.stderr)")
        let flag = sandbox.tenantctl(["switch", "--help"])
        #expect(flag.status == 0)
        let own = try #require(flag.stdout.range(of: "\nOPTIONS:"))
        let global = try #require(flag.stdout.range(of: "\nGLOBAL OPTIONS:"))
        #expect(own.lowerBound < global.lowerBound, "\(flag.stdout)")
    }

    @Test func everyCommandHasAnAbstractAndAnExample() {
        for (name, command) in Self.allCommands(Tenantctl.self) {
            let configuration = command.configuration
            #expect(!configuration.abstract.isEmpty, "\(name) has no abstract")
            if configuration.subcommands.isEmpty {
                #expect(configuration.discussion.contains("tenantctl "), "\(name) --help shows no example")
            }
        }
    }
}
