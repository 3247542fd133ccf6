import Foundation
import TenantExample
import TenantKit
import TenantTestSupport
import Testing

/// The commits tenantctl writes carry the identity `git commit` would use, signed when the user's config says so.
@Suite("PublishIdentityTests", .tags(.slow), .notInTheFastSet)
struct PublishIdentityTests {
    /// A global config with a name but no email, and `user.useConfigOnly`: `git commit` refuses here.
    static func configWithoutEmail(_ sandbox: GitSandbox) throws -> [String: String] {
        try sandbox.write(
            ".home/no-email.gitconfig",
            """
            [user]
            \tname = Sandbox User
            \tuseConfigOnly = true
            [init]
            \tdefaultBranch = main
            [protocol "file"]
            \tallow = always

            """)
        return ["GIT_CONFIG_GLOBAL": sandbox.path(".home/no-email.gitconfig")]
    }

    @Test func rollWithoutAnEmailRefusesBeforeAnyWriteWithGitsHint() throws {
        let fixture = try RollFixture()
        let environment = try Self.configWithoutEmail(fixture.sandbox)
        // Plain git refuses to commit in this configuration (the premise).
        let plain = try fixture.sandbox.run(
            "/usr/bin/env", ["git", "-C", fixture.workspace, "commit", "--allow-empty", "-m", "x"],
            extraEnvironment: environment)
        #expect(plain.status != 0)
        let before = try fixture.remoteBranches()
        let roll = fixture.roll(environment: environment)
        #expect(roll.status != 0)
        #expect(roll.stderr.contains("Please tell me who you are"), "git's hint: \(roll.stderr)")
        #expect(roll.stderr.contains("no email was given"))
        #expect(try fixture.remoteBranches() == before)
        #expect(!FileManager.default.fileExists(atPath: fixture.workspace + "/.git/tenantctl/journal"))
        // Positive control: with the email back, the same roll publishes, under that identity and no invented one.
        let ok = fixture.roll()
        #expect(ok.status == 0, "\(ok.stderr)")
        let after = try fixture.remoteBranches()
        #expect(after != before)
        let log = try fixture.sandbox.git(
            ["log", "--format=%an <%ae>|%cn <%ce>", "--branches"], in: fixture.remote("Superproject"))
        #expect(!log.contains("(none)"))
        #expect(log.contains("Sandbox User <sandbox@example.invalid>|Sandbox User <sandbox@example.invalid>"))
    }

    @Test func tenantAddWithoutAnEmailRefusesBeforeAnyWrite() throws {
        let sandbox = try GitSandbox()
        let example = try LifecycleExample(sandbox)
        let environment = try Self.configWithoutEmail(sandbox)
        let before = try example.snapshot()
        let run = sandbox.tenantctl(
            ["tenant", "add", "t4", "--from", "t2", "-C", example.workspace], environment: environment)
        #expect(run.status != 0)
        #expect(run.stderr.contains("Please tell me who you are"), "\(run.stderr)")
        #expect(try example.snapshot() == before)
        // Positive control.
        #expect(example.tenantctl(["tenant", "add", "t4", "--from", "t2"]).status == 0)
        #expect(try example.branches("Superproject")["t4"] != nil)
    }

    /// An ssh signing key made with `ssh-keygen` alone; returns the allowed-signers file.
    static func configureSSHSigning(_ sandbox: GitSandbox) throws -> String {
        let key = sandbox.path(".home/signing-key")
        let made = try sandbox.run(
            "/usr/bin/env", ["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", "t", "-f", key])
        try #require(made.status == 0, "ssh-keygen: \(made.stderr)")
        let publicKey = try String(contentsOfFile: key + ".pub", encoding: .utf8)
        try sandbox.write(".home/allowed-signers", "sandbox@example.invalid " + publicKey)
        for (name, value) in [("gpg.format", "ssh"), ("user.signingkey", key), ("commit.gpgsign", "true")] {
            try sandbox.git(["config", "--global", name, value])
        }
        return sandbox.path(".home/allowed-signers")
    }

    /// Every commit `branches` reach on `remote` that `before` did not; verified with `git verify-commit`.
    static func verifyNewCommits(
        _ sandbox: GitSandbox, remote: String, before: [String: String], after: [String: String], signers: String
    ) throws -> Int {
        let new = try sandbox.git(
            ["rev-list"] + after.values.sorted() + ["--not"] + before.values.sorted() + ["--"], in: remote
        ).split(separator: "\n").map(String.init)
        for commit in new {
            let verified = try sandbox.gitResult(
                ["-c", "gpg.ssh.allowedSignersFile=\(signers)", "verify-commit", commit], in: remote)
            #expect(verified.status == 0, "\(commit) in \(remote): \(verified.stderr)")
        }
        return new.count
    }

    @Test func rollSignsItsCommitsWithTheConfiguredSSHKey() throws {
        let fixture = try RollFixture()
        let signers = try Self.configureSSHSigning(fixture.sandbox)
        let before = try fixture.remoteBranches()
        let roll = fixture.roll()
        #expect(roll.status == 0, "\(roll.stderr)")
        let after = try fixture.remoteBranches()
        var verified = 0
        for repository in RollFixture.repositories {
            verified += try Self.verifyNewCommits(
                fixture.sandbox, remote: fixture.remote(repository), before: before[repository] ?? [:],
                after: after[repository] ?? [:], signers: signers)
        }
        #expect(verified > 4)
    }

    @Test func tenantAddSignsItsCommitWithTheConfiguredSSHKey() throws {
        let sandbox = try GitSandbox()
        let example = try LifecycleExample(sandbox)
        let before = try example.branches("Superproject")
        // Negative control: the fixture's own commits are unsigned, so verify-commit can fail.
        let signers = try Self.configureSSHSigning(sandbox)
        let unsigned = try sandbox.gitResult(
            ["-c", "gpg.ssh.allowedSignersFile=\(signers)", "verify-commit", before["t2"] ?? ""],
            in: example.remote("Superproject"))
        #expect(unsigned.status != 0)
        let run = example.tenantctl(["tenant", "add", "t4", "--from", "t2"])
        #expect(run.status == 0, "\(run.stderr)")
        let after = try example.branches("Superproject")
        let count = try Self.verifyNewCommits(
            sandbox, remote: example.remote("Superproject"), before: before, after: after, signers: signers)
        #expect(count >= 1)
    }

    @Test func resolveWithoutAnEmailRefusesBeforeItMergesAnything() throws {
        let fixture = try RollFixture(stage: .conflict)
        let roll = fixture.roll()
        try #require(roll.status == 2, "\(roll.stdout)\(roll.stderr)")
        let environment = try Self.configWithoutEmail(fixture.sandbox)
        let state = try fixture.userState()
        let start = fixture.sandbox.tenantctl(["resolve", "t2"], in: fixture.workspace, environment: environment)
        #expect(start.status != 0)
        #expect(start.stderr.contains("Please tell me who you are"), "\(start.stderr)")
        #expect(!FileManager.default.fileExists(atPath: fixture.workspace + "/.git/tenantctl/resolve.json"))
        #expect(try fixture.userState() == state)
        // Positive control: with the email, the resolution starts (and stops at the conflict).
        let started = fixture.sandbox.tenantctl(["resolve", "t2"], in: fixture.workspace)
        #expect(started.status == 2, "\(started.stdout)\(started.stderr)")
        #expect(FileManager.default.fileExists(atPath: fixture.workspace + "/.git/tenantctl/resolve.json"))
    }
}
