import Foundation
import TenantExample
import TenantKit
import TenantTestSupport
import Testing

/// `SwitchRun`, `PinRun` and `ResolveRun`, the entry points of the commands that change the working copy, on the
/// example's real repositories: each takes the workspace lock and journals its run (a dry run journals nothing).
@Suite struct WorkingCopyRunTests {
    static func example(_ sandbox: GitSandbox, stage: ExampleStage = .beforeUpdates) throws -> (
        workspace: Workspace, git: Git
    ) {
        let git = try sandbox.gitRunner()
        let example = try sandbox.exampleCopy(in: sandbox.path("erp"), stage: stage)
        return (try Workspace.locate(from: example.workspace, git: git), git)
    }

    static func runs(_ workspace: Workspace) throws -> [RunSummary] {
        try RunsListing.run(workspace: workspace).runs
    }

    static func branch(_ sandbox: GitSandbox, _ workspace: Workspace) throws -> String {
        try sandbox.git(["symbolic-ref", "--short", "HEAD"], in: workspace.root)
    }

    @Test func switchTakesTheLockJournalsItsRunAndADryRunJournalsNothing() throws {
        let sandbox = try GitSandbox()
        let (workspace, _) = try Self.example(sandbox)
        let report = try SwitchRun(target: "t2", arguments: ["t2"]).run(workspace: workspace, console: nil)
        #expect(report.tenant == "t2" && report.branch == "t2" && !report.dryRun)
        #expect(try Self.branch(sandbox, workspace) == "t2")
        let run = try #require(try Self.runs(workspace).last)
        #expect(run.command == "switch" && run.arguments == ["t2"] && run.state == "finished", "\(run)")

        let plan = try SwitchRun(target: "t1", dryRun: true, arguments: ["t1", "--dry-run"]).run(
            workspace: workspace, console: nil)
        #expect(plan.dryRun && plan.tenant == "t1")
        #expect(try Self.branch(sandbox, workspace) == "t2", "a dry run changes nothing")
        #expect(try Self.runs(workspace).count == 1, "a dry run journals nothing")

        let held = try WorkspaceLock(gitDirectory: workspace.commonDirectory)
        #expect(throws: LockError.self) {
            try SwitchRun(target: "t1", arguments: ["t1"]).run(workspace: workspace, console: nil)
        }
        #expect(try Self.branch(sandbox, workspace) == "t2")
        #expect(try Self.runs(workspace).count == 1, "refused at the lock: no run")
        held.release()
        _ = try SwitchRun(target: "t1", arguments: ["t1"]).run(workspace: workspace, console: nil)
        #expect(try Self.branch(sandbox, workspace) == "t1", "positive control: the lock released, it switches")
    }

    @Test func pinTakesTheLockAndJournalsItsRun() throws {
        let sandbox = try GitSandbox()
        let (workspace, _) = try Self.example(sandbox)
        let held = try WorkspaceLock(gitDirectory: workspace.commonDirectory)
        #expect(throws: LockError.self) {
            try PinRun(arguments: []).run(workspace: workspace, console: nil)
        }
        #expect(try Self.runs(workspace).isEmpty)
        held.release()

        // Every module is at its pin: nothing to commit, a finished run.
        let report = try PinRun(arguments: []).run(workspace: workspace, console: nil)
        #expect(report.commit == nil && report.changes.isEmpty, "\(report)")
        let run = try #require(try Self.runs(workspace).last)
        #expect(run.command == "pin" && run.arguments == [] && run.state == "finished", "\(run)")

        // A module commit no remote has is refused (nothing changes): the run ends failed, blocking nothing.
        let head = try sandbox.git(["rev-parse", "HEAD"], in: workspace.root)
        let article = workspace.path("Modules/Article")
        try sandbox.git(["commit", "--quiet", "--allow-empty", "-m", "local"], in: article)
        #expect(throws: WorkingCopyRefusal.self) {
            try PinRun(modules: ["Article"], arguments: ["Article"]).run(workspace: workspace, console: nil)
        }
        #expect(try sandbox.git(["rev-parse", "HEAD"], in: workspace.root) == head)
        let last = try #require(try Self.runs(workspace).last)
        #expect(last.command == "pin" && last.arguments == ["Article"] && last.state == "failed", "\(last)")
        #expect(try RunsListing.run(workspace: workspace).unfinished.isEmpty)
    }

    @Test func resolveStartsAndAbortsUnderTheLockEachRunJournalled() throws {
        let sandbox = try GitSandbox()
        let (workspace, _) = try Self.example(sandbox, stage: .conflict)
        let held = try WorkspaceLock(gitDirectory: workspace.commonDirectory)
        #expect(throws: LockError.self) {
            try ResolveRun(action: .start(tenant: "t2"), arguments: ["t2"]).run(
                workspace: workspace, console: nil)
        }
        #expect(try Self.runs(workspace).isEmpty)
        held.release()
        // The roll that leaves t2 conflicted (t1 and t3 roll).
        _ = try RollRunner(workspace: workspace).run(RollOptions())

        let unknown = #expect(throws: ResolveError.self) {
            try ResolveRun(action: .start(tenant: "t9"), arguments: ["t9"]).run(
                workspace: workspace, console: nil)
        }
        #expect(unknown?.kind == .unknownTenant)
        let refused = try #require(try Self.runs(workspace).last)
        #expect(refused.command == "resolve" && refused.arguments == ["t9"] && refused.state == "failed")

        let started = try ResolveRun(action: .start(tenant: "t2"), arguments: ["t2"]).run(
            workspace: workspace, console: nil)
        #expect(started.action == "start" && started.tenant == "t2" && started.hasConflicts, "\(started)")
        #expect(try Self.branch(sandbox, workspace) == "t2")
        let start = try #require(try Self.runs(workspace).last)
        #expect(start.command == "resolve" && start.arguments == ["t2"] && start.state == "finished", "\(start)")

        let aborted = try ResolveRun(action: .abort, arguments: ["--abort"]).run(
            workspace: workspace, console: nil)
        #expect(aborted.action == "abort", "\(aborted)")
        #expect(try Self.branch(sandbox, workspace) == "general_dev", "back where the start found it")
        let abort = try #require(try Self.runs(workspace).last)
        #expect(abort.command == "resolve" && abort.arguments == ["--abort"] && abort.state == "finished", "\(abort)")
    }
}
