import Foundation
import TenantKit
import TenantTestSupport
import Testing

/// The `ext::` transport runs a command. Git refuses it by default, so a test that only shows "tenantctl's runner
/// refuses ext::" passes whatever the runner does. These tests first show the payload does run where git allows
/// ext (the positive control), then that each of the runner's own defences stops it there: the
/// `GIT_ALLOW_PROTOCOL` it sets (overriding the user's), and the `-c protocol.ext.allow=never` it passes (when the
/// variable is gone). That tenantctl refuses an ext:: URL before any git call is HostileInputCLITests' job.
@Suite struct ExtTransportTests {
    /// `ext::sh -c touch <canary>`: the canary file exists once the payload has run.
    static func payload(_ canary: String) -> String { "ext::sh -c touch% \(canary)" }

    /// A sandbox whose global git config allows ext (as a user's config could), and a repository in it.
    static func hostileSandbox() throws -> (sandbox: GitSandbox, repo: String) {
        let sandbox = try GitSandbox()
        let repo = try sandbox.makeRepository("repo")
        let config = try #require(sandbox.environment["GIT_CONFIG_GLOBAL"])
        let text = try String(contentsOfFile: config, encoding: .utf8) + "[protocol \"ext\"]\n\tallow = always\n"
        try text.write(toFile: config, atomically: true, encoding: .utf8)
        return (sandbox, repo)
    }

    /// What a user's environment can add to allow ext (the runner must override all of it).
    static let hostileEnvironment = [
        "GIT_ALLOW_PROTOCOL": "ext:file:https",
        "GIT_CONFIG_COUNT": "1", "GIT_CONFIG_KEY_0": "protocol.ext.allow", "GIT_CONFIG_VALUE_0": "always",
    ]

    @Test func plainGitRunsThePayloadWhereExtIsAllowed() throws {
        let sandbox = try GitSandbox()
        let repo = try sandbox.makeRepository("repo")
        // git's own default refuses ext: this alone would make a runner test pass.
        let byDefault = sandbox.path("default")
        let refused = try sandbox.gitResult(["fetch", "--", Self.payload(byDefault)], in: repo)
        #expect(refused.stderr.contains("transport 'ext' not allowed"), "\(refused.stderr)")
        #expect(!FileManager.default.fileExists(atPath: byDefault))
        // Allowed on the command line: the payload runs.
        let allowed = sandbox.path("allowed")
        _ = try sandbox.gitResult(["-c", "protocol.ext.allow=always", "fetch", "--", Self.payload(allowed)], in: repo)
        #expect(FileManager.default.fileExists(atPath: allowed), "the payload did not run: the control is broken")

        // Allowed by the user's config, and by the user's environment: the payload runs there too.
        let hostile = try Self.hostileSandbox()
        let byConfig = hostile.sandbox.path("config")
        _ = try hostile.sandbox.gitResult(["fetch", "--", Self.payload(byConfig)], in: hostile.repo)
        #expect(FileManager.default.fileExists(atPath: byConfig))
        let byEnvironment = sandbox.path("environment")
        _ = try sandbox.run(
            "/usr/bin/env", ["git", "-C", repo, "fetch", "--", Self.payload(byEnvironment)],
            extraEnvironment: Self.hostileEnvironment)
        #expect(FileManager.default.fileExists(atPath: byEnvironment))
    }

    @Test func theRunnerRefusesExtWhereTheUsersConfigAndEnvironmentAllowIt() throws {
        let (sandbox, repo) = try Self.hostileSandbox()
        let canary = sandbox.path("pwned")
        let git = try Git(
            environment: sandbox.environment.merging(Self.hostileEnvironment) { $1 }, allowLocalRemotes: true)
        let error = #expect(throws: GitError.self) {
            try git.run(["fetch", "--", Self.payload(canary)], in: repo)
        }
        #expect(try #require(error).stderr.contains("transport 'ext' not allowed"), "\(String(describing: error))")
        #expect(!FileManager.default.fileExists(atPath: canary), "the payload ran")
    }

    @Test func theRunnersCommandLineAloneStopsExtWhenItsEnvironmentIsGone() throws {
        let (sandbox, repo) = try Self.hostileSandbox()
        // A git that drops the runner's GIT_ALLOW_PROTOCOL: only `-c protocol.ext.allow=never` is left.
        let real = try #require(
            try sandbox.run("/usr/bin/env", ["sh", "-c", "command -v git"]).stdout.split(separator: "\n").first)
        let unprotected = try sandbox.writeExecutable(
            "bin/git-without-allow-protocol", "#!/bin/sh\nunset GIT_ALLOW_PROTOCOL\nexec '\(real)' \"$@\"\n")
        // Control: that git, without the runner's arguments, runs the payload in this sandbox.
        let control = sandbox.path("control")
        _ = try sandbox.run(unprotected, ["-C", repo, "fetch", "--", Self.payload(control)])
        #expect(FileManager.default.fileExists(atPath: control), "the payload did not run: the control is broken")

        let canary = sandbox.path("pwned")
        let git = try Git(executable: unprotected, environment: sandbox.environment, allowLocalRemotes: true)
        let error = #expect(throws: GitError.self) {
            try git.run(["fetch", "--", Self.payload(canary)], in: repo)
        }
        #expect(try #require(error).stderr.contains("transport 'ext' not allowed"), "\(String(describing: error))")
        #expect(!FileManager.default.fileExists(atPath: canary), "the payload ran")
    }

    @Test func anOptionAfterDoubleDashIsARepositoryNameNotAnOption() throws {
        let sandbox = try GitSandbox()
        let repo = try sandbox.makeRepository("repo")
        // Control: as an option, --upload-pack runs its value.
        let control = sandbox.path("control")
        _ = try sandbox.gitResult(["ls-remote", "--upload-pack=touch \(control)", repo], in: repo)
        #expect(FileManager.default.fileExists(atPath: control), "the payload did not run: the control is broken")
        let canary = sandbox.path("pwned")
        let git = try sandbox.gitRunner()
        #expect(throws: GitError.self) {
            try git.run(["ls-remote", "--", "--upload-pack=touch \(canary)"], in: repo)
        }
        #expect(!FileManager.default.fileExists(atPath: canary))
    }
}
