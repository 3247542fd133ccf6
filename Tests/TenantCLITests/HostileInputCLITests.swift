import Foundation
import TenantKit
import TenantTestSupport
import Testing

/// Hostile paths, names and URLs through every command that reads the manifest (roll, audit, switch, status, verify),
/// on a real example workspace whose general_dev (local and remote) carries the hostile value: a canary file that the
/// payload would create never appears, no git call carries the payload, nothing changes on any remote, and credentials
/// never appear in any message, also with `--verbose` (which traces every git call).
@Suite(.tags(.slow), .notInTheFastSet) struct HostileInputCLITests {
    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        /// The Order module's url or path in modules.json (`CANARY` is replaced by the canary path).
        var url: String?
        var path: String?
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(name: "7 --upload-pack option as URL", url: "--upload-pack=touch CANARY"),
        Case(name: "7 -u option as URL", url: "-u./CANARY"),
        Case(name: "8 ext:: transport", url: "ext::sh -c touch% CANARY"),
        Case(name: "8 fd:: transport", url: "fd::17"),
        Case(name: "9 ssh host starting with -", url: "ssh://-oProxyCommand=touch% CANARY/x"),
        Case(name: "4 path escaping the workspace", path: "../../escaped"),
        Case(name: "5 .git path component", path: "Modules/.git/hooks"),
    ]

    static let commands: [(arguments: [String], status: Int32)] = [
        (["roll"], 1), (["roll", "--dry-run"], 1), (["audit"], 1), (["switch", "t2"], 1), (["status"], 1),
        (["verify"], 2), (["tenant", "list"], 1),
    ]

    /// Rewrites the Order entry of modules.json on general_dev, commits and pushes it (plain git: no validation).
    static func plant(_ fixture: RollFixture, url: String?, path: String?) throws {
        let file = fixture.workspace + "/modules.json"
        var text = try String(contentsOfFile: file, encoding: .utf8)
        if let url { text = text.replacingOccurrences(of: "\"../Order.git\"", with: "\"\(url)\"") }
        if let path {
            text = text.replacingOccurrences(of: "\"Modules/Order\"", with: "\"\(path)\"")
        }
        try text.write(toFile: file, atomically: true, encoding: .utf8)
        try fixture.sandbox.git(["commit", "-q", "-am", "hostile manifest"], in: fixture.workspace)
        try fixture.sandbox.git(["push", "-q", "origin", "general_dev"], in: fixture.workspace)
    }

    @Test(arguments: cases)
    func hostileValueIsRefusedByEveryCommandAndRunsNothing(_ hostile: Case) throws {
        let fixture = try RollFixture()
        let sandbox = fixture.sandbox
        let canary = sandbox.path("pwned")
        try Self.plant(
            fixture, url: hostile.url?.replacingOccurrences(of: "CANARY", with: canary),
            path: hostile.path)
        let remotes = try fixture.remoteBranches()
        let workspaceRefs = try sandbox.refs(fixture.workspace)
        let shim = try GitShim(in: sandbox)
        for command in Self.commands {
            let result = sandbox.tenantctl(
                command.arguments + ["--git", shim.path, "--verbose"], in: fixture.workspace,
                environment: RollFixture.dates)
            let label = "\(command.arguments.joined(separator: " ")): \(result.stdout)\(result.stderr)"
            #expect(result.status == command.status, "\(label)")
            #expect(result.stdout.contains("modules[3]") || result.stderr.contains("modules[3]"), "\(label)")
        }
        #expect(!FileManager.default.fileExists(atPath: canary), "the payload ran")
        #expect(!FileManager.default.fileExists(atPath: sandbox.path("escaped")))
        #expect(!FileManager.default.fileExists(atPath: "\(fixture.workspace)/Modules/.git"))
        let calls = try shim.calls()
        #expect(!calls.isEmpty, "the commands did not run git through the shim: the check below would be vacuous")
        for call in calls {
            #expect(!call.contains(canary) && !call.contains("escaped") && !call.contains("fd::"), "git ran: \(call)")
        }
        #expect(try fixture.remoteBranches() == remotes)
        #expect(try sandbox.refs(fixture.workspace) == workspaceRefs)
        #expect(try sandbox.git(["status", "--porcelain=v2"], in: fixture.workspace) == "")
    }

    /// Where the user's git config allows ext (so git itself would run the payload), tenantctl's own validation
    /// refuses the URL before any git call carries it.
    @Test func anExtURLIsRefusedByValidationBeforeGitRunsWhereGitWouldRunIt() throws {
        let fixture = try RollFixture()
        let sandbox = fixture.sandbox
        let config = try #require(sandbox.environment["GIT_CONFIG_GLOBAL"])
        let text = try String(contentsOfFile: config, encoding: .utf8) + "[protocol \"ext\"]\n\tallow = always\n"
        try text.write(toFile: config, atomically: true, encoding: .utf8)
        // Control: with this config, plain git runs the payload.
        let control = sandbox.path("control")
        _ = try sandbox.gitResult(["ls-remote", "--", "ext::sh -c touch% \(control)"], in: fixture.workspace)
        #expect(FileManager.default.fileExists(atPath: control), "the payload did not run: the control is broken")

        let canary = sandbox.path("pwned")
        try Self.plant(fixture, url: "ext::sh -c touch% \(canary)", path: nil)
        let shim = try GitShim(in: sandbox)
        for arguments in [["roll"], ["audit"], ["verify"], ["switch", "t2"]] {
            let result = sandbox.tenantctl(arguments + ["--git", shim.path], in: fixture.workspace)
            let label = "\(arguments.joined(separator: " ")): \(result.stdout)\(result.stderr)"
            #expect(result.status != 0, "\(label)")
            #expect((result.stdout + result.stderr).contains("modules[3].url"), "\(label)")
        }
        let calls = try shim.calls()
        #expect(!calls.isEmpty)
        #expect(!calls.contains { $0.contains("ext::") }, "a git call carried the URL: \(calls)")
        #expect(!FileManager.default.fileExists(atPath: canary), "the payload ran")
    }

    @Test func credentialsInAModuleURLAreUsedButNeverPrintedByAnyCommand() throws {
        let fixture = try RollFixture()
        let sandbox = fixture.sandbox
        // Port 1 on the loopback address refuses the connection at once (fail fast, no prompt).
        try Self.plant(fixture, url: "https://bob:hunter2@127.0.0.1:1/Order.git", path: nil)
        let remotes = try fixture.remoteBranches()
        // Behind the logging shim, note for every call whether git may prompt (a prompt is what would hang).
        let prompts = sandbox.path("prompts.log")
        let noting = try sandbox.writeExecutable(
            "bin/noting-git",
            """
            #!/bin/sh
            printf '%s %s\\n' "${GIT_TERMINAL_PROMPT:-unset}" "$*" >> '\(prompts)'
            exec git "$@"

            """)
        let shim = try GitShim(in: sandbox, realGit: noting)
        for arguments in [["roll"], ["roll", "--dry-run"], ["audit"], ["status"], ["verify"], ["tenant", "list"]] {
            for verbosity in [[], ["--verbose"], ["--json"]] {
                let callsBefore = try shim.calls().count
                let result = sandbox.tenantctl(
                    arguments + verbosity + ["--git", shim.path], in: fixture.workspace,
                    environment: RollFixture.dates)
                let label = "\((arguments + verbosity).joined(separator: " ")): \(result.stdout)\(result.stderr)"
                #expect(!result.stdout.contains("hunter2") && !result.stderr.contains("hunter2"), "\(label)")
                // Fails fast: the unreachable remote is tried at most once (no retry loop).
                let reaching = try shim.calls().dropFirst(callsBefore).filter { $0.contains("127.0.0.1:1") }
                #expect(reaching.count <= 1, "\(label): \(reaching)")
                if arguments.first == "roll" || arguments.first == "audit" {
                    // roll blocks t3 (it customises the unreachable Order) and rolls the others: exit 2; audit
                    // reports Order's cells as unknown: exit 1. Both name the remote (credentials redacted).
                    #expect(result.status == (arguments.first == "roll" ? 2 : 1), "\(label)")
                    #expect((result.stdout + result.stderr).contains("127.0.0.1"), "\(label)")
                }
            }
        }
        // The URL the user wrote was used (the credentials reach git, and only git).
        #expect(try shim.calls().contains { $0.contains("bob:hunter2@127.0.0.1:1") })
        // No call that reaches the remote may prompt for a password (no hang).
        let noted = try String(contentsOfFile: prompts, encoding: .utf8).split(separator: "\n")
        let reachingRemote = noted.filter { $0.contains("127.0.0.1:1") }
        #expect(!reachingRemote.isEmpty)
        #expect(reachingRemote.allSatisfy { $0.hasPrefix("0 ") }, "\(reachingRemote)")
        // Nothing that needs the unreachable Order moved: t3 (which customises it) and Order's own branches; the
        // tenants that do not need it rolled.
        let after = try fixture.remoteBranches()
        #expect(after["Order"] == remotes["Order"])
        #expect(after["Superproject"]?["t3"] == remotes["Superproject"]?["t3"])
        // No file tenantctl writes keeps the password (mirror configs, journal).
        let grep = try sandbox.run("/usr/bin/env", ["grep", "-rl", "hunter2", fixture.workspace + "/.git/tenantctl"])
        #expect(grep.stdout.isEmpty, "\(grep.stdout)")
    }
}
