import Foundation
import TenantKit
import TenantTestSupport
import Testing

@Suite struct GitRunnerTests {
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
        #expect(text.contains("command: git -C \(repo) -c core.fsmonitor=false"))
        #expect(text.contains("rev-parse --verify --end-of-options no-such-branch"))
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

    @Test func largeInputAndOutputDoNotDeadlock() throws {
        let sandbox = try GitSandbox()
        let repo = try sandbox.makeRepository("repo")
        let git = try sandbox.gitRunner()
        // 2 MB in, 2 MB+ out: both pipes are serviced concurrently.
        let blob = Data(String(repeating: "0123456789abcdef\n", count: 120_000).utf8)
        let id = try git.run(["hash-object", "-w", "--stdin"], in: repo, input: blob).text
        let back = try git.run(["cat-file", "blob", id], in: repo)
        #expect(back.stdout == blob)
    }
}
