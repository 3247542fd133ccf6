import Foundation
import TenantKit
import TenantTestSupport
import Testing

/// The real tenantctl in a pseudo-terminal, as a person sees it: status fits 80 columns as a table, `status --short`
/// is git's short view, and long reports go through the pager exactly when git would page them.
@Suite(
    "at a terminal", .enabled(if: PseudoTerminal.available, "script(1) makes the terminal"), .tags(.slow),
    .notInTheFastSet)
struct TerminalViewTests {
    /// A fake pager: records that it ran (with its LESS) and keeps what it was given.
    static func fakePager(_ sandbox: GitSandbox) throws -> (command: String, calls: String, input: String) {
        let calls = sandbox.path("pager-calls")
        let input = sandbox.path("pager-input")
        let command = try sandbox.writeExecutable(
            "bin/fake-pager",
            """
            #!/bin/sh
            echo "called LESS=$LESS" >> '\(calls)'
            cat > '\(input)'
            """)
        return (command, calls, input)
    }

    static func binary() throws -> String {
        try #require(TenantctlBinary.path(), "the tenantctl executable is not built")
    }

    /// t2 with Infrastructure one commit ahead of its pin (unpushed) and Article's files changed.
    static func workspaceWithWork(_ sandbox: GitSandbox) throws -> SwitchFixture {
        let fixture = try SwitchFixture(sandbox: sandbox)
        #expect(sandbox.tenantctl(["switch", "t2"], in: fixture.workspace).status == 0)
        try sandbox.commit(in: "workspace/Modules/Infrastructure", file: "Local.swift", content: "// l\n")
        try sandbox.write("workspace/Modules/Article/Article.swift", "// changed\n")
        return fixture
    }

    @Test func statusIsATableThatFitsEightyColumns() throws {
        let sandbox = try GitSandbox()
        let fixture = try Self.workspaceWithWork(sandbox)
        let run = try PseudoTerminal.run(
            try Self.binary(), ["status"], in: fixture.workspace, columns: 80, rows: 24, sandbox: sandbox)
        #expect(run.status == 0, "\(run.output)")
        let lines = run.output.split(separator: "\n").map(String.init)
        for line in lines { #expect(TextWidth.of(line) <= 80, "wider than 80: \(line)") }
        // A table (one header line, one line per module), not a block of lines per module.
        let header = try #require(lines.first { $0.hasPrefix("MODULE ") }, "\(run.output)")
        for title in ["BRANCH", "HEAD", "PIN", "FILES", "UNPUSHED", "REMOTE"] {
            #expect(header.contains(title), "\(header)")
        }
        #expect(lines.count == 2 + 1 + SwitchFixture.modules.count, "\(run.output)")
        let infrastructure = lines.first { $0.hasPrefix("Infrastructure ") } ?? ""
        #expect(infrastructure.contains("ahead 1") && infrastructure.contains("clean"), "\(run.output)")
        #expect((lines.first { $0.hasPrefix("Article ") } ?? "").contains("dirty"), "\(run.output)")
    }

    @Test func statusShortListsOnlyTheModulesThatNeedAttention() throws {
        let sandbox = try GitSandbox()
        let fixture = try Self.workspaceWithWork(sandbox)
        let run = try PseudoTerminal.run(
            try Self.binary(), ["status", "-s"], in: fixture.workspace, columns: 80, rows: 24, sandbox: sandbox)
        #expect(run.status == 0, "\(run.output)")
        let lines = run.output.split(separator: "\n").map(String.init)
        #expect(
            lines == [
                "## t2...origin/t2  tenant: t2",
                ">  Modules/Infrastructure [ahead 1] [1 unpushed] [origin/t2: ahead 1]",
                " M Modules/Article",
            ], "\(run.output)")
    }

    @Test func aLongReportGoesThroughThePagerOnlyOnATerminal() throws {
        let sandbox = try GitSandbox()
        let example = try LifecycleExample(sandbox)
        #expect(example.tenantctl(["audit"]).status == 0)  // fills the mirrors: the runs below read them
        let pager = try Self.fakePager(sandbox)
        let environment = ["TENANTCTL_PAGER": pager.command, "GIT_PAGER": "false", "PAGER": "false"]
        let binary = try Self.binary()

        // Taller than a 100 × 10 terminal: paged, with LESS=FRX since LESS is unset.
        let paged = try PseudoTerminal.run(
            binary, ["audit", "--matrix", "--no-fetch"], in: example.workspace, columns: 100, rows: 10,
            environment: environment, sandbox: sandbox)
        #expect(paged.status == 0, "\(paged.output)")
        #expect(try sandbox.read("pager-calls") == "called LESS=FRX\n")
        #expect(try sandbox.read("pager-input").contains("Customisations:"))
        #expect(!paged.output.contains("Customisations:"), "the report went to the pager: \(paged.output)")

        // --no-pager, --json, and output that is no terminal are never paged; nor is a report that fits.
        let direct = try PseudoTerminal.run(
            binary, ["--no-pager", "audit", "--matrix", "--no-fetch"], in: example.workspace, columns: 100,
            rows: 10, environment: environment, sandbox: sandbox)
        #expect(direct.output.contains("Customisations:"), "\(direct.output)")
        let json = try PseudoTerminal.run(
            binary, ["audit", "--json", "--no-fetch"], in: example.workspace, columns: 100, rows: 10,
            environment: environment, sandbox: sandbox)
        #expect(json.output.contains("\"tenants\""), "\(json.output)")
        let piped = try sandbox.tenantctlProcess(
            ["audit", "--matrix", "--no-fetch"], in: example.workspace, environment: environment)
        #expect(piped.stdout.contains("Customisations:"))
        let short = try PseudoTerminal.run(
            binary, ["status", "--short"], in: example.workspace, columns: 100, rows: 10,
            environment: environment, sandbox: sandbox)
        #expect(short.output.hasPrefix("## "), "\(short.output)")
        #expect(try sandbox.read("pager-calls") == "called LESS=FRX\n", "the pager ran once, for the first run")

        // The other sources, in git's order: GIT_PAGER, then core.pager, then PAGER; LESS as the person set it.
        let viaGit = try PseudoTerminal.run(
            binary, ["audit", "--matrix", "--no-fetch"], in: example.workspace, columns: 100, rows: 10,
            environment: ["GIT_PAGER": pager.command, "PAGER": "false", "LESS": "S"], sandbox: sandbox)
        #expect(viaGit.status == 0, "\(viaGit.output)")
        #expect(try sandbox.read("pager-calls") == "called LESS=FRX\ncalled LESS=S\n")
    }

    /// A pager that cannot start (not installed, or misspelt) is no reason to lose the report: a warning names it,
    /// the report is printed as it is, and the exit status is the command's (as git's `cannot run <pager>`).
    @Test func aPagerThatCannotStartWarnsAndPrintsTheReport() throws {
        let sandbox = try GitSandbox()
        let example = try LifecycleExample(sandbox)
        #expect(example.tenantctl(["audit"]).status == 0)  // fills the mirrors: the runs below read them
        let binary = try Self.binary()
        let arguments = ["audit", "--matrix", "--no-fetch"]
        // The positive control: the same run without a pager prints the report.
        let direct = try PseudoTerminal.run(
            binary, ["--no-pager"] + arguments, in: example.workspace, columns: 100, rows: 10, sandbox: sandbox)
        #expect(direct.status == 0 && direct.output.contains("Customisations:"), "\(direct.output)")
        let checked = try PseudoTerminal.run(
            binary, ["--no-pager", "audit", "--check", "--matrix", "--no-fetch"], in: example.workspace,
            columns: 100, rows: 10, sandbox: sandbox)
        #expect(checked.output.contains("Customisations:"), "\(checked.output)")

        // A pager that is not there, named or git's fallback `less` missing from PATH (only git and stty on it).
        let bin = sandbox.path("only-git")
        try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
        for program in ["git", "stty"] {
            let found = try #require(TestDaemon.find([program]), "\(program) not found")
            try FileManager.default.createSymbolicLink(atPath: bin + "/" + program, withDestinationPath: found)
        }
        let cases: [(pager: String, environment: [String: String])] = [
            ("nosuchpager", ["TENANTCTL_PAGER": "nosuchpager"]),
            ("nosuchpager -R", ["TENANTCTL_PAGER": "nosuchpager -R"]),
            ("nosuchpager -x 'a b'", ["TENANTCTL_PAGER": "nosuchpager -x 'a b'"]),
            ("less", ["PATH": bin]),
        ]
        for (pager, environment) in cases {
            let variables = environment
            let run = try PseudoTerminal.run(
                binary, arguments, in: example.workspace, columns: 100, rows: 10, environment: variables,
                sandbox: sandbox)
            #expect(run.status == direct.status, "\(pager): \(run.output)")
            #expect(run.output.contains("Customisations:"), "\(pager): the report is lost: \(run.output)")
            #expect(run.output.contains("warning: cannot run the pager (\(pager))"), "\(pager): \(run.output)")
            let check = try PseudoTerminal.run(
                binary, ["audit", "--check", "--matrix", "--no-fetch"], in: example.workspace, columns: 100,
                rows: 10, environment: variables, sandbox: sandbox)
            #expect(check.status == checked.status, "\(pager): \(check.output)")
            #expect(check.output.contains("Customisations:"), "\(pager): the report is lost: \(check.output)")
        }
    }

    @Test func thePagerComesFromGitsSourcesInGitsOrder() {
        let none: () -> String? = { nil }
        #expect(Pager.command(variables: [:], corePager: none) == "less")
        #expect(Pager.command(variables: ["PAGER": "more"], corePager: none) == "more")
        #expect(Pager.command(variables: ["PAGER": "more"], corePager: { "most" }) == "most")
        #expect(Pager.command(variables: ["PAGER": "more", "GIT_PAGER": "lv"], corePager: { "most" }) == "lv")
        #expect(
            Pager.command(variables: ["GIT_PAGER": "lv", "TENANTCTL_PAGER": "bat"], corePager: { "most" }) == "bat")
        #expect(Pager.command(variables: ["TENANTCTL_PAGER": "cat"], corePager: none) == nil)
        #expect(Pager.command(variables: ["GIT_PAGER": ""], corePager: { "most" }) == nil)
        #expect(Pager.environment([:])["LESS"] == "FRX")
        #expect(Pager.environment(["LESS": "S"])["LESS"] == "S")
        #expect(Pager.height(of: "a\nb\n", columns: 80) == 2)
        #expect(Pager.height(of: String(repeating: "x", count: 81) + "\n", columns: 80) == 2)
    }
}

/// status on a workspace of 20 modules stays interactive, with a number of git processes that grows with the
/// modules, never with the tenants.
@Suite("status speed", .tags(.slow), .notInTheFastSet)
struct StatusSpeedTests {
    @Test func twentyModulesUnderASecondWithoutAGitProcessPerTenantAndModule() throws {
        let sandbox = try GitSandbox()
        let workspace = try LargeWorkspace.generate(sandbox, tenants: 30, modules: 20)
        let switched = sandbox.tenantctl(["switch", "t0001"], in: workspace)
        #expect(switched.status == 0, "\(switched.stderr)")
        let log = sandbox.path("git-calls")
        _ = try sandbox.writeExecutable(
            "bin/git",
            """
            #!/bin/sh
            echo "$*" >> '\(log)'
            exec "$(command -v git)" "$@"
            """)
        // The time of status and every git it ran (user and system CPU: the wall time of a machine busy with other
        // work says nothing about status).
        let timed = try sandbox.run(
            "/bin/sh",
            [
                "-c", "cd \"$1\" && shift && exec /usr/bin/time -f 'cpu %U %S' \"$@\"", "sh", workspace,
                try TerminalViewTests.binary(), "status",
            ])
        #expect(timed.status == 0, "\(timed.stderr)")
        let times = try #require(timed.stderr.split(separator: "\n").last { $0.hasPrefix("cpu ") })
        let seconds = times.split(separator: " ").dropFirst().compactMap { Double($0) }.reduce(0, +)
        #expect(seconds < 1, "status took \(seconds) s of CPU")
        let environment = ["TENANTCTL_GIT": sandbox.path("bin/git")]
        let status = try sandbox.tenantctlProcess(["status"], in: workspace, environment: environment)
        #expect(status.status == 0, "\(status.stderr)")
        let calls = try sandbox.read("git-calls").split(separator: "\n").count
        #expect(calls < 30 * 20, "\(calls) git processes")
        #expect(calls <= 12 * 20, "\(calls) git processes for 20 modules")
    }
}
