import Foundation
import TenantExample
import TenantKit
import TenantTestSupport
import Testing

@testable import TenantCLI

/// The output conventions of every command (docs/CLI.md "Output conventions"): `--json` with a
/// schema everywhere, tables that fit the terminal, exit 64 for unknown names, "did you mean", completions.
@Suite(.tags(.slow), .notInTheFastSet) struct OutputConventionTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The schema file of a command's JSON (audit and compose keep their older names).
    static func schema(_ name: String) throws -> JSONSchemaCheck {
        let path: String
        switch name {
        case "audit": path = "docs/audit-schema.json"
        case "compose": path = "docs/compose-schema.json"
        default: path = "docs/schemas/\(name).schema.json"
        }
        return try JSONSchemaCheck(contentsOf: root.appendingPathComponent(path).path)
    }

    /// Runs `arguments --json` in the workspace, expects `status` and JSON that validates against `schema`.
    @discardableResult
    static func checkJSON(
        _ example: LifecycleExample, _ arguments: [String], schema: String, status: Int32 = 0,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> [String: Any] {
        let run = example.tenantctl(arguments + ["--json"])
        #expect(run.status == status, "\(arguments): \(run.stderr)", sourceLocation: sourceLocation)
        let problems = try Self.schema(schema).violations(of: run.stdout)
        #expect(problems.isEmpty, "\(arguments): \(problems)\n\(run.stdout)", sourceLocation: sourceLocation)
        let object = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any]
        // audit's report is at version 2 (its changed files may be "not computed"); every other report at 1.
        #expect(
            object?["schemaVersion"] as? Int == (schema == "audit" ? 2 : 1), "\(arguments)",
            sourceLocation: sourceLocation)
        return object ?? [:]
    }

    /// The leaf commands (`tenant add`, `roll`, …) by their full name.
    static func leafCommands() -> [String] {
        CLIReferenceTests.allCommands(Tenantctl.self).filter { $0.1.configuration.subcommands.isEmpty }
            .map { $0.0.split(separator: " ").dropFirst().joined(separator: " ") }
    }

    @Test func everyCommandPrintsJSONThatMatchesItsSchema() throws {
        let sandbox = try GitSandbox()
        let example = try LifecycleExample(sandbox, stage: .afterUpdates)
        var covered: Set<String> = []
        @discardableResult
        func check(_ arguments: [String], _ command: String, schema: String? = nil, status: Int32 = 0) throws
            -> [String: Any]
        {
            covered.insert(command)
            return try Self.checkJSON(
                example, arguments, schema: schema ?? command.replacingOccurrences(of: " ", with: "-"),
                status: status)
        }
        let exampleRun = sandbox.tenantctl(["example", sandbox.path("second"), "--json"])
        #expect(exampleRun.status == 0, "\(exampleRun.stderr)")
        #expect(try Self.schema("example").violations(of: exampleRun.stdout).isEmpty, "\(exampleRun.stdout)")
        covered.insert("example")

        try check(["status"], "status")
        try check(["tenant", "list"], "tenant list")
        try check(["verify"], "verify")
        try check(["audit", "--no-fetch"], "audit", status: 0)
        try check(["compose", "t1", "--out", sandbox.path("build-t1")], "compose")
        try check(["roll", "--dry-run"], "roll")
        let roll = try check(["roll"], "roll")
        let runId = try #require(roll["runId"] as? String)
        // After the roll t1 is up to date: resolve reports that nothing is to be resolved (ResolveCommandTests
        // check its JSON on a real conflict, --continue and --abort against the same schema).
        let resolved = try check(["resolve", "t1"], "resolve")
        #expect(resolved["action"] as? String == "start" && resolved["published"] as? Bool == false, "\(resolved)")
        let runs = try check(["runs"], "runs")
        #expect((runs["runs"] as? [[String: Any]])?.first?["state"] as? String == "published")
        let undo = try check(["roll", "--undo", runId], "roll --undo", schema: "roll-undo")
        #expect((undo["moved"] as? [Any])?.isEmpty == false, "\(undo)")
        let after = try check(["runs"], "runs")
        #expect((after["runs"] as? [[String: Any]])?.first?["state"] as? String == "undone")
        try check(["diff", "t2"], "diff")
        try check(["switch", "t2"], "switch")
        try check(["pin"], "pin")
        try check(["customize", "t1", "Order"], "customize")
        try check(["uncustomize", "t1", "Order"], "uncustomize")
        try check(["tag", "M1"], "tag")
        try check(["tenant", "add", "t5"], "tenant add")
        try check(["tenant", "remove", "t5"], "tenant remove")
        _ = try LifecycleModuleTests.invoiceRemote(example)
        try check(["module", "add", "Invoice", "--url", "../Invoice.git"], "module add")
        try check(["module", "remove", "Invoice"], "module remove")
        try check(["init"], "init")
        try check(["demo"], "demo")
        let missing = Set(Self.leafCommands()).subtracting(covered).subtracting(["help"])
        #expect(missing.isEmpty, "commands whose --json is not checked: \(missing.sorted())")
    }

    /// A refused command with `--json` prints a JSON error object on stdout (docs/schemas/error.schema.json) as well
    /// as the error on stderr; a report that is printed (a roll with conflicts) is not followed by one.
    @Test func refusedCommandsPrintAJSONErrorUnderJSON() throws {
        let sandbox = try GitSandbox()
        let example = try LifecycleExample(sandbox)
        let schema = try Self.schema("error")
        func error(_ arguments: [String], status: Int32, in directory: String? = nil) throws -> [String: Any] {
            let run = sandbox.tenantctl(arguments + ["--json"], in: directory ?? example.workspace)
            #expect(run.status == status, "\(arguments): \(run.stdout)\(run.stderr)")
            #expect(run.stderr.contains("error: "), "\(arguments): \(run.stderr)")
            #expect(try schema.violations(of: run.stdout) == [], "\(arguments): \(run.stdout)")
            let object = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any]
            return try #require(object?["error"] as? [String: Any], "\(arguments): \(run.stdout)")
        }
        let tenant = try error(["switch", "t9"], status: 64)
        #expect(tenant["code"] as? String == "unknown-tenant" && tenant["names"] as? [String] == ["t9"], "\(tenant)")
        #expect((tenant["message"] as? String)?.hasPrefix("unknown tenant t9") == true, "\(tenant)")
        let modules = try error(["pin", "Nosuch"], status: 64)
        #expect(modules["code"] as? String == "unknown-module" && modules["names"] as? [String] == ["Nosuch"])
        let usage = try error(["roll", "--bogus"], status: 64)
        #expect(usage["code"] as? String == "usage", "\(usage)")
        let validation = try error(["roll", "--jobs", "0"], status: 64)
        #expect(validation["code"] as? String == "usage", "\(validation)")
        let outside = try error(["status"], status: 1, in: sandbox.root)
        #expect(outside["code"] as? String == "failed" && (outside["message"] as? String)?.isEmpty == false)
        // Positive controls: without --json no JSON; a command that prints its report prints no error object.
        let text = sandbox.tenantctl(["switch", "t9"], in: example.workspace)
        #expect(text.status == 64 && text.stdout.isEmpty)
        let report = example.tenantctl(["tenant", "list", "--json"])
        #expect(report.status == 0 && !report.stdout.contains("\"error\""))
    }

    @Test func lifecycleCommandsPrintJSONAndSpeakInTheConditionalOnADryRun() throws {
        let sandbox = try GitSandbox()
        let example = try LifecycleExample(sandbox)
        let json = try Self.checkJSON(example, ["tenant", "add", "t5", "--dry-run"], schema: "tenant-add")
        #expect(json["summary"] as? String == "would add tenant t5")
        #expect(json["dryRun"] as? Bool == true)
        let text = example.tenantctl(["tenant", "add", "t5", "--dry-run"])
        #expect(text.stdout.hasPrefix("would add tenant t5 (dry run, nothing written):"), "\(text.stdout)")
        let customize = example.tenantctl(["customize", "t1", "Order", "--dry-run"])
        #expect(customize.stdout.hasPrefix("tenant t1 would customise Order"), "\(customize.stdout)")
    }

    @Test func quietDemoPrintsNothing() throws {
        let sandbox = try GitSandbox()
        let run = sandbox.tenantctl(["demo", "-q"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.isEmpty, "\(run.stdout)")
    }

    @Test func quietRollStillPrintsTheRunIdAndUndoReportsEveryRef() throws {
        let sandbox = try GitSandbox()
        let example = try LifecycleExample(sandbox, stage: .afterUpdates)
        let remotesBefore = try example.snapshot().filter { !$0.key.hasPrefix("workspace") }
        let roll = example.tenantctl(["roll", "-q"])
        #expect(roll.status == 0, "\(roll.stderr)")
        let runId = roll.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(runId.range(of: #"^\d{8}-\d{6}-[0-9a-f]{6}$"#, options: .regularExpression) != nil, "\(roll.stdout)")
        let journal = try RollJournal.read(
            gitDirectory: example.workspace + "/.git", runId: runId)
        // The roll published something (an empty journal would make the loop below check nothing).
        #expect(!journal.entries.isEmpty)
        #expect(try example.snapshot().filter { !$0.key.hasPrefix("workspace") } != remotesBefore)
        let undo = example.tenantctl(["roll", "--undo", runId])
        #expect(undo.status == 0, "\(undo.stderr)")
        // Every remote ref is back where it was before the roll.
        #expect(try example.snapshot().filter { !$0.key.hasPrefix("workspace") } == remotesBefore)
        for entry in journal.entries {
            let name = entry.ref.replacingOccurrences(of: "refs/heads/", with: "")
            let line = "  \(name): \(ObjectID.short(entry.new)) → \(ObjectID.short(entry.old, none: "deleted"))"
            #expect(undo.stdout.contains(line), "\(line) missing in\n\(undo.stdout)")
        }
        let list = example.tenantctl(["runs"])
        #expect(list.stdout.contains(runId) && list.stdout.contains("undone"), "\(list.stdout)")
    }

    // MARK: - Tables

    @Test(arguments: [60, 80, 200])
    func tablesFitTheTerminalWidth(_ width: Int) throws {
        let sandbox = try GitSandbox()
        let example = try LifecycleExample(sandbox, stage: .afterUpdates)
        let environment = ["COLUMNS": "\(width)"]
        var longest = 0
        for arguments in [
            ["roll", "--dry-run"], ["tenant", "list"], ["status"], ["audit", "--no-fetch"], ["switch", "t3"],
            ["runs"],
        ] {
            let run = sandbox.tenantctl(
                arguments + ["-C", example.workspace], environment: environment, terminal: true)
            #expect(run.status == 0 || run.status == 2, "\(arguments): \(run.stderr)")
            for line in run.stdout.split(separator: "\n") {
                longest = max(longest, TextWidth.of(String(line)))
                #expect(TextWidth.of(String(line)) <= width, "\(arguments) at \(width): \(line)")
            }
        }
        // Positive control: at 200 columns the roll's details are not cut to 60.
        if width == 200 { #expect(longest > 60) }
        // The JSON keeps the full text.
        let json = sandbox.tenantctl(
            ["roll", "--dry-run", "--json", "-C", example.workspace], environment: environment)
        #expect(json.stdout.contains("module merge") || json.stdout.contains("\"merges\""))
    }

    @Test func textTableWrapsTheLastColumnAndNeverCutsTheOthers() {
        let table = TextTable(
            header: ["BRANCH", "STATUS", "DETAILS"],
            rows: [["t1", "rolled", "Order: merged abcdef0; Article 1234567 → 89abcde, Customer 1111111 → 2222222"]])
        let lines = table.render(width: 40).split(separator: "\n")
        #expect(lines.allSatisfy { TextWidth.of(String($0)) <= 40 }, "\(lines)")
        #expect(lines.count > 2)
        #expect(lines.joined().replacingOccurrences(of: " ", with: "").contains("Customer1111111→2222222"))
        // A key column is never cut: a table that cannot fit becomes one block of lines per row.
        let narrow = TextTable(header: ["A-VERY-LONG-HEADER", "B"], rows: [["x", "y"]]).render(width: 20)
        #expect(narrow == "A-VERY-LONG-HEADER  x\nB                   y", "\(narrow)")
        // Unlimited: nothing changes.
        #expect(!table.render().contains("\n  "))
    }

    @Test func terminalWidthComesFromColumnsThenTheTerminalThen80AndIsUnlimitedOffATerminal() {
        #expect(TerminalWidth.columns(variables: ["COLUMNS": "60"], isTerminal: true) == 60)
        #expect(TerminalWidth.columns(variables: ["COLUMNS": "x"], isTerminal: true, descriptor: -1) == 80)
        #expect(TerminalWidth.columns(variables: [:], isTerminal: true, descriptor: -1) == 80)
        // A pipe or a file: nothing is wrapped or cut, whatever COLUMNS says.
        #expect(TerminalWidth.columns(variables: ["COLUMNS": "60"], isTerminal: false) == TerminalWidth.unlimited)
        #expect(TerminalWidth.columns(variables: [:], isTerminal: false) == TerminalWidth.unlimited)
        // A descriptor that is no terminal has no width.
        #expect(TerminalWidth.terminalWidth(-1) == nil)
    }

    @Test func headersAreUppercaseEverywhere() throws {
        let sandbox = try GitSandbox()
        let example = try LifecycleExample(sandbox)
        for arguments in [["roll", "--dry-run"], ["audit", "--no-fetch"], ["tenant", "list"], ["status"]] {
            let run = example.tenantctl(arguments)
            let header = run.stdout.split(separator: "\n").first {
                $0.hasPrefix("BRANCH") || $0.hasPrefix("TENANT") || $0.hasPrefix("MODULE")
            }
            #expect(header != nil, "\(arguments): no UPPERCASE header in\n\(run.stdout)")
        }
    }

    @Test func shortIdsArePlural() {
        #expect(ObjectID.short(String(repeating: "a", count: 40)) == "aaaaaaa")
        #expect(English.count(1, "branch", "branches") == "1 branch")
        #expect(English.count(2, "branch", "branches") == "2 branches")
        #expect(English.count(0, "tenant") == "0 tenants")
    }

    // MARK: - Names and typos

    @Test(arguments: [
        ["switch", "t9"], ["roll", "--tenant", "t9"], ["roll", "--module", "Ordr"], ["audit", "--tenant", "t9"],
        ["customize", "t9", "Order"], ["customize", "t1", "Ordr"], ["tenant", "remove", "t9"],
        ["module", "remove", "Ordr"], ["compose", "t9", "--out", "/nonexistent/x"], ["uncustomize", "t9", "Order"],
        ["pin", "Ordr"],
    ])
    func unknownNamesAreUsageErrors(_ arguments: [String]) throws {
        let sandbox = try GitSandbox()
        let example = try LifecycleExample(sandbox)
        let run = example.tenantctl(arguments)
        #expect(run.status == 64, "\(arguments): \(run.status) \(run.stderr)")
        #expect(run.stderr.contains("error: unknown "), "\(run.stderr)")
        if arguments.contains("Ordr") {
            #expect(run.stderr.contains("did you mean Order?"), "\(run.stderr)")
            #expect(run.stderr.contains("known modules: Order,"), "closest first: \(run.stderr)")
        } else {
            #expect(run.stderr.contains("known tenants: "), "\(run.stderr)")
        }
    }

    @Test func aKnownNameIsNoUsageError() throws {
        // Positive control for the test above: the same command with a known name does not exit 64.
        let sandbox = try GitSandbox()
        let example = try LifecycleExample(sandbox)
        #expect(example.tenantctl(["roll", "--tenant", "t1", "--dry-run"]).status == 0)
        #expect(example.tenantctl(["switch", "t1"]).status == 0)
    }

    @Test func suggestionsRankByEditDistance() {
        #expect(NameSuggestions.distance("swich", "switch") == 1)
        #expect(NameSuggestions.ranked("Ordr", among: ["Article", "Customer", "Order"]).first == "Order")
        #expect(NameSuggestions.closest(to: "zzzz", among: ["switch", "status"]) == nil)
    }

    @Test func aMistypedCommandGetsDidYouMean() throws {
        let sandbox = try GitSandbox()
        let run = sandbox.tenantctl(["swich", "t2"])
        #expect(run.status == 64)
        #expect(
            run.stderr.hasPrefix("error: unknown command 'swich' for 'tenantctl'; did you mean switch?"),
            "\(run.stderr)")
        let nested = sandbox.tenantctl(["tenant", "ad", "t5"])
        #expect(nested.status == 64)
        #expect(nested.stderr.contains("did you mean add?"), "\(nested.stderr)")
    }

    @Test func usageErrorsSayLowercaseError() throws {
        let sandbox = try GitSandbox()
        for arguments in [["roll", "--jobs", "0"], ["audit", "--bogus"], ["switch"]] {
            let run = sandbox.tenantctl(arguments)
            #expect(run.status == 64, "\(arguments)")
            #expect(run.stderr.hasPrefix("error: "), "\(arguments): \(run.stderr)")
            #expect(!run.stderr.contains("Error: "), "\(arguments): \(run.stderr)")
        }
    }

    // MARK: - Completions

    @Test(arguments: ["zsh", "bash"])
    func completionScriptsCallBackForTenantNames(_ shell: String) throws {
        let sandbox = try GitSandbox()
        let run = sandbox.tenantctl(["--generate-completion-script", shell])
        #expect(run.status == 0)
        #expect(run.stdout.contains("---completion switch -- positional@0"), "switch's tenant is not completed")
        #expect(run.stdout.contains("---completion customize -- positional@1"), "customize's module is not completed")
        #expect(run.stdout.contains("---completion roll -- --tenant"))
        #expect(run.stdout.contains("---completion resolve -- positional@0"), "resolve's tenant is not completed")
        #expect(run.stdout.contains("---completion audit -- --module"), "audit's --module is not completed")
    }

    /// `tenantctl -C <dir> switch <TAB>` in bash, with the script tenantctl writes: the tenants of `<dir>`, not the
    /// subcommands (the top level of the script knows the global options and skips `-C` with its value).
    @Test func bashCompletesTheTenantsOfTheDirectoryGivenBeforeTheSubcommand() throws {
        let sandbox = try GitSandbox()
        let example = try LifecycleExample(sandbox)
        let binary = try #require(TenantctlBinary.path(), "the tenantctl executable is not built")
        let script = sandbox.tenantctl(["--generate-completion-script", "bash"])
        try script.stdout.write(toFile: sandbox.path("tenantctl.bash"), atomically: true, encoding: .utf8)
        func complete(_ words: [String]) throws -> [String] {
            let line = ([binary] + words).map { $0.isEmpty ? "" : $0 }.joined(separator: " ")
            let program = """
                source "$1"; shift
                COMP_WORDS=("$@"); COMP_CWORD=$(( $# - 1 )); COMP_LINE="$LINE"; COMP_POINT=${#COMP_LINE}
                _tenantctl "$1" "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
                printf '%s\\n' "${COMPREPLY[@]}"
                """
            let result = try sandbox.run(
                "/usr/bin/env", ["bash", "-c", program, "bash", sandbox.path("tenantctl.bash"), binary] + words,
                extraEnvironment: ["LINE": line])
            #expect(result.status == 0, "\(result.stderr)")
            return result.stdout.split(separator: "\n").map(String.init).filter {
                !$0.trimmingCharacters(in: .whitespaces).isEmpty
            }
        }
        // From outside the workspace, -C names it: its tenants (and general_dev), also with other global options.
        #expect(try complete(["-C", example.workspace, "switch", ""]) == ["general_dev", "t1", "t2", "t3"])
        #expect(
            try complete(["--color", "never", "-C", example.workspace, "-q", "switch", "t"]) == ["t1", "t2", "t3"])
        #expect(try complete(["-C", example.workspace, "customize", "t1", "Or"]) == ["Order"])
        // Controls: after the subcommand -C works as before, and with no subcommand yet the subcommands are offered.
        #expect(try complete(["switch", "-C", example.workspace, ""]) == ["general_dev", "t1", "t2", "t3"])
        #expect(try complete(["-C", example.workspace, "sw"]) == ["switch"])
    }

    /// zsh and fish (not installed here to run them): the top level of each script has the global options.
    @Test func zshAndFishScriptsKnowTheGlobalOptionsBeforeTheSubcommand() throws {
        let sandbox = try GitSandbox()
        let zsh = sandbox.tenantctl(["--generate-completion-script", "zsh"]).stdout
        let root = try #require(zsh.range(of: "_tenantctl() {\n"))
        let rootBody = String(zsh[root.upperBound...]).components(separatedBy: "\n}\n")[0]
        #expect(rootBody.contains("'-C[Run as if tenantctl was started in <dir>.]:dir:'"), "\(rootBody.prefix(1500))")
        #expect(rootBody.contains("'--network-timeout[") && rootBody.contains("___color=("))
        let fish = sandbox.tenantctl(["--generate-completion-script", "fish"]).stdout
        #expect(fish.contains("    case 'tenantctl'\n        __tenantctl_parse_subcommand 0 'C=' 'remote='"))
        // The scripts are otherwise the parser's: each subcommand still has them.
        #expect(fish.contains("case 'switch'\n            __tenantctl_parse_subcommand 1 'C=' 'remote='"))
    }

    @Test func theCompletionCallbackListsTheWorkspacesTenantsAndModules() throws {
        let sandbox = try GitSandbox()
        let example = try LifecycleExample(sandbox)
        let tenants = sandbox.tenantctl(
            ["---completion", "switch", "--", "positional@0", "2", "0", "tenantctl", "switch", ""],
            in: example.workspace)
        // In-process runs share ArgumentParser's global `CompletionShell.requesting`: after another test generated
        // the zsh script it stays zsh, and zsh answers end with a " " pseudo-completion that the zsh script drops.
        func names(_ output: String) -> [String] {
            output.split(separator: "\n").map(String.init).filter { $0 != " " }
        }
        #expect(names(tenants.stdout) == ["general_dev", "t1", "t2", "t3"])
        let modules = sandbox.tenantctl(
            ["---completion", "customize", "--", "positional@1", "3", "0", "tenantctl", "customize", "t1", ""],
            in: example.workspace)
        #expect(
            names(modules.stdout) == [
                "Infrastructure", "Article", "Customer", "Order",
            ])
        #expect(NameCompletion.tenantNames(in: example.workspace + "/Tenants") == ["t1", "t2", "t3"])
        // Outside a workspace: nothing, and no error.
        #expect(NameCompletion.tenantNames(in: sandbox.root).isEmpty)
    }

    // MARK: - Colour and next steps

    @Test func statusAndRollColourWhatNeedsAttention() throws {
        let sandbox = try GitSandbox()
        let example = try LifecycleExample(sandbox, stage: .afterUpdates)
        #expect(example.tenantctl(["switch", "t2"]).status == 0)
        let module = example.workspace + "/Modules/Customer"
        let tracked = try #require(try sandbox.git(["ls-files"], in: module).split(separator: "\n").first)
        try "changed\n".write(toFile: module + "/" + tracked, atomically: true, encoding: .utf8)
        let yellowDirty = "\u{1B}[33mdirty\u{1B}[0m"
        let coloured = example.tenantctl(["status", "--color", "always"])
        #expect(coloured.stdout.contains(yellowDirty), "\(coloured.stdout)")
        // Positive control: no colour with --color never, and none by default off a terminal.
        #expect(!example.tenantctl(["status", "--color", "never"]).stdout.contains("\u{1B}["))
        #expect(!example.tenantctl(["status"]).stdout.contains("\u{1B}["))
        let roll = example.tenantctl(["roll", "--dry-run", "--color", "always"])
        #expect(roll.stdout.contains("\u{1B}[32mwould-roll\u{1B}[0m"), "\(roll.stdout)")
        #expect(!example.tenantctl(["roll", "--dry-run"]).stdout.contains("\u{1B}["))
    }

}
