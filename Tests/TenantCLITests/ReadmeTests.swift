import Foundation
import TenantExample
import TenantKit
import TenantTestSupport
import Testing

@testable import TenantCLI

/// The README's promises: every command in its table exists, and the quick start runs as written.
@Suite struct ReadmeTests {
    static let readme: String = {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        return (try? String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)) ?? ""
    }()

    /// `tenantctl …` invocations in a fenced block that follows `heading`.
    static func commands(after heading: String) -> [[String]] {
        guard let start = readme.range(of: heading) else { return [] }
        let rest = readme[start.upperBound...]
        guard let open = rest.range(of: "```sh\n"), let close = rest[open.upperBound...].range(of: "```") else {
            return []
        }
        return rest[open.upperBound..<close.lowerBound].split(separator: "\n").compactMap { line in
            let code = line.split(separator: "#", maxSplits: 1).first.map(String.init) ?? ""
            let words = code.split(separator: " ").map(String.init)
            return words.first == "tenantctl" ? Array(words.dropFirst()) : nil
        }
    }

    @Test(.tags(.slow), .notInTheFastSet) func everyCommandInTheTableExists() throws {
        let rows = Self.readme.split(separator: "\n").filter { $0.hasPrefix("| `tenantctl ") }
        #expect(rows.count >= 9)
        let sandbox = try GitSandbox()
        for row in rows {
            let invocation = row.dropFirst(3).prefix { $0 != "`" }
            // The command path: words up to the first option or placeholder.
            let words = invocation.split(separator: " ").dropFirst().prefix {
                !$0.hasPrefix("-") && !$0.hasPrefix("<") && !$0.hasPrefix("[")
            }
            let result = sandbox.tenantctl(words.map(String.init) + ["--help"])
            #expect(result.status == 0, "tenantctl \(words.joined(separator: " ")) --help failed")
            #expect(result.stdout.contains("USAGE: tenantctl \(words.joined(separator: " "))"), "\(row)")
        }
    }

    /// The other way round: every command is in the table, and every global option in the paragraph after it.
    @Test func everyCommandAndGlobalOptionIsInTheReadme() throws {
        let rows = Self.readme.split(separator: "\n").filter { $0.hasPrefix("| `tenantctl ") }.joined(separator: "\n")
        for command in Tenantctl.configuration.subcommands {
            #expect(rows.contains("tenantctl \(command._commandName)"), "\(command._commandName) is not in the table")
        }
        let paragraph = try #require(Self.readme.components(separatedBy: "Global options:").dropFirst().first)
            .components(separatedBy: "\n\n")[0]
        for option in GlobalOptions.valuedNames.union(GlobalOptions.flagNames) where option.hasPrefix("--") {
            #expect(paragraph.contains("`" + option), "\(option) is not among the README's global options")
        }
    }

    /// The docs speak in their own words: no section of the specification, number of the reliability list or issue
    /// number, which a reader of the repository cannot look up (README, CHANGELOG, docs/ and every command's help,
    /// which docs/CLI.md holds).
    @Test func docsCiteNothingAReaderCannotFind() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        var files = ["README.md", "CHANGELOG.md", "scripts/bench/README.md"]
        let docs = try #require(FileManager.default.enumerator(atPath: root.appendingPathComponent("docs").path))
        while let file = docs.nextObject() as? String {
            if file.hasSuffix(".md") || file.hasSuffix(".json") { files.append("docs/" + file) }
        }
        #expect(files.contains("docs/CLI.md") && files.contains("docs/schemas/roll.schema.json"))
        let citation = #"SPEC ?§|RELIABILIT[Y]|\b[Ii]ssues? \d"#
        for file in files {
            let text = try String(contentsOf: root.appendingPathComponent(file), encoding: .utf8)
            for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
            where line.range(of: citation, options: .regularExpression) != nil {
                Issue.record("\(file):\(number + 1) cites what a reader cannot find: \(line)")
            }
        }
        // Positive control: the pattern finds such a citation.
        #expect(("as SPE" + "C §" + "5 says").range(of: citation, options: .regularExpression) != nil)
        #expect(("see iss" + "ue 7").range(of: citation, options: .regularExpression) != nil)
    }

    /// A citation in code: a section sign with a number, the reliability list's name, an issue number or an R and a number in brackets.
    static let codeCitation = #"§ ?\d|SPEC ?§|RELIABILIT[Y]|\b[Ii]ssues? #?\d|\(R\d+\)"#

    /// The lines of `text` that cite what a reader cannot find, as 1-based line numbers.
    static func citingLines(_ text: String) -> [Int] {
        text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
            .filter { $0.element.range(of: codeCitation, options: .regularExpression) != nil }.map { $0.offset + 1 }
    }

    /// Comments in the sources, the tests and the scripts speak in their own words too: they say the behaviour or the
    /// fault a piece of code covers, not a number in a document outside the repository.
    @Test func codeCitesNothingAReaderCannotFind() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        var files = ["Package.swift"]
        for folder in ["Sources", "Tests", "scripts"] {
            let enumerator = try #require(
                FileManager.default.enumerator(atPath: root.appendingPathComponent(folder).path))
            while let file = enumerator.nextObject() as? String {
                let path = folder + "/" + file
                var isDirectory: ObjCBool = false
                guard
                    FileManager.default.fileExists(
                        atPath: root.appendingPathComponent(path).path,
                        isDirectory: &isDirectory), !isDirectory.boolValue
                else { continue }
                files.append(path)
            }
        }
        #expect(files.contains("Sources/TenantCLI/Tenantctl.swift") && files.contains("scripts/bench/run"))
        for file in files {
            let text = try String(contentsOf: root.appendingPathComponent(file), encoding: .utf8)
            for number in Self.citingLines(text) {
                let line = text.split(separator: "\n", omittingEmptySubsequences: false)[number - 1]
                Issue.record("\(file):\(number) cites what a reader cannot find: \(line)")
            }
        }
        // Positive control: each form of citation is found, and code that only looks alike is not.
        let cited =
            "/// RELIABILIT" + "Y 60: escaped\n// see iss" + "ue 26\n// the switch rules (§" + "8b)\n// (R" + "71)"
        #expect(Self.citingLines(cited) == [1, 2, 3, 4])
        #expect(Self.citingLines("case 0x0A: return nil\nIssue.record(\"x\")\n// ReliabilityEdgeTests").isEmpty)
    }

    @Test(.tags(.slow), .notInTheFastSet) func quickStartRunsAsWritten() throws {
        let commands = Self.commands(after: "## Quick start")
        #expect(commands.count >= 6)
        let sandbox = try GitSandbox()
        let example = try sandbox.exampleCopy(in: sandbox.path("erp"), stage: .afterUpdates)
        for arguments in commands {
            let result = sandbox.tenantctl(arguments, in: example.workspace)
            #expect(result.status == 0, "tenantctl \(arguments.joined(separator: " ")): \(result.stderr)")
        }
        // The last line is the gate, and it passes because roll ran before it.
        #expect(commands.last == ["audit", "--check"])
    }
}
