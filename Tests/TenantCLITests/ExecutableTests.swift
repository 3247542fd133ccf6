import Foundation
import TenantExample
import TenantKit
import TenantTestSupport
import Testing

@Suite struct ExecutableTests {
    @Test func versionAndHelp() throws {
        let sandbox = try GitSandbox()
        let version = try sandbox.tenantctlProcess(["--version"])
        #expect(version.status == 0)
        #expect(version.stdout == TenantKitInfo.version + "\n")
        let help = try sandbox.tenantctlProcess(["--help"])
        #expect(help.status == 0)
        #expect(help.stdout.contains("USAGE: tenantctl <subcommand>"))
    }

    @Test func usageErrorExits64() throws {
        let sandbox = try GitSandbox()
        let result = try sandbox.tenantctlProcess(["no-such-command"])
        #expect(result.status == 64)
        #expect(result.stderr.hasPrefix("error: unknown command 'no-such-command' for 'tenantctl'; commands: example,"))
        #expect(sandbox.tenantctl(["no-such-command"]).status == 64)
    }

    @Test func oldGitIsRefusedAtStartNamingTheVersion() throws {
        let sandbox = try GitSandbox()
        let shim = try sandbox.writeExecutable("bin/old-git", "#!/bin/sh\necho 'git version 2.30.0'\n")
        let result = try sandbox.tenantctlProcess(["demo"], environment: ["TENANTCTL_GIT": shim])
        #expect(result.status == 1)
        #expect(result.stderr.contains("error: git 2.30.0 is too old: tenantctl needs git 2.38.0 or newer"))
        let viaOption = sandbox.tenantctl(["demo", "--git", shim])
        #expect(viaOption.status == 1)
        #expect(viaOption.stderr.contains("git 2.30.0 is too old"))
    }

    @Test(arguments: ["bash", "zsh", "fish"])
    func completionScriptsGenerate(_ shell: String) throws {
        let sandbox = try GitSandbox()
        let result = try sandbox.tenantctlProcess(["--generate-completion-script", shell])
        #expect(result.status == 0)
        #expect(result.stdout.contains("tenantctl"))
        for command in ["switch", "roll", "audit"] {
            #expect(result.stdout.contains(command), "\(shell) completion lacks \(command)")
        }
    }
}

@Suite struct TerminalMannersTests {
    @Test func quietPrintsNothingButErrorsAndJSON() throws {
        let sandbox = try GitSandbox()
        let example = try sandbox.exampleCopy(in: sandbox.path("erp"), stage: .afterUpdates)
        let gate = sandbox.tenantctl(["audit", "--check", "--quiet"], in: example.workspace)
        #expect(gate.status == 2)
        #expect(gate.stdout.isEmpty)
        #expect(gate.stderr.isEmpty)
        let json = sandbox.tenantctl(["tenant", "list", "--quiet", "--json"], in: example.workspace)
        #expect(json.status == 0)
        #expect(json.stdout.hasPrefix("{"))
        let failure = sandbox.tenantctl(["switch", "nobody", "--quiet"], in: example.workspace)
        #expect(failure.status == 64)  // an unknown tenant is a usage error
        #expect(failure.stdout.isEmpty)
        #expect(failure.stderr.contains("error:"))
    }

    @Test func colourOnlyWhenAskedOrOnATerminalWithoutNoColor() throws {
        let sandbox = try GitSandbox()
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().path
        let plain = sandbox.tenantctl(["verify", "-C", root])
        #expect(!plain.stdout.contains("\u{1B}["))
        let always = sandbox.tenantctl(["verify", "-C", root, "--color", "always"])
        #expect(always.stdout.contains("\u{1B}[32m"))
        let never = sandbox.tenantctl(["verify", "-C", root, "--color", "never"])
        #expect(!never.stdout.contains("\u{1B}["))
    }
}
