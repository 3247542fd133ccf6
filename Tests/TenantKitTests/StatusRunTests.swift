import Foundation
import TenantExample
import TenantKit
import TenantTestSupport
import Testing

/// `StatusRun`, status's one entry point below the command line, on the example's real repositories: the report with
/// its resolution, the unfinished runs as warnings with their ways out, and a journal it cannot read reported, not
/// thrown.
@Suite(.tags(.slow), .notInTheFastSet) struct StatusRunTests {
    static func example(_ sandbox: GitSandbox) throws -> (workspace: Workspace, git: Git) {
        let git = try sandbox.gitRunner()
        let example = try sandbox.exampleCopy(in: sandbox.path("erp"), stage: .beforeUpdates)
        return (try Workspace.locate(from: example.workspace, git: git), git)
    }

    @Test func theReportWithItsResolutionAndTheUnfinishedRunsWithTheirWaysOut() throws {
        let sandbox = try GitSandbox()
        let (workspace, _) = try Self.example(sandbox)
        var expected = try StatusReport.inspect(workspace: workspace)
        expected.resolution = try ResolutionStatus.inspect(workspace: workspace)
        let clean = try StatusRun.run(workspace: workspace)
        #expect(clean.report == expected)
        #expect(clean.report.modules.map(\.module) == ["Infrastructure", "Article", "Customer", "Order"])
        #expect(clean.warnings.isEmpty, "\(clean.warnings)")

        // A resolve stopped half-way (its journal still says running): named, with its re-run and its abort.
        let stopped = try Transaction.begin(workspace, command: "resolve", arguments: ["t2"])
        // Past its first change: a run stopped before it blocks nothing and is not mentioned.
        #expect(try StatusRun.run(workspace: workspace).warnings.isEmpty)
        try stopped.recordBefore([RunJournal.Before(repository: "superproject", branch: "t2", head: nil)])
        let warned = try StatusRun.run(workspace: workspace)
        #expect(warned.report == expected, "status changes nothing and reports the same")
        #expect(warned.warnings.count == 1, "\(warned.warnings)")
        let warning = try #require(warned.warnings.first)
        #expect(
            warning.hasPrefix("tenantctl resolve run \(stopped.runId) is unfinished; finish it: tenantctl resolve t2"),
            "\(warning)")
        #expect(warning.hasSuffix(", or take it back: tenantctl resolve --abort"), "\(warning)")

        // Finished, it is no longer mentioned.
        try stopped.finish()
        #expect(try StatusRun.run(workspace: workspace).warnings.isEmpty)
    }

    @Test func aResolutionUnderWayIsInTheReport() throws {
        let sandbox = try GitSandbox()
        let git = try sandbox.gitRunner()
        let example = try sandbox.exampleCopy(in: sandbox.path("erp"), stage: .conflict)
        let workspace = try Workspace.locate(from: example.workspace, git: git)
        // The roll that leaves t2 conflicted; no resolution yet (the positive control).
        _ = try RollRunner(workspace: workspace).run(RollOptions())
        #expect(try StatusRun.run(workspace: workspace).report.resolution == nil)

        let started = try ResolveRun(action: .start(tenant: "t2"), arguments: ["t2"]).run(
            workspace: workspace, console: nil)
        #expect(started.hasConflicts, "\(started)")
        let status = try StatusRun.run(workspace: workspace)
        let resolution = try #require(status.report.resolution, "a resolution under way is reported")
        #expect(resolution.tenant == "t2")
        #expect(!resolution.repositories.flatMap(\.unmerged).isEmpty, "\(resolution)")
        #expect(resolution == (try ResolutionStatus.inspect(workspace: workspace)))
        #expect(status.warnings.isEmpty, "the start's run finished: \(status.warnings)")
    }

    @Test func aJournalItCannotReadIsAWarningNamingTheFileNotAnError() throws {
        let sandbox = try GitSandbox()
        let (workspace, _) = try Self.example(sandbox)
        let directory = RunJournal.directory(gitDirectory: workspace.commonDirectory)
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let path = directory + "/20990101-000000-broken.json"
        try Data(#"{"state" : "running", "#.utf8).write(to: URL(fileURLWithPath: path))
        // Positive control: the journals' own reader fails on it, naming it.
        let error = #expect(throws: (any Error).self) {
            try RunJournal.unfinished(gitDirectory: workspace.commonDirectory)
        }
        #expect(String(describing: error).contains(path))

        let status = try StatusRun.run(workspace: workspace)
        var expected = try StatusReport.inspect(workspace: workspace)
        expected.resolution = try ResolutionStatus.inspect(workspace: workspace)
        #expect(status.report == expected, "the report is whole despite the journal")
        #expect(status.report.modules.count == 4)
        #expect(status.warnings.count == 1, "\(status.warnings)")
        #expect(status.warnings.first?.contains("cannot read the run journal \(path)") == true, "\(status.warnings)")
    }
}
