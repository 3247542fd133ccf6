import Foundation
import TenantKit
import TenantTestSupport
import Testing

@testable import TenantResolve

/// The pure parts of resolve: conflict markers, the state file's round trip and its absence.
@Suite struct ResolveStateTests {
    /// The state of a resolution of t2 under way (resolving, the superproject's merge of general_dev into t2), with
    /// `startPoints`.
    static func resolvingT2(startPoints: [ResolveState.StartPoint] = []) -> ResolveState {
        let merge = ResolveState.Merge(
            repository: "superproject", path: "", branch: "t2", generalBranch: "general_dev",
            ours: String(repeating: "a", count: 40), theirs: nil, message: "Roll general_dev into t2", remote: "origin")
        return ResolveState(
            tenant: "t2", branch: "t2", generalBranch: "general_dev", startedAt: "2026-01-01T00:00:00Z",
            phase: .resolving, startPoints: startPoints, modules: [], superproject: merge, pins: [], removedPaths: [])
    }

    /// Two worktrees of one repository in `sandbox`: `main` (its git directory is the common one) and a second one
    /// at `secondRoot`, whose git directory exists.
    static func worktrees(_ sandbox: GitSandbox, secondRoot: String) throws -> (main: Workspace, second: Workspace) {
        let common = sandbox.path("main/.git")
        let git = try sandbox.gitRunner()
        let main = Workspace(root: sandbox.path("main"), gitDirectory: common, commonDirectory: common, git: git)
        let second = Workspace(
            root: sandbox.path(secondRoot), gitDirectory: common + "/worktrees/second", commonDirectory: common,
            git: git)
        try FileManager.default.createDirectory(atPath: second.gitDirectory, withIntermediateDirectories: true)
        return (main, second)
    }

    @Test(arguments: [
        ("<<<<<<< HEAD\nours\n=======\ntheirs\n>>>>>>> 02ae077\n", true),
        ("key,en\n>>>>>>> theirs\n", true),
        ("a\r\n<<<<<<<\r\n", true),
        ("key,en\nrow,<<<<<<< not at the start\n", false),
        ("<<<<<< six only\n", false),
        ("<<<<<<<<< nine, not a marker of size seven\n", false),
        ("Title\n=======\nunderline only\n", false),
        ("", false),
    ])
    func conflictMarkersAreFoundOnlyAtTheStartOfALine(text: String, expected: Bool) {
        #expect(ConflictMarkers.hasMarkers(Data(text.utf8)) == expected, "\(text.debugDescription)")
    }

    /// Records `state` in the journal of a new resolve run in `workspace` (and names that run in resolve.json).
    @discardableResult
    static func record(_ state: ResolveState, in workspace: Workspace) throws -> Transaction {
        let transaction = try Transaction.begin(workspace, command: "resolve", arguments: [state.tenant])
        try state.record(in: transaction, commonDirectory: workspace.commonDirectory)
        return transaction
    }

    @Test func stateRoundTripsThroughTheJournalAndIsGoneAfterRemoval() throws {
        let sandbox = try GitSandbox()
        let common = sandbox.path("git")
        try FileManager.default.createDirectory(atPath: common, withIntermediateDirectories: true)
        #expect(try ResolveState.read(commonDirectory: common) == nil)
        let state = Self.resolvingT2(startPoints: [
            ResolveState.StartPoint(
                repository: "superproject", path: "", initialised: true, headBranch: "general_dev",
                head: String(repeating: "b", count: 40), branches: ["general_dev": String(repeating: "b", count: 40)])
        ])
        let here = Workspace(root: sandbox.path("work"), gitDirectory: common, git: try sandbox.gitRunner())
        let transaction = try Self.record(state, in: here)
        #expect(try ResolveState.read(commonDirectory: common) == state)
        // resolve.json names the tenant and the run; the start points are in the run's journal only.
        let named = try String(contentsOfFile: ResolveState.path(commonDirectory: common), encoding: .utf8)
        #expect(named.contains(transaction.runId) && !named.contains("startPoints"), "\(named)")
        #expect(try String(contentsOfFile: transaction.path, encoding: .utf8).contains("startPoints"))
        #expect(state.inProgressError(in: here).kind == .inProgress)
        #expect(state.inProgressError(in: here).description.contains("tenantctl resolve --abort"))
        try transaction.finish()
        try ResolveState.remove(commonDirectory: common)
        #expect(try ResolveState.read(commonDirectory: common) == nil)
        try "{ not json".write(toFile: ResolveState.path(commonDirectory: common), atomically: true, encoding: .utf8)
        #expect(throws: ResolveError.self) { try ResolveState.read(commonDirectory: common) }
    }

    /// Paths in printed commands are one shell word each.
    @Test func shellWordsQuoteOnlyWhatNeedsIt() {
        #expect(ResolveState.shellWord("/tmp/work-1/a.b") == "/tmp/work-1/a.b")
        #expect(ResolveState.shellWord("/tmp/my work") == "'/tmp/my work'")
        #expect(ResolveState.shellWord("/tmp/it's") == "'/tmp/it'\\''s'")
        #expect(ResolveState.shellWord("") == "''")
    }

    /// `--abort`/`--continue` elsewhere than where the resolution started: refused naming that worktree; when it no
    /// longer exists, the printed `rm` (run as printed) forgets the resolution. The same worktree passes.
    @Test func anotherWorktreeIsRefusedAndAVanishedOneNamesTheRmThatForgetsIt() throws {
        let sandbox = try GitSandbox()
        let (main, second) = try Self.worktrees(sandbox, secondRoot: "my second")
        let common = main.commonDirectory
        var state = Self.resolvingT2()
        state.worktree = main.root
        state.gitDirectory = main.gitDirectory
        try state.requireStartedHere(main, action: "abort")
        let refused = #expect(throws: ResolveError.self) { try state.requireStartedHere(second, action: "abort") }
        #expect(refused?.description.contains("run it there: tenantctl -C \(main.root) resolve --abort") == true)

        // Started in the second worktree, which was removed since: abort from the main one names the `rm`.
        state.worktree = second.root
        state.gitDirectory = second.gitDirectory
        try Self.record(state, in: main).finish()
        try FileManager.default.removeItem(atPath: second.gitDirectory)
        let vanished = try #require(
            #expect(throws: ResolveError.self) { try state.requireStartedHere(main, action: "abort") })
        #expect(vanished.description.contains("no longer exists"), "\(vanished)")
        let range = try #require(vanished.description.range(of: "remove its state: "))
        let command = String(vanished.description[range.upperBound...])
        #expect(command.hasPrefix("rm "), "\(command)")
        #expect(try sandbox.run("/bin/sh", ["-c", command]).status == 0)
        #expect(try ResolveState.read(commonDirectory: common) == nil)
    }

    /// `--continue` and `--abort` find the resolution through one check: none under way is "not in progress" with
    /// the command that starts one; one started here is the state on disk; one started in another worktree is
    /// refused naming the action.
    @Test func continueAndAbortFindTheResolutionThroughOneCheck() throws {
        let sandbox = try GitSandbox()
        let (main, second) = try Self.worktrees(sandbox, secondRoot: "second")
        for action in ["continue", "abort"] {
            let none = try #require(
                #expect(throws: ResolveError.self) { try ResolveState.inProgress(in: main, action: action) })
            #expect(none.kind == .notInProgress)
            #expect(none.description.contains("start one with `tenantctl resolve <tenant>`"), "\(none)")
        }
        var state = Self.resolvingT2()
        state.worktree = main.root
        state.gitDirectory = main.gitDirectory
        try Self.record(state, in: main).finish()
        for action in ["continue", "abort"] {
            #expect(try ResolveState.inProgress(in: main, action: action) == state)
            let elsewhere = try #require(
                #expect(throws: ResolveError.self) { try ResolveState.inProgress(in: second, action: action) })
            #expect(elsewhere.kind == .refused)
            #expect(elsewhere.description.contains("cannot \(action) the resolution of t2 here"), "\(elsewhere)")
        }
    }

    /// An abort report with kept branches matches docs/schemas/resolve.schema.json, and its headline does not claim
    /// that every repository is back where it was without saying what was kept.
    @Test func anAbortReportWithKeptBranchesMatchesTheSchema() throws {
        var report = ResolveReport(
            action: "abort", tenant: "t2", branch: "t2",
            repositories: [
                ResolveReport.Repository(
                    repository: "superproject", path: "", branch: "general_dev", status: "restored",
                    to: String(repeating: "b", count: 40))
            ], notes: ["kept feature of Customer (Modules/Customer): 1 commit the resolution did not make (…)"])
        report.kept = [
            ResolveReport.KeptBranch(
                repository: "Customer", path: "Modules/Customer", branch: "feature", commits: ["1a2b3c4 mine"])
        ]
        let schema = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("docs/schemas/resolve.schema.json").path
        #expect(try JSONSchemaCheck(contentsOf: schema).violations(of: try JSONOutput.encode(report)) == [])
        #expect(report.renderTable().contains("back where it was, except 1 branch kept"))
        report.kept = nil
        #expect(!(try JSONOutput.encode(report)).contains("kept\""))
        #expect(report.renderTable().contains("every repository is back where it was\n"))
    }
}
