import Foundation
import TenantKit
import TenantTestSupport
import Testing

@Suite(.tags(.slow), .notInTheFastSet) struct GitRunnerTests {
    @Test func runsWithArgumentVectorAndReturnsOutput() throws {
        let sandbox = try GitSandbox()
        let repo = try sandbox.makeRepository("repo", files: ["a file with spaces.txt": "hello\n"])
        let git = try sandbox.gitRunner()
        let output = try git.run(["ls-files", "-z"], in: repo)
        #expect(String(decoding: output.stdout, as: UTF8.self) == "a file with spaces.txt\0")
        #expect(try git.text(["rev-parse", "--abbrev-ref", "HEAD"], in: repo) == "main")
    }

    @Test func failureNamesContextCommandStatusAndStderr() throws {
        let sandbox = try GitSandbox()
        let repo = try sandbox.makeRepository("repo")
        let git = try sandbox.gitRunner()
        let error = #expect(throws: GitError.self) {
            try git.run(
                ["rev-parse", "--verify", "--end-of-options", "no-such-branch"], in: repo,
                context: "resolve branch no-such-branch")
        }
        let text = try #require(error).description
        #expect(text.hasPrefix("resolve branch no-such-branch failed (git exited with status 128)"))
        // The command as the user would type it: the runner's hardening `-c` settings are left out.
        #expect(text.contains("command: git -C \(repo) rev-parse --verify --end-of-options no-such-branch"), "\(text)")
        #expect(!text.contains("core.fsmonitor"))
        #expect(try #require(error).command.contains("core.fsmonitor=false"), "the error keeps the full vector")
        #expect(text.contains("git said:\n    fatal: Needed a single revision"))
    }

    @Test func credentialsAreRedactedInErrors() throws {
        let sandbox = try GitSandbox()
        let git = try sandbox.gitRunner()
        let error = #expect(throws: GitError.self) {
            try git.run(["ls-remote", "--", "https://alice:s3cret@127.0.0.1:9/x.git"], in: sandbox.root)
        }
        let text = try #require(error).description
        #expect(!text.contains("s3cret"))
        #expect(text.contains("https://alice:***@127.0.0.1:9/x.git"))
        #expect(
            Redaction.redact("see https://ghp_token@github.com/o/r and ssh://git@host/x")
                == "see https://***@github.com/o/r and ssh://git@host/x")
    }

    @Test func environmentIsExplicitAndIsolatesRepositoryVariables() throws {
        let sandbox = try GitSandbox()
        let repo = try sandbox.makeRepository("repo")
        var env = sandbox.environment
        env["GIT_DIR"] = "/nonexistent"  // must not redirect the runner
        env["LC_ALL"] = "de_DE.UTF-8"
        let git = try Git(environment: env)
        #expect(git.environment["GIT_DIR"] == nil)
        #expect(git.environment["LC_ALL"] == "C")
        #expect(git.environment["GIT_TERMINAL_PROMPT"] == "0")
        #expect(git.environment["GCM_INTERACTIVE"] == "never")
        #expect(git.environment["GIT_EDITOR"] == ":")
        #expect(git.environment["GIT_ALLOW_PROTOCOL"] == "https:http:ssh:git")
        #expect(try git.text(["rev-parse", "--show-toplevel"], in: repo) == repo)
    }

    @Test func hostileLocalConfigIsNotExecuted() throws {
        let sandbox = try GitSandbox()
        let repo = try sandbox.makeRepository("repo")
        let canary = sandbox.path("canary")
        let hook = try sandbox.writeExecutable("hooks/post-checkout", "#!/bin/sh\ntouch \(canary)-hook\n")
        _ = hook
        try sandbox.git(["config", "core.hooksPath", sandbox.path("hooks")], in: repo)
        try sandbox.git(["config", "core.fsmonitor", "touch \(canary)-fsmonitor; false"], in: repo)
        let git = try sandbox.gitRunner()
        try git.run(["checkout", "-q", "-b", "other"], in: repo)
        try git.run(["status", "--porcelain=v2"], in: repo)
        #expect(!FileManager.default.fileExists(atPath: canary + "-hook"))
        #expect(!FileManager.default.fileExists(atPath: canary + "-fsmonitor"))
    }

    @Test func localRemotesNeedPermission() throws {
        let sandbox = try GitSandbox()
        let remote = try sandbox.makeRepository("remote")
        let strict = try Git(environment: sandbox.environment, allowLocalRemotes: false)
        let error = #expect(throws: GitError.self) { try strict.run(["ls-remote", "--", remote], in: sandbox.root) }
        #expect(try #require(error).stderr.contains("transport 'file' not allowed"))
        let allowed = try sandbox.gitRunner()
        #expect(try allowed.text(["ls-remote", "--", remote], in: sandbox.root).contains("refs/heads/main"))
    }

    @Test func versionParsing() {
        #expect(GitVersion(parsing: "git version 2.39.5")?.description == "2.39.5")
        #expect(GitVersion(parsing: "git version 2.39.3 (Apple Git-146)")?.description == "2.39.3")
        #expect(GitVersion(parsing: "git version 2.45.1.windows.1")?.description == "2.45.1")
        #expect(GitVersion(parsing: "git version 2.38")?.description == "2.38.0")
        #expect(GitVersion(parsing: "hello") == nil)
        #expect(GitVersion(major: 2, minor: 37, patch: 9) < Git.minimumVersion)
        #expect(GitVersion(major: 2, minor: 38, patch: 0) >= Git.minimumVersion)
    }

    @Test func versionCheckRejectsOldGitThroughShim() throws {
        let sandbox = try GitSandbox()
        let shim = try sandbox.writeExecutable("bin/git", "#!/bin/sh\necho 'git version 2.30.0'\n")
        let git = try Git(executable: shim, environment: sandbox.environment)
        let error = #expect(throws: GitError.self) { try git.checkVersion() }
        #expect(
            try #require(error).description
                == "git 2.30.0 is too old: tenantctl needs git 2.38.0 or newer (for merge-tree --write-tree). "
                + "Install a newer git or point TENANTCTL_GIT / --git at one.")
        var env = sandbox.environment
        env["TENANTCTL_GIT"] = shim
        #expect(try Git(environment: env).executable == shim)
        #expect(try sandbox.gitRunner().checkVersion() >= Git.minimumVersion)
    }

    @Test func missingGitIsAClearError() throws {
        let sandbox = try GitSandbox()
        var env = sandbox.environment
        env["PATH"] = sandbox.path("empty")
        let error = #expect(throws: GitError.self) { try Git(environment: env) }
        #expect(try #require(error).description.contains("no 'git' in PATH"))
    }

    /// `cat-file --batch` answers while it is still being fed: with ~240 KB of requests and ~9 MB of answers, a
    /// runner that wrote all input before reading would deadlock (both pipes full). The positive control shows that
    /// a naive sequential runner does hang on exactly this call.
    @Test func aChildThatAnswersWhileBeingFedDoesNotDeadlockTheRunner() throws {
        let sandbox = try GitSandbox()
        let repo = try sandbox.makeRepository(
            "repo", files: ["blob.txt": String(repeating: "0123456789abcdef\n", count: 96)])
        let id = try sandbox.git(["rev-parse", "HEAD:blob.txt"], in: repo)
        let requests = Data(String(repeating: id + "\n", count: 6000).utf8)
        let git = try sandbox.gitRunner()

        let control = NaiveRunner.run(
            "/usr/bin/env", ["git", "-C", repo, "cat-file", "--batch"], environment: sandbox.environment,
            input: requests)
        #expect(control == .hung, "the control did not hang: the test cannot tell a deadlocking runner apart")

        let output = try Guarded.run(killing: repo) {
            try git.run(["cat-file", "--batch"], in: repo, input: requests)
        }
        let answer = try #require(output)
        let one = "\(id) blob 1632\n" + String(repeating: "0123456789abcdef\n", count: 96) + "\n"
        #expect(answer.stdout.count == one.utf8.count * 6000)
        #expect(answer.stdout.prefix(one.utf8.count) == Data(one.utf8))
    }

    /// A child that writes ~1 MB to stdout *and* ~1 MB to stderr while it is fed ~1 MB: every pipe is serviced at once
    /// (a runner that read stderr only after stdout, or wrote before reading, would deadlock, as the control shows).
    @Test func aChildWritingBothPipesWhileBeingFedDoesNotDeadlockTheRunner() throws {
        let sandbox = try GitSandbox()
        let line = String(repeating: "x", count: 49)
        let input = Data(String(repeating: line + "\n", count: 20_000).utf8)
        let program = ["-c", #"exec awk '{ print NR ":" $0; print NR > "/dev/stderr" }'"#]

        let control = NaiveRunner.run("/bin/sh", program, environment: sandbox.environment, input: input)
        #expect(control == .hung, "the control did not hang: the test cannot tell a deadlocking runner apart")

        let cancellator = Cancellator()
        let output = try Guarded.run(cancelling: cancellator) {
            try ExternalProgram.run(
                executable: "/bin/sh", arguments: program, environment: sandbox.environment, input: input,
                cancellator: cancellator)
        }
        let result = try #require(output)
        #expect(result.status == 0, "\(result.stderr.prefix(200))")
        #expect(result.lines.count == 20_000)
        #expect(result.lines.last == "20000:" + line)
        #expect(result.stderr.split(separator: "\n").count == 20_000)
    }

    /// A server hook's own message reaches the error of a push run through `Git.run`: the `remote:` lines are in
    /// the description and in ``GitError/remoteMessages``, and the error carries the whole process result.
    @Test func aRejectingHooksMessageIsInThePushError() throws {
        let sandbox = try GitSandbox()
        let repo = try sandbox.makeRepository("repo")
        let remote = sandbox.path("remote.git")
        try sandbox.git(["init", "-q", "--bare", remote])
        _ = try sandbox.writeExecutable(
            "remote.git/hooks/pre-receive",
            "#!/bin/sh\necho 'policy: main is frozen until release 4.2 (TICKET-42)' >&2\n"
                + "echo 'ask #release' >&2\nexit 1\n")
        let git = try sandbox.gitRunner()
        let error = #expect(throws: GitError.self) {
            try git.run(
                ["push", "--quiet", "--atomic", "--", remote, "HEAD:refs/heads/main"], in: repo, context: "publish main"
            )
        }
        let failure = try #require(error)
        #expect(failure.remoteMessages == ["policy: main is frozen until release 4.2 (TICKET-42)", "ask #release"])
        #expect(failure.description.contains("remote: policy: main is frozen until release 4.2 (TICKET-42)"))
        #expect(failure.description.contains("remote: ask #release"))
        #expect(failure.description.contains("pre-receive hook declined"))
        #expect(failure.kind == .failed(status: 1))
        let output = try #require(failure.output)
        #expect(output.status == 1)
        #expect(output.stderr.contains("[remote rejected] HEAD -> main (pre-receive hook declined)"))
        // Control: the same push without the hook lands, so the rejection came from the hook.
        try FileManager.default.removeItem(atPath: remote + "/hooks/pre-receive")
        try git.run(["push", "--porcelain", "--atomic", "--", remote, "HEAD:refs/heads/main"], in: repo)
    }

    @Test func remoteMessagesAreTheRemotesLinesOnly() {
        let error = GitError(
            context: "push", kind: .failed(status: 1), command: ["git", "push"], directory: nil,
            stderr: "remote: first        \nremote:\nremote: 10%\rremote: done  \nTo origin\n"
                + " ! [remote rejected] main\nerror: failed to push some refs\nremote: \u{1B}[Klast\u{1B}[K\n")
        #expect(error.remoteMessages == ["first", "done", "\u{1B}[Klast"])
    }
}

/// How a naive runner ended: done, or hung (its child was killed after the grace period).
enum NaiveOutcome: Equatable {
    case finished
    case hung
}

/// The runner this suite must tell apart from the production one: writes all input, then reads stdout to its end,
/// then stderr. It hangs when the child's output fills a pipe before the input is written; the child is then killed
/// after `grace` seconds (the hang is permanent, so the grace period only bounds the test: the children here finish in
/// well under a second when their pipes are serviced).
enum NaiveRunner {
    static func run(
        _ executable: String, _ arguments: [String], environment: [String: String], input: Data, grace: Double = 3
    ) -> NaiveOutcome {
        signal(SIGPIPE, SIG_IGN)  // the killed child's pipe gives EPIPE, not a signal
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = environment
        let feed = Pipe()
        let output = Pipe()
        let errors = Pipe()
        process.standardInput = feed
        process.standardOutput = output
        process.standardError = errors
        let done = DispatchSemaphore(value: 0)
        do { try process.run() } catch { return .finished }
        Thread.detachNewThread {
            try? feed.fileHandleForWriting.write(contentsOf: input)
            try? feed.fileHandleForWriting.close()
            _ = output.fileHandleForReading.readDataToEndOfFile()
            _ = errors.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            done.signal()
        }
        guard done.wait(timeout: .now() + grace) == .timedOut else { return .finished }
        kill(process.processIdentifier, SIGKILL)
        done.wait()
        return .hung
    }
}

/// Runs production code that must not hang, with a bound: a deadlock becomes a failure, not a stuck suite.
enum Guarded {
    struct Hung: Error, CustomStringConvertible {
        var description: String { "the runner hung (deadlock); its child was killed" }
    }

    /// Runs `body` on a thread; after `seconds`, cancels `cancellator` (killing the child) and throws.
    static func run<T: Sendable>(
        cancelling cancellator: Cancellator, seconds: Double = 120, _ body: @escaping @Sendable () throws -> T
    ) throws -> T? {
        try run(seconds: seconds, stop: { cancellator.cancel(terminateWithin: 1, killWithin: 5) }, body)
    }

    /// Runs `body` on a thread; after `seconds`, kills the processes whose command line mentions `path` and throws.
    static func run<T: Sendable>(
        killing path: String, seconds: Double = 120, _ body: @escaping @Sendable () throws -> T
    ) throws -> T? {
        try run(
            seconds: seconds,
            stop: {
                let listing = try? PlainProcess.run("/bin/ps", ["-eo", "pid=,args="], environment: [:])
                for line in String(decoding: listing?.stdout ?? Data(), as: UTF8.self).split(separator: "\n")
                where line.contains(path) {
                    if let pid = Int32(line.split(separator: " ").first ?? "") { kill(pid, SIGKILL) }
                }
            }, body)
    }

    private static func run<T: Sendable>(
        seconds: Double, stop: @escaping @Sendable () -> Void, _ body: @escaping @Sendable () throws -> T
    ) throws -> T? {
        let result = Locked<Result<T, any Error>?>(nil)
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            let outcome = Result { try body() }
            result.withLock { $0 = outcome }
            done.signal()
        }
        if done.wait(timeout: .now() + seconds) == .timedOut {
            stop()
            done.wait()
            throw Hung()
        }
        return try result.current?.get()
    }
}
