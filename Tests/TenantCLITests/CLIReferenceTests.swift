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
