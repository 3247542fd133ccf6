import Foundation
import TenantExample
import TenantKit
import TenantTestSupport
import Testing

/// The example's remotes served by a real git server on 127.0.0.1 (smart HTTP with basic auth, or ssh with a key),
/// and a workspace cloned from it: every URL tenantctl uses (superproject and modules, relative `../<Module>.git`
/// resolved against the server URL) goes over the network; local remotes are not allowed.
final class ServedExample: ExampleRemotes {
    enum Transport { case http, ssh }

    let sandbox: GitSandbox
    let example: ExampleResult
    let transport: Transport
    let http: GitHTTPServer?
    let ssh: GitSSHServer?
    /// The workspace cloned from the server.
    let workspace: String
    /// What every tenantctl run gets: local remotes refused, fixed dates, the ssh client for ssh.
    var environment: [String: String]

    static let modules = ["Infrastructure", "Article", "Customer", "Order"]
    static let repositories = modules + ["Superproject"]

    /// - Parameters:
    ///   - credentialsInURL: http: the clone's URL carries `alice:<password>` (else a credential helper gives them).
    ///   - stage: how far the example's story is (`.conflict` for resolve).
    init(
        _ transport: Transport, credentialsInURL: Bool = false, stage: ExampleStage = .afterUpdates,
        function: String = #function
    ) throws {
        sandbox = try GitSandbox(function: function)
        example = try sandbox.exampleCopy(in: sandbox.path("erp"), stage: stage)
        self.transport = transport
        environment = RollFixture.dates
        environment["TENANTCTL_ALLOW_LOCAL_REMOTES"] = "0"
        let cloneURL: String
        var cloneEnvironment: [String: String] = [:]
        switch transport {
        case .http:
            let server = try GitHTTPServer(serving: example.remotes, in: sandbox)
            http = server
            ssh = nil
            if credentialsInURL {
                cloneURL = server.url("Superproject.git")
            } else {
                cloneURL = server.anonymousURL("Superproject.git")
                // The CI way: a credential helper (here git's own store, in the sandbox's global config).
                let store = sandbox.path(".home/git-credentials")
                try "http://\(server.user):\(server.password)@127.0.0.1:\(server.port)\n".write(
                    toFile: store, atomically: true, encoding: .utf8)
                try sandbox.git(["config", "--global", "credential.helper", "store --file=\(store)"])
            }
        case .ssh:
            let server = try GitSSHServer(in: sandbox)
            ssh = server
            http = nil
            cloneURL = server.url("\(example.remotes)/Superproject.git")
            environment["GIT_SSH_COMMAND"] = server.sshCommand()
            cloneEnvironment["GIT_SSH_COMMAND"] = server.sshCommand()
        }
        workspace = sandbox.path("workspace")
        let clone = try sandbox.run(
            "/usr/bin/env",
            ["git", "clone", "-q", "--recurse-submodules", "-b", "general_dev", "--", cloneURL, workspace],
            extraEnvironment: cloneEnvironment.merging(["GIT_TERMINAL_PROMPT": "0"]) { $1 })
        guard clone.status == 0 else { throw SandboxError(description: "clone over \(transport): \(clone.stderr)") }
    }

    /// Runs tenantctl in the workspace.
    func tenantctl(_ arguments: [String], environment extra: [String: String] = [:]) -> CLIResult {
        sandbox.tenantctl(arguments, in: workspace, environment: environment.merging(extra) { $1 })
    }

    /// Writes a hook into a repository behind the server.
    func hook(_ repository: String, _ name: String, _ body: String) throws {
        let relative = String("\(remote(repository))/hooks/\(name)".dropFirst(sandbox.root.count + 1))
        _ = try sandbox.writeExecutable(relative, "#!/bin/sh\n" + body + "\n")
    }

    /// Every ref of the workspace, its modules and its tenantctl mirrors, with the files under the mirrors' directory.
    func localState() throws -> [String] {
        var state: [String] = []
        for directory in [workspace] + Self.modules.map({ "\(workspace)/Modules/\($0)" }) {
            state.append(try sandbox.git(["for-each-ref", "--format=%(refname) %(objectname)"], in: directory))
            state.append(try sandbox.git(["status", "--porcelain=v2", "--branch"], in: directory))
        }
        let mirrors = "\(workspace)/.git/tenantctl/mirrors"
        state.append(
            ((try? FileManager.default.contentsOfDirectory(atPath: mirrors)) ?? []).sorted().joined(separator: ","))
        return state
    }
}

/// The ssh tests skip (with the reason) where sshd would refuse the login: a locked account.
@Suite(.tags(.slow), .notInTheFastSet) struct SSHAccountTests {
    @Test func aLockedAccountIsRecognised() {
        let shadow = "root:*:20228:0:99999:7:::\nalice:!$y$j9T$abc:20228::::::\nbob:!:20228::::::\ncarol:$y$x:1::::::\n"
        #expect(!GitSSHServer.isLocked("root", shadow: shadow))
        #expect(GitSSHServer.isLocked("alice", shadow: shadow))
        #expect(GitSSHServer.isLocked("bob", shadow: shadow))
        #expect(!GitSSHServer.isLocked("carol", shadow: shadow))
        #expect(!GitSSHServer.isLocked("dave", shadow: shadow))
    }
}

/// Whether the test servers can run here; a skipped test prints why.
enum ServerAvailability {
    static let http: Bool = {
        if let reason = GitHTTPServer.unavailableReason { print("note: \(reason)") }
        return GitHTTPServer.unavailableReason == nil
    }()
    static let ssh: Bool = {
        if let reason = GitSSHServer.unavailableReason { print("note: \(reason)") }
        return GitSSHServer.unavailableReason == nil
    }()
}

/// roll, audit and switch end to end against real servers, credentials (never prompted for, never printed), a
/// server hook's message and atomic pushes over the network.
@Suite(.sharedServers, .timeLimit(.minutes(10)), .tags(.slow), .notInTheFastSet) struct NetworkServerTests {
    /// audit, roll (twice: the second finds nothing to do), switch, all over the network; the pins follow the rule.
    static func rollAuditSwitch(_ served: ServedExample) throws {
        let before = try served.remoteBranches()
        let audit = served.tenantctl(["audit", "--json"])
        #expect([0, 1].contains(audit.status), "\(audit.stderr)")
        #expect(audit.stdout.contains("\"schemaVersion\""), "\(audit.stdout)")

        let roll = served.tenantctl(["roll"])
        #expect(roll.status == 0, "\(roll.stdout)\(roll.stderr)")
        let after = try served.remoteBranches()
        // The module mirrors were fetched from the server (relative URLs resolved against the server's URL; local
        // remotes are refused here) and hold its branches; they store no URL (it may carry a password).
        for module in ServedExample.modules {
            let mirror = "\(served.workspace)/.git/tenantctl/mirrors/\(module).git"
            let stored = try served.sandbox.gitResult(["config", "--get-regexp", "^remote\\."], in: mirror)
            #expect(stored.status == 1 && stored.stdout.isEmpty, "\(module): \(stored.stdout)")
            #expect(try served.sandbox.branches(mirror) == after[module], "\(module)")
        }
        #expect(after["Superproject"] != before["Superproject"])
        for (tenant, customised) in RollFixture.customised {
            for module in ServedExample.modules {
                let branch = customised.contains(module) ? tenant : "general_dev"
                #expect(try served.pins(tenant)["Modules/\(module)"] == after[module]?[branch], "\(tenant) \(module)")
            }
        }
        #expect(served.tenantctl(["roll"]).stdout.contains("0 rolled, 3 up to date"))

        let switched = served.tenantctl(["switch", "t2"])
        #expect(switched.status == 0, "\(switched.stdout)\(switched.stderr)")
        #expect(try served.sandbox.git(["symbolic-ref", "--short", "HEAD"], in: served.workspace) == "t2")
        let pins = try served.pins("t2")
        for module in ServedExample.modules {
            let directory = "\(served.workspace)/Modules/\(module)"
            let branch = ["Infrastructure", "Customer"].contains(module) ? "t2" : "general_dev"
            #expect(try served.sandbox.git(["symbolic-ref", "--short", "HEAD"], in: directory) == branch, "\(module)")
            #expect(try served.sandbox.git(["rev-parse", "HEAD"], in: directory) == pins["Modules/\(module)"])
        }
        let checked = served.tenantctl(["audit", "--check"])
        #expect(checked.status == 0, "\(checked.stdout)\(checked.stderr)")
    }

    @Test(.enabled(if: ServerAvailability.http, "nginx, fcgiwrap or git-http-backend missing"))
    func rollAuditAndSwitchOverSmartHTTPWithBasicAuth() throws {
        let served = try ServedExample(.http)
        try Self.rollAuditSwitch(served)
    }

    @Test(.enabled(if: ServerAvailability.ssh, "sshd, ssh or ssh-keygen missing"))
    func rollAuditAndSwitchOverSSHWithAKey() throws {
        let served = try ServedExample(.ssh)
        try Self.rollAuditSwitch(served)
        #expect(try #require(served.ssh).acceptedClientKey(), "\(served.ssh?.log ?? "")")
    }

    /// resolve over the network: roll leaves t2 conflicted, resolve merges in the working copy (fetching over the
    /// server), a scripted resolution, `--continue` publishes to the server: t2's Infrastructure branch is a merge
    /// of general_dev, the server's t2 pins follow the rule, and audit is clean.
    static func rollConflictResolve(_ served: ServedExample) throws {
        let roll = served.tenantctl(["roll"])
        #expect(roll.status == 2 && roll.stdout.contains("tenantctl resolve t2"), "\(roll.stdout)\(roll.stderr)")
        let before = try served.remoteBranches()

        let start = served.tenantctl(["resolve", "t2"])
        #expect(start.status == 2, "\(start.stdout)\(start.stderr)")
        let resolution = ExampleScenario.conflictResolution
        let module = "\(served.workspace)/Modules/\(resolution.module)"
        try resolution.content.write(toFile: "\(module)/\(resolution.file)", atomically: true, encoding: .utf8)
        try served.sandbox.git(["add", "--", resolution.file], in: module)
        // Nothing is published before --continue.
        #expect(try served.remoteBranches() == before)

        let done = served.tenantctl(["resolve", "--continue"])
        #expect(done.status == 0, "\(done.stdout)\(done.stderr)")
        let after = try served.remoteBranches()
        let infrastructure = try #require(after["Infrastructure"]?["t2"])
        let parents = try served.sandbox.git(
            ["rev-list", "--parents", "-n", "1", infrastructure], in: served.remote("Infrastructure")
        ).split(separator: " ").dropFirst().map(String.init)
        #expect(
            parents == [before["Infrastructure"]?["t2"], before["Infrastructure"]?["general_dev"]].compactMap { $0 })
        let pins = try served.pins("t2")
        for module in ServedExample.modules {
            let branch = ["Infrastructure", "Customer"].contains(module) ? "t2" : "general_dev"
            #expect(pins["Modules/\(module)"] == after[module]?[branch], "\(module)")
        }
        let checked = served.tenantctl(["audit", "--check"])
        #expect(checked.status == 0, "\(checked.stdout)\(checked.stderr)")
    }

    @Test(.enabled(if: ServerAvailability.http, "nginx, fcgiwrap or git-http-backend missing"))
    func resolveOverSmartHTTP() throws {
        try Self.rollConflictResolve(try ServedExample(.http, stage: .conflict))
    }

    @Test(.enabled(if: ServerAvailability.ssh, "sshd, ssh or ssh-keygen missing"))
    func resolveOverSSH() throws {
        try Self.rollConflictResolve(try ServedExample(.ssh, stage: .conflict))
    }

    /// A password in the URL works and is never printed — not in the text output, not in
    /// `--json`, not in `--verbose` traces, not in an error naming the URL.
    @Test(.enabled(if: ServerAvailability.http, "nginx, fcgiwrap or git-http-backend missing"))
    func aPasswordInTheURLIsNeverPrinted() throws {
        let served = try ServedExample(.http, credentialsInURL: true)
        let password = try #require(served.http).password
        var outputs: [CLIResult] = []
        outputs.append(served.tenantctl(["audit", "--json", "--verbose"]))
        outputs.append(served.tenantctl(["roll", "--verbose"]))
        outputs.append(served.tenantctl(["roll", "--json"]))
        outputs.append(served.tenantctl(["switch", "t3", "--verbose"]))
        #expect(outputs[1].status == 0, "\(outputs[1].stderr)")
        #expect(outputs[3].status == 0, "\(outputs[3].stderr)")
        // An error naming the URL: the module's repository is gone from the server.
        try FileManager.default.moveItem(atPath: served.remote("Article"), toPath: served.remote("Article") + ".moved")
        let failed = served.tenantctl(["audit", "--check", "--verbose"])
        #expect(failed.status != 0)
        #expect(failed.stderr.contains("alice:***@127.0.0.1"), "\(failed.stderr)")
        outputs.append(failed)
        outputs.append(served.tenantctl(["roll", "--json"]))
        for output in outputs {
            #expect(!output.stdout.contains(password), "\(output.stdout)")
            #expect(!output.stderr.contains(password), "\(output.stderr)")
        }
        // Positive control: git itself did use (and store) the password.
        #expect(try served.sandbox.git(["config", "remote.origin.url"], in: served.workspace).contains(password))
    }

    /// Authentication over smart HTTP: no credentials, or wrong ones → exit 1 within seconds, no prompt, the wrong
    /// password never printed, nothing written.
    @Test(.enabled(if: ServerAvailability.http, "nginx, fcgiwrap or git-http-backend missing"))
    func missingOrWrongHTTPCredentialsFailFastWithoutAPrompt() throws {
        let served = try ServedExample(.http)
        let server = try #require(served.http)
        let state = try served.localState()
        let before = try served.remoteBranches()
        // Missing: the credential helper is gone.
        try served.sandbox.git(["config", "--global", "--unset", "credential.helper"])
        var started = Date()
        let missing = served.tenantctl(["roll"])
        #expect(Date().timeIntervalSince(started) < 20)
        #expect(missing.status == 1, "\(missing.stdout)\(missing.stderr)")
        #expect(missing.stderr.contains("terminal prompts disabled"), "\(missing.stderr)")
        #expect(missing.stderr.contains("error: fetch the superproject"), "\(missing.stderr)")
        #expect(missing.stderr.contains("tenantctl never prompts"), "\(missing.stderr)")

        // Wrong: a wrong password in the URL.
        let wrong = "wr0ng-pa55word"
        try served.sandbox.git(
            ["remote", "set-url", "origin", server.url("Superproject.git", userInfo: "alice:\(wrong)")],
            in: served.workspace)
        started = Date()
        let refused = served.tenantctl(["roll", "--json"])
        #expect(Date().timeIntervalSince(started) < 20)
        #expect(refused.status == 1, "\(refused.stdout)\(refused.stderr)")
        #expect(refused.stderr.contains("Authentication failed"), "\(refused.stderr)")
        #expect(!refused.stderr.contains(wrong) && !refused.stdout.contains(wrong), "\(refused.stderr)")
        // A lone token as user name is a secret too.
        try served.sandbox.git(
            ["remote", "set-url", "origin", server.url("Superproject.git", userInfo: "ghp_T0KEN")], in: served.workspace
        )
        let token = served.tenantctl(["audit", "--verbose"])
        #expect(token.status != 0)
        #expect(!token.stderr.contains("ghp_T0KEN") && !token.stdout.contains("ghp_T0KEN"), "\(token.stderr)")

        try served.sandbox.git(
            ["remote", "set-url", "origin", server.anonymousURL("Superproject.git")], in: served.workspace)
        #expect(try served.localState() == state)
        #expect(try served.remoteBranches() == before)
    }

    /// Authentication over ssh: a key the server does not accept, or no key and tenantctl's own ssh defaults
    /// (`BatchMode=yes`, an unknown host) → exit 1 within seconds, no prompt, nothing written.
    @Test(.enabled(if: ServerAvailability.ssh, "sshd, ssh or ssh-keygen missing"))
    func wrongOrMissingSSHKeysFailFastWithoutAPrompt() throws {
        let served = try ServedExample(.ssh)
        let server = try #require(served.ssh)
        let state = try served.localState()
        let before = try served.remoteBranches()
        var started = Date()
        let wrong = served.tenantctl(
            ["roll"], environment: ["GIT_SSH_COMMAND": server.sshCommand(key: server.strangerKey)])
        #expect(Date().timeIntervalSince(started) < 20)
        #expect(wrong.status == 1, "\(wrong.stdout)\(wrong.stderr)")
        #expect(wrong.stderr.contains("Permission denied (publickey)"), "\(wrong.stderr)")

        // No GIT_SSH_COMMAND: tenantctl's own `ssh -o BatchMode=yes`, the sandbox's HOME has no key, no known host.
        var environment = served.environment
        environment.removeValue(forKey: "GIT_SSH_COMMAND")
        started = Date()
        let missing = served.sandbox.tenantctl(["audit"], in: served.workspace, environment: environment)
        #expect(Date().timeIntervalSince(started) < 20)
        #expect(missing.status != 0, "\(missing.stdout)\(missing.stderr)")
        #expect(missing.stderr.contains("Host key verification failed"), "\(missing.stderr)")
        #expect(try served.localState() == state)
        #expect(try served.remoteBranches() == before)
    }

    /// Hooks and atomic pushes over a server: a pre-receive hook's message reaches the user, and a push rejected for
    /// one ref (an `update` hook) leaves every ref of that repository unchanged (`--atomic` over the transport).
    static func hookMessagesAndAtomicity(_ served: ServedExample) throws {
        let before = try served.remoteBranches()
        try served.hook(
            "Superproject", "pre-receive", "echo 'release freeze: pushes to the ERP are closed' >&2; exit 1")
        let rejected = served.tenantctl(["roll"])
        #expect(rejected.status == 2, "\(rejected.stdout)\(rejected.stderr)")
        #expect(
            (rejected.stdout + rejected.stderr).contains("release freeze: pushes to the ERP are closed"),
            "\(rejected.stdout)\(rejected.stderr)")
        #expect(try served.remoteBranches()["Superproject"] == before["Superproject"])
        try FileManager.default.removeItem(atPath: served.remote("Superproject") + "/hooks/pre-receive")

        try served.hook(
            "Superproject", "update",
            "if [ \"$1\" = refs/heads/t3 ]; then echo 't3 is frozen' >&2; exit 1; fi")
        let partial = served.tenantctl(["roll"])
        #expect(partial.status == 2, "\(partial.stdout)\(partial.stderr)")
        #expect((partial.stdout + partial.stderr).contains("t3 is frozen"), "\(partial.stdout)\(partial.stderr)")
        // t1, t2 and general_dev alone were acceptable; atomic: none moved.
        #expect(try served.remoteBranches()["Superproject"] == before["Superproject"])
        try FileManager.default.removeItem(atPath: served.remote("Superproject") + "/hooks/update")
        let rerun = served.tenantctl(["roll"])
        #expect(rerun.status == 0, "\(rerun.stdout)\(rerun.stderr)")
        #expect(try served.remoteBranches()["Superproject"] != before["Superproject"])
    }

    @Test(.enabled(if: ServerAvailability.http, "nginx, fcgiwrap or git-http-backend missing"))
    func aHookMessageReachesTheUserAndAtomicPushHoldsOverSmartHTTP() throws {
        try Self.hookMessagesAndAtomicity(try ServedExample(.http))
    }

    @Test(.enabled(if: ServerAvailability.ssh, "sshd, ssh or ssh-keygen missing"))
    func aHookMessageReachesTheUserAndAtomicPushHoldsOverSSH() throws {
        try Self.hookMessagesAndAtomicity(try ServedExample(.ssh))
    }
}

/// The network timeout through the commands: a remote that accepts the connection and then says nothing. With
/// `--network-timeout 2` the call is stopped after 2 s, the message names the repository and the setting, and
/// nothing is written (no ref, no half-made mirror).
/// A time limit: without the network timeout these calls would wait forever; broken code fails instead of hanging. It
/// counts from the test's start, which in the full parallel suite includes waiting for a thread, so it is generous.
@Suite(.timeLimit(.minutes(10)), .tags(.slow), .notInTheFastSet) struct NetworkTimeoutCLITests {
    /// The workspace's refs, its modules' refs and the mirrors that exist.
    static func localState(_ fixture: RollFixture) throws -> [String] {
        var state: [String] = []
        for directory in [fixture.workspace] + RollFixture.modules.map({ "\(fixture.workspace)/Modules/\($0)" }) {
            state.append(try fixture.sandbox.git(["for-each-ref", "--format=%(refname) %(objectname)"], in: directory))
            state.append(try fixture.sandbox.git(["status", "--porcelain=v2", "--branch"], in: directory))
        }
        return state
    }

    static func mirrors(_ fixture: RollFixture) -> [String] {
        let directory = "\(fixture.workspace)/.git/tenantctl/mirrors"
        return ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).sorted()
    }

    @Test func aSilentSuperprojectRemoteStopsAuditAndRollAtTheTimeout() throws {
        let fixture = try RollFixture()
        let server = try SilentServer()
        let url = "http://127.0.0.1:\(server.port)/git/Superproject.git"
        try fixture.sandbox.git(["remote", "set-url", "origin", url], in: fixture.workspace)
        let state = try Self.localState(fixture)
        for command in [["audit"], ["roll"]] {
            let started = Date()
            let result = fixture.sandbox.tenantctl(command + ["--network-timeout", "2"], in: fixture.workspace)
            let elapsed = Date().timeIntervalSince(started)
            #expect(elapsed < 30, "\(command): \(elapsed) s")
            #expect(elapsed >= 1.9, "\(command): stopped before the limit (\(elapsed) s)")
            #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
            #expect(
                result.stderr.contains(
                    "error: fetch the superproject from origin: timed out after 2 s talking to origin (\(url)); "
                        + "raise --network-timeout"), "\(result.stderr)")
            #expect(try Self.localState(fixture) == state)
            #expect(Self.mirrors(fixture).isEmpty, "\(Self.mirrors(fixture))")
        }
        #expect(server.connections >= 2)
    }

    /// The module mirrors are cloned concurrently; the one whose remote is silent is stopped and leaves no
    /// directory behind (git cannot clean up after SIGKILL; tenantctl does). As for any unreachable module
    /// (audit and roll go on without it), its pins are kept, the other modules roll, exit 2.
    @Test func aSilentModuleRemoteLeavesNoHalfMadeMirror() throws {
        let fixture = try RollFixture()
        let server = try SilentServer()
        let before = try fixture.remoteBranches()
        let pinsBefore = try ["general_dev", "t1", "t2", "t3"].map { try fixture.pins($0)["Modules/Article"] }
        // Article's URL (a path under remotes/) goes to the silent server instead.
        try fixture.sandbox.git([
            "config", "--global", "url.http://127.0.0.1:\(server.port)/git/Article.git.insteadOf",
            fixture.remote("Article"),
        ])
        let started = Date()
        let result = fixture.roll(["--network-timeout", "2"])
        #expect(Date().timeIntervalSince(started) < 30)
        #expect(result.status == 2, "\(result.stdout)\(result.stderr)")
        #expect(
            result.stdout.contains("fetch module Article from \(fixture.remote("Article")): timed out after 2 s"),
            "\(result.stdout)")
        #expect(!Self.mirrors(fixture).contains("Article.git"), "\(Self.mirrors(fixture))")
        #expect(Self.mirrors(fixture).contains("Order.git"), "\(Self.mirrors(fixture))")
        let after = try fixture.remoteBranches()
        #expect(after["Article"] == before["Article"])
        #expect(try ["general_dev", "t1", "t2", "t3"].map { try fixture.pins($0)["Modules/Article"] } == pinsBefore)
        #expect(server.connections >= 1)
    }

    /// A push that stalls (the superproject's push URL is silent): stopped, the superproject's remote unchanged;
    /// the modules' merges, pushed first, stay (nothing lost) and a re-run with a working push URL converges.
    @Test func aSilentPushIsStoppedAndTheSuperprojectRemoteStaysUnchanged() throws {
        let fixture = try RollFixture()
        let server = try SilentServer()
        let before = try fixture.remoteBranches()
        try fixture.sandbox.git(
            ["remote", "set-url", "--push", "origin", "http://127.0.0.1:\(server.port)/git/Superproject.git"],
            in: fixture.workspace)
        let started = Date()
        let result = fixture.roll(["--network-timeout", "2"])
        #expect(Date().timeIntervalSince(started) < 30)
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        #expect(result.stderr.contains("timed out after 2 s talking to origin"), "\(result.stderr)")
        #expect(try fixture.remoteBranches()["Superproject"] == before["Superproject"])

        try fixture.sandbox.git(["config", "--unset", "remote.origin.pushurl"], in: fixture.workspace)
        let rerun = fixture.roll()
        #expect(rerun.status == 0, "\(rerun.stdout)\(rerun.stderr)")
        #expect(try fixture.remoteBranches()["Superproject"] != before["Superproject"])
    }

    @Test func aNetworkTimeoutMustBePositive() throws {
        let sandbox = try GitSandbox()
        for value in ["0", "-1", "1.5"] {
            let result = sandbox.tenantctl(["audit", "--network-timeout", value])
            #expect(result.status == 64, "\(value): \(result.status) \(result.stderr)")
            #expect(result.stderr.contains("--network-timeout"), "\(result.stderr)")
        }
    }
}
