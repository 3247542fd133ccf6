import ArgumentParser
import Foundation
import Testing

@testable import TenantCLI

/// `docs/CLI.md` is generated from every command's `--help`; this test fails when they drift apart.
/// Regenerate with `scripts/update-cli-reference` (runs this test with `TENANTCTL_UPDATE_REFERENCE=1`).
@Suite struct CLIReferenceTests {
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

            Every command follows them (helpers in `Sources/TenantKit/Support/OutputConventions.swift`, listed in
            docs/DESIGN.md; tested by `OutputConventionTests`):

            - **JSON**: every command that prints accepts `--json` (printed even with `--quiet`); every JSON report
              has a top-level `"schemaVersion": 1` and a JSON Schema in `docs/schemas/<command>.schema.json`
              (audit: `docs/audit-schema.json`, compose: `docs/compose-schema.json`). Full commit ids in JSON.
            - **Tables** fit the terminal: the width is `COLUMNS`, else the terminal's own width (`TIOCGWINSZ` on
              stdout), else 80 when stdout is not a terminal (at least 20). The last column wraps at spaces onto
              indented continuation lines (a word longer than the column is broken); when that leaves it fewer
              than 12 columns, the widest other columns are cut with `…` (down to 4 columns each). The audit
              matrix cuts instead of wrapping, so each tenant stays on one row. Only a table whose columns cannot
              get that narrow is printed wider (a matrix of many modules: use `--format html` or `--json`). Prose
              around a table wraps the same way. `--json` always has the full text.
            - **Headers** are UPPERCASE (module names in the audit matrix keep their case: they are data).
            - **Commit ids** in text are 7 characters (`ObjectID.short`).
            - **Counted nouns** are written out: "1 branch", "2 branches" (`English.count`).
            - **Dry runs** speak in the conditional: "would add tenant t5", "would switch to t2", "3 would roll".
            - **Errors** start `error: ` on stderr (usage errors too; the argument parser's `Error:` is rewritten)
              and end with the next step where there is one. Warnings start `warning: `.
            - **Exit codes**: 0 success, 1 failure, 2 completed with conflicts or findings, 64 usage error
              (including an unknown tenant or module, and a mistyped command: "did you mean switch?"), 130
              interrupted (the message says whether anything may have been published and how to undo it).
            - **Unknown names** list the known ones, closest first (edit distance), with "did you mean …?" when
              one is close.
            - **Colour** with `--color auto|always|never` (auto: a terminal without `NO_COLOR`): audit cells,
              status (dirty, diverged), roll (conflict, rejected, blocked, rolled).
            - **Completions**: `tenantctl --generate-completion-script zsh|bash|fish`; tenant and module
              arguments complete from the working tree's `Tenants/` and `modules.json`.


            """
        for (name, command) in allCommands(Tenantctl.self) {
            text += "## `\(name)`\n\n```text\n"
            text += Tenantctl.helpMessage(for: command, columns: 100).trimmingCharacters(in: .whitespacesAndNewlines)
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
