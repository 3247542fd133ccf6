import Foundation
import TenantTestSupport
import Testing

@Suite("pin", .tags(.slow), .notInTheFastSet)
struct PinCLITests {
    @Test func pushPushesModulesFirstThenOneSuperprojectCommit() throws {
        let sandbox = try GitSandbox()
        let fixture = try SwitchFixture(sandbox: sandbox)
        #expect(sandbox.tenantctl(["switch", "t2"], in: fixture.workspace).status == 0)
        let before = try sandbox.git(["rev-parse", "HEAD"], in: fixture.workspace)
        let old = try fixture.pin("Infrastructure", on: "t2")
        let new = try sandbox.commit(
            in: "workspace/Modules/Infrastructure", file: "Fix.swift", content: "// fix\n", message: "t2 fix")
        let log = sandbox.path("pushes.log")
        let shim = try sandbox.writeExecutable(
            "bin/git",
            """
            #!/bin/sh
            case " $* " in *" push "*) echo "$*" >> '\(log)' ;; esac
            exec "$(command -v git)" "$@"
            """)
        _ = shim
        var environment = ["TENANTCTL_GIT": sandbox.path("bin/git")]
        environment["PATH"] = (sandbox.environment["PATH"] ?? "/usr/bin:/bin")
        let result = sandbox.tenantctl(["pin", "--push"], in: fixture.workspace, environment: environment)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try sandbox.git(["rev-parse", "HEAD~1"], in: fixture.workspace) == before)
        #expect(try sandbox.git(["rev-parse", "HEAD:Modules/Infrastructure"], in: fixture.workspace) == new)
        let message = try sandbox.git(["log", "-1", "--format=%B"], in: fixture.workspace)
        #expect(message.contains("Infrastructure: \(old.prefix(7)) → \(new.prefix(7))"))
        #expect(
            try sandbox.git(["rev-parse", "refs/heads/t2"], in: sandbox.path("remotes/Infrastructure.git")) == new)
        #expect(
            try sandbox.git(["rev-parse", "refs/heads/t2"], in: sandbox.path("remotes/Superproject.git"))
                == sandbox.git(["rev-parse", "HEAD"], in: fixture.workspace))
        let pushes = try sandbox.read("pushes.log").split(separator: "\n")
        #expect(pushes.count == 2)
        #expect(pushes.first?.contains("Modules/Infrastructure") == true)
        #expect(pushes.last?.contains("Modules/") == false)
        #expect(try sandbox.git(["status", "--porcelain=v2"], in: fixture.workspace) == "")
    }

    @Test func withoutPushAnUnpushedModuleCommitIsRefused() throws {
        let sandbox = try GitSandbox()
        let fixture = try SwitchFixture(sandbox: sandbox)
        #expect(sandbox.tenantctl(["switch", "t2"], in: fixture.workspace).status == 0)
        try sandbox.commit(in: "workspace/Modules/Customer", file: "Fix.swift", content: "// fix\n")
        let before = try fixture.snapshot()
        let result = sandbox.tenantctl(["pin", "Customer"], in: fixture.workspace)
        #expect(result.status == 1)
        #expect(result.stderr.contains("Customer (Modules/Customer): commit"))
        #expect(result.stderr.contains("is not on the module's remote"))
        #expect(try fixture.snapshot() == before)
    }

    @Test func pinsAPushedCommitWithoutPushing() throws {
        let sandbox = try GitSandbox()
        let fixture = try SwitchFixture(sandbox: sandbox)
        #expect(sandbox.tenantctl(["switch", "t2"], in: fixture.workspace).status == 0)
        let new = try sandbox.commit(in: "workspace/Modules/Customer", file: "Fix.swift", content: "// fix\n")
        try sandbox.git(["push", "-q", "origin", "t2"], in: fixture.module("Customer"))
        let remoteBefore = try sandbox.refs(sandbox.path("remotes/Superproject.git"))
        let result = sandbox.tenantctl(["pin", "--json"], in: fixture.workspace)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try sandbox.git(["rev-parse", "HEAD:Modules/Customer"], in: fixture.workspace) == new)
        #expect(try sandbox.refs(sandbox.path("remotes/Superproject.git")) == remoteBefore)
        #expect(result.stdout.contains("\"module\" : \"Customer\""))
        let again = sandbox.tenantctl(["pin"], in: fixture.workspace)
        #expect(again.status == 0)
        #expect(again.stdout.contains("nothing to pin"))
    }

    @Test func refusesAModuleOnTheWrongBranchOrDetached() throws {
        let sandbox = try GitSandbox()
        let fixture = try SwitchFixture(sandbox: sandbox)
        #expect(sandbox.tenantctl(["switch", "t2"], in: fixture.workspace).status == 0)
        try sandbox.git(["switch", "-q", "general_dev"], in: fixture.module("Infrastructure"))
        try sandbox.git(["checkout", "-q", "--detach"], in: fixture.module("Article"))
        try sandbox.commit(in: "workspace/Modules/Article", file: "X.swift", content: "// x\n")
        let before = try fixture.snapshot()
        let result = sandbox.tenantctl(["pin", "--push"], in: fixture.workspace)
        #expect(result.status == 1)
        #expect(result.stderr.contains("on branch general_dev, but t2 takes Infrastructure from t2"))
        #expect(result.stderr.contains("Article (Modules/Article): detached HEAD"))
        #expect(try fixture.snapshot() == before)
    }

    @Test func helpHasAnExample() throws {
        let result = try GitSandbox().tenantctl(["pin", "--help"])
        #expect(result.stdout.contains("tenantctl pin --push"))
    }
}
