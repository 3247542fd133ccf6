import ArgumentParser
import Foundation
import TenantExample
import TenantKit
import TenantTestSupport
import Testing

@testable import TenantCLI

/// The docs tell the truth and run: every `--help` example runs on an example workspace, the
/// tutorial runs as written, and the CHANGELOG has a section for `--version`. README's quick start
/// (`ReadmeTests`), docs/adopting.md (`AdoptingGuideTests`) and docs/ci.md (`CIGuideTests`) have their own tests.
@Suite(.tags(.slow), .notInTheFastSet) struct DocsRunTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// Every leaf command's name and its `--help` examples (discussion lines starting `tenantctl `).
    static func helpExamples() -> [(String, [String])] {
        CLIReferenceTests.allCommands(Tenantctl.self).compactMap { name, command in
            let lines = command.configuration.discussion.split(separator: "\n")
                .map { $0.trimmingCharacters(in: .whitespaces) }.filter { $0.hasPrefix("tenantctl ") }
            return lines.isEmpty ? nil : (name, lines)
        }
    }

    /// Examples that cannot run against the example workspace, with the reason (printed when skipped).
    static let skipped: [String: String] = [
        "tenantctl module add Reports --url https://git.example.com/erp/Reports.git":
            "needs a network remote",
        "tenantctl runs --abort <run-id>    # take back what a stopped run pushed":
            "needs an unfinished run (RunWaysOutTests runs the printed ways out)",
        "tenantctl runs --forget <run-id>   # unblock; what it pushed stays":
            "needs an unfinished run (RunWaysOutTests runs the printed ways out)",
        "tenantctl runs --abort <run-id> --json | jq '.kept[].note'":
            "needs an unfinished run (RunsAbortJSONTests runs it)",
    ]

    /// Words of one shell command: split at spaces, single and double quotes kept together (no escapes).
    static func words(_ text: String) -> [String] {
        var words: [String] = []
        var current = ""
        var quote: Character?
        var inWord = false
        for character in text {
            if let open = quote {
                if character == open { quote = nil } else { current.append(character) }
            } else if character == "'" || character == "\"" {
                quote = character
                inWord = true
            } else if character == " " {
                if inWord { words.append(current) }
                current = ""
                inWord = false
            } else {
                current.append(character)
                inWord = true
            }
        }
        if inWord { words.append(current) }
        return words
    }

    /// The words of a step as the docs write it: a description after two spaces, a `#` comment, a pipe or a
    /// redirection ends the command.
    static func command(_ step: String) -> String {
        var command = step.trimmingCharacters(in: .whitespaces)
        if let description = command.range(of: "  ") { command = String(command[..<description.lowerBound]) }
        for end in [" #", " |", " >"] {
            if let range = command.range(of: end) { command = String(command[..<range.lowerBound]) }
        }
        return command
    }

    /// The commands that make a directory of their own and read nothing of the one they run in: their steps run
    /// once per test process (``SharedSteps``), however many commands' help shows them.
    static let selfContained: Set<String> = ["example", "demo"]

    /// Runs one example line in `directory`: `&&`-separated `tenantctl …` and `cd …` steps; a description after
    /// two spaces, a `#` comment, a pipe or a redirection ends the command. Returns each tenantctl step's result.
    ///
    /// A ``selfContained`` step (`tenantctl example /tmp/erp`, `tenantctl demo`) is the same run wherever it is
    /// shown: it runs once per process and every test that shows it checks that run's result. With
    /// `keepDirectories` the directory it made (its `/tmp/…` argument) is copied to where the substitution puts it,
    /// for the steps that work in it next.
    static func runExample(
        _ line: String, in directory: String, sandbox: GitSandbox, substitute: [String: String],
        keepDirectories: Bool = false
    ) throws -> [(String, CLIResult)] {
        func substituted(_ text: String) -> String {
            var text = text
            // Longest first: `/tmp/erp-conflict` and `/tmp/erp/build` before `/tmp/erp`.
            for (from, to) in substitute.sorted(by: { $0.key.count > $1.key.count }) {
                text = text.replacingOccurrences(of: from, with: to)
            }
            return text
        }
        var directory = directory
        var results: [(String, CLIResult)] = []
        for step in line.components(separatedBy: " && ") {
            let written = Self.command(step)
            let command = substituted(written)
            let words = Self.words(command)
            if words.first == "cd", words.count == 2 {
                directory = words[1]
            } else if words.first == "tenantctl", words.count > 1, selfContained.contains(words[1]) {
                let shared = try SharedSteps.run(written, sandbox: sandbox)
                if keepDirectories, let made = shared.made,
                    let index = Self.words(written).firstIndex(where: { $0.hasPrefix("/tmp/") }), index < words.count
                {
                    try DirectoryTemplates.copyTree(from: made, to: words[index])
                }
                results.append((command, shared.result))
            } else if words.first == "tenantctl" {
                results.append((command, sandbox.tenantctl(Array(words.dropFirst()), in: directory)))
            }
        }
        return results
    }

    /// The runs of the ``selfContained`` steps in this test process: each written step once, in a template directory
    /// of its own (``DirectoryTemplates``) with its `/tmp/…` argument pointing there.
    enum SharedSteps {
        struct Run: Sendable {
            var result: CLIResult
            /// The directory the step made (its `/tmp/…` argument, inside the template), if it names one.
            var made: String?
        }

        static func run(_ written: String, sandbox: GitSandbox) throws -> Run {
            func run(in directory: String) -> Run {
                let words = DocsRunTests.words(written)
                let made = words.contains { $0.hasPrefix("/tmp/") } ? directory + "/made" : nil
                let arguments = words.dropFirst().map { $0.hasPrefix("/tmp/") ? directory + "/made" : $0 }
                return Run(result: sandbox.tenantctl(Array(arguments), in: directory), made: made)
            }
            // `TENANTCTL_TEMPLATES=0`: every test runs the step itself, as before.
            if DirectoryTemplates.buildEveryCopy {
                let directory = sandbox.path("step-\(UUID().uuidString.prefix(8))")
                try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
                return run(in: directory)
            }
            let key = "docs-step-" + written.map { $0.isLetter || $0.isNumber ? String($0) : "_" }.joined()
            return try DirectoryTemplates.shared.template(key) { run(in: $0) }.value
        }
    }

    /// Commands whose examples only read the workspace and the remotes (tenantctl's own fetched copies and the files
    /// an example writes aside): they run one after another on one copy of the example, and
    /// ``readOnlyExamplesShareOneWorkspace()`` checks after each command that nothing else changed.
    static let readOnly = [
        "tenantctl status", "tenantctl diff", "tenantctl tenant list", "tenantctl verify", "tenantctl audit",
    ]

    /// Whether a step of `lines` runs in the workspace: a tenantctl step that follows no `cd` of its line and is not
    /// ``selfContained``.
    static func needsWorkspace(_ lines: [String]) -> Bool {
        for line in lines where skipped[line] == nil {
            for step in line.components(separatedBy: " && ") {
                let words = Self.words(Self.command(step))
                if words.first == "cd" { break }
                if words.first == "tenantctl", !(words.count > 1 && selfContained.contains(words[1])) { return true }
            }
        }
        return false
    }

    @Test(arguments: helpExamples().map(\.0).filter { !readOnly.contains($0) })
    func helpExamplesRunOnTheExample(_ name: String) throws {
        let lines = try #require(Self.helpExamples().first { $0.0 == name }?.1)
        let sandbox = try GitSandbox()
        if name == "tenantctl resolve" {
            try Self.runResolveExamples(lines, sandbox: sandbox)
            return
        }
        // `tenantctl example …` and `tenantctl demo …` make their own directories: no copy of the example for them.
        guard Self.needsWorkspace(lines) else {
            try Self.runExamples(of: name, lines, in: sandbox.root, sandbox: sandbox)
            return
        }
        let example = try LifecycleExample(sandbox, stage: .afterUpdates)
        let workspace = example.workspace
        // What an example needs to exist first (the help shows the command, not its preparation).
        switch name {
        case "tenantctl uncustomize": #expect(example.tenantctl(["customize", "t1", "Order"]).status == 0)
        case "tenantctl customize":
            // A module branch not named after a tenant, for --branch to adopt (a release line of Article).
            try sandbox.git(["branch", "release/2.x", "general_dev"], in: example.remote("Article"))
        case "tenantctl tenant remove": #expect(example.tenantctl(["tenant", "add", "t4"]).status == 0)
        case "tenantctl module add": _ = try LifecycleModuleTests.invoiceRemote(example)
        case "tenantctl module remove":
            _ = try LifecycleModuleTests.invoiceRemote(example)
            #expect(example.tenantctl(["module", "add", "Invoice", "--url", "../Invoice.git"]).status == 0)
        case "tenantctl init": try sandbox.git(["branch", "develop"], in: workspace)
        default: break
        }
        try Self.runExamples(of: name, lines, in: workspace, sandbox: sandbox)
    }

    /// The read-only commands' examples on one copy of the example, in the order of ``readOnly`` (audit, whose
    /// examples write report files into the workspace, last). After each command every ref of the workspace and the
    /// remotes and the workspace's tracked files and checkouts are as before: an example that writes more fails here
    /// and needs a copy of its own (in ``helpExamplesRunOnTheExample(_:)``).
    @Test func readOnlyExamplesShareOneWorkspace() throws {
        let sandbox = try GitSandbox()
        let example = try LifecycleExample(sandbox, stage: .afterUpdates)
        let all = Self.helpExamples()
        for name in Self.readOnly {
            let lines = try #require(all.first { $0.0 == name }?.1, "\(name) shows no examples")
            let before = try Self.committedState(example)
            try Self.runExamples(of: name, lines, in: example.workspace, sandbox: sandbox)
            #expect(
                try Self.committedState(example) == before,
                "\(name)'s examples changed the workspace or a remote: run them on a copy of their own")
        }
    }

    /// Every ref of the remotes and the workspace (tenantctl's cache of the remotes aside), HEAD, and the workspace's
    /// status without untracked files (a module checkout moved shows there).
    static func committedState(_ example: LifecycleExample) throws -> [String: [String: String]] {
        var state = try example.snapshot()
        state["workspace status"] = [
            "status": try example.sandbox.git(
                ["status", "--porcelain=v2", "--untracked-files=no"], in: example.workspace)
        ]
        return state
    }

    /// Runs the examples `lines` of command `name` one after another in `workspace` and checks each step's exit
    /// status.
    static func runExamples(of name: String, _ lines: [String], in workspace: String, sandbox: GitSandbox) throws {
        var counter = 0
        for line in lines {
            if let reason = Self.skipped[line] {
                print("DocsRunTests: skipped `\(line)`: \(reason)")
                continue
            }
            counter += 1
            var substitute = [
                "/tmp/erp-demo": sandbox.path("demo-\(counter)"), "/tmp/erp/build": sandbox.path("build"),
                "/tmp/erp": sandbox.path("erp-\(counter)"), "path/to/superproject": workspace,
            ]
            if line.contains("<run-id>") {
                let runs = try RollJournal.all(gitDirectory: workspace + "/.git").runs
                substitute["<run-id>"] = try #require(runs.last?.runId, "no roll ran before `\(line)`")
            }
            let results = try Self.runExample(line, in: workspace, sandbox: sandbox, substitute: substitute)
            #expect(!results.isEmpty, "\(line): nothing ran")
            for (command, result) in results {
                // A review roll exits 75 while its reviews are open, as they are on the example.
                let allowed: Set<Int32> =
                    command.contains("--check")
                    ? [0, 2] : (command.contains("--review") || command.contains("--land")) ? [0, 75] : [0]
                #expect(allowed.contains(result.status), "\(name): `\(command)` → \(result.status)\n\(result.stderr)")
            }
        }
    }

    /// resolve's examples tell one story on the example's conflict stage: once ending with `--continue`, once with
    /// `--abort` ("instead of --continue"). roll and `resolve t2` exit 2 (t2 conflicts); between `resolve t2` and
    /// the next step the test plays the user who resolves Strings.csv in an editor and stages it (the help's
    /// `git -C … add` line).
    static func runResolveExamples(_ lines: [String], sandbox: GitSandbox) throws {
        #expect(
            lines.contains { $0.contains("resolve --continue") } && lines.contains { $0.contains("resolve --abort") })
        for ending in ["--continue", "--abort"] {
            let base = sandbox.path("erp-conflict\(ending)")
            let workspace = base + "/workspace"
            var ran = 0
            for line in lines where !(line.contains("resolve --") && !line.contains("resolve \(ending)")) {
                let directory = line.hasPrefix("tenantctl example") ? sandbox.root : workspace
                let results = try Self.runExample(
                    line, in: directory, sandbox: sandbox, substitute: ["/tmp/erp-conflict": base],
                    keepDirectories: true)
                #expect(!results.isEmpty, "\(line): nothing ran")
                for (command, result) in results {
                    // After --abort, `resolve t2 --review` starts the same conflict again (2); after --continue,
                    // t2 is resolved and there is nothing to start (0).
                    let startsTheConflict =
                        command == "tenantctl resolve t2"
                        || (command == "tenantctl resolve t2 --review" && ending == "--abort")
                    let expected: Int32 = command == "tenantctl roll" || startsTheConflict ? 2 : 0
                    #expect(
                        result.status == expected, "`\(command)` → \(result.status)\n\(result.stdout)\(result.stderr)")
                    ran += 1
                }
                if line == "tenantctl resolve t2" {
                    let resolution = ExampleScenario.conflictResolution
                    let module = "\(workspace)/Modules/\(resolution.module)"
                    try resolution.content.write(
                        toFile: "\(module)/\(resolution.file)", atomically: true, encoding: .utf8)
                    try sandbox.git(["add", "--", resolution.file], in: module)
                }
            }
            #expect(ran == lines.count - 1, "\(ending): not every example ran")
            let status = sandbox.tenantctl(["audit", "--check", "--tenant", "t2"], in: workspace)
            // --continue: t2 is rolled and published, the audit is clean; --abort: t2 is as before, still behind.
            #expect(status.status == (ending == "--continue" ? 0 : 2), "\(ending): \(status.stdout)")
        }
    }

    @Test func theTutorialRunsAsWritten() throws {
        let sandbox = try GitSandbox()
        let guide = try String(contentsOf: Self.root.appendingPathComponent("docs/tutorial.md"), encoding: .utf8)
        let blocks = AdoptingGuideTests.shellBlocks(guide)
        #expect(blocks.first?.hasPrefix("tenantctl example /tmp/erp") == true)
        let binary = try #require(TenantctlBinary.path())
        let bin = URL(fileURLWithPath: binary).deletingLastPathComponent().path
        let base = sandbox.path("tutorial")
        var script = "set -u\ncd \(GitSandboxShell.quote(sandbox.root)) || exit 99\n"
        var count = 0
        for block in blocks {
            for raw in block.split(separator: "\n") where !raw.trimmingCharacters(in: .whitespaces).isEmpty {
                let line = raw.replacingOccurrences(of: "/tmp/erp", with: base)
                var command = line.hasPrefix("cd ") ? "\(line) || exit 98" : line
                if line.hasPrefix("git -C Modules/Infrastructure add Strings.csv") {
                    // The tutorial's reader resolves the conflict in an editor first; the test writes the result.
                    command =
                        "cat > Modules/Infrastructure/Strings.csv <<'TENANTCTL_EOF'\n"
                        + ExampleScenario.conflictResolution.content + "TENANTCTL_EOF\n" + command
                }
                script += "\(command)\necho \"exit=$? :: \(line.replacingOccurrences(of: "\"", with: "'"))\"\n"
                count += 1
            }
        }
        let result = try sandbox.run(
            "/bin/sh", ["-c", script], extraEnvironment: ["PATH": bin + ":" + (sandbox.environment["PATH"] ?? "")])
        let statuses = result.stdout.split(separator: "\n").filter { $0.hasPrefix("exit=") }
        #expect(statuses.count == count, "\(result.stdout)\n\(result.stderr)")
        for status in statuses {
            // `resolve t2` starts with a conflict: exit 2 is what the tutorial explains.
            let expected = status.contains(":: tenantctl resolve t2 ") ? "exit=2 " : "exit=0 "
            #expect(status.hasPrefix(expected), "\(status)\n\(result.stderr)")
        }
        // The statuses the tutorial echoes: the gate 2 while t1 and t3 are behind in Order, 0 after the roll; the
        // conflict's roll 2 (t2 conflicts), and the gate 0 after resolve --continue.
        let echoed = result.stdout.split(separator: "\n").filter { $0 == "0" || $0 == "2" }
        #expect(echoed == ["2", "0", "2", "0"], "\(result.stdout)")
        #expect(!result.stderr.contains("error:"), "\(result.stderr)")
    }

    @Test func theChangelogHasASectionForTheVersion() throws {
        let changelog = try String(contentsOf: Self.root.appendingPathComponent("CHANGELOG.md"), encoding: .utf8)
        let sandbox = try GitSandbox()
        let version = sandbox.tenantctl(["--version"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(version == TenantKitInfo.version)
        let headings = changelog.split(separator: "\n").filter { $0.hasPrefix("## ") }.map(String.init)
        let released = try #require(
            headings.firstIndex {
                $0.range(of: #"^## \[[0-9][^\]]*\] - \d{4}-\d{2}-\d{2}$"#, options: .regularExpression) != nil
            },
            "no released section (## [x.y.z] - YYYY-MM-DD)")
        #expect(headings[released].hasPrefix("## [\(version)] - "), "the newest release is not --version \(version)")
        #expect(headings.first == "## [Unreleased]", "Unreleased comes first")
    }
}
