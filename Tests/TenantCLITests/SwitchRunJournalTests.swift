import Foundation
import TenantKit
import TenantTestSupport
import Testing

/// switch keeps what it needs to put a stopped switch back in its run journal (the one journal of every writing
/// command): each repository's branch and HEAD before, where the switch takes it, and whether it had started. The
/// next switch reads that, puts the repositories back and ends the stopped run `aborted`.
@Suite(.tags(.slow), .notInTheFastSet) struct SwitchRunJournalTests {
    /// A copy in which `switch t2` was killed at its first module checkout (the superproject has moved by then).
    static func killedSwitch(
        _ lab: FaultLab, calls: [String], copy name: String, sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> FaultLab.Copy {
        let copy = try lab.copy(name)
        try lab.runKilled(
            ["switch", "t2"], in: copy, at: try FaultLab.firstModuleCheckout(in: calls), sourceLocation: sourceLocation)
        return copy
    }

    /// The unfinished switch run of a workspace.
    static func stoppedRun(_ workspace: String) throws -> RunJournal {
        let runs = try RunJournal.unfinished(gitDirectory: workspace + "/.git").filter { $0.commandName == "switch" }
        try #require(runs.count == 1, "\(runs)")
        return runs[0]
    }

    @Test func aKilledSwitchRecordsEveryRepositoryInItsRunJournalAndTheNextSwitchPutsItBack() throws {
        let lab = try FaultLab()
        let (calls, before, after) = try SwitchSignalFaultTests.reference(lab)
        let copy = try Self.killedSwitch(lab, calls: calls, copy: "killed")
        #expect(!FileManager.default.fileExists(atPath: copy.workspace + "/.git/tenantctl/switch-journal.json"))
        let run = try Self.stoppedRun(copy.workspace)
        let records = try #require(run.before)
        // The superproject: where it was, where the switch takes it, started.
        let superproject = try #require(records.first, "\(records)")
        #expect(superproject.repository == "superproject")
        #expect(superproject.path == "")
        #expect(superproject.head == before["superproject"]?[1], "\(superproject)")
        #expect(superproject.targetBranch == "t2", "\(superproject)")
        #expect(superproject.target == after["superproject"]?[1], "\(superproject)")
        #expect(superproject.started == true, "\(superproject)")
        // Every module of the working copy is recorded with its branch and HEAD before.
        for module in FaultLab.modules {
            let record = try #require(records.first { $0.repository == module }, "\(module): \(records)")
            #expect(record.head == before[module]?[1], "\(module): \(record)")
            #expect(record.path == "Modules/\(module)", "\(module): \(record)")
        }
        // It was killed in a module: that module had started, and so had the superproject.
        let started = records.filter { $0.started == true }.map(\.repository)
        #expect(started.count >= 2 && started.first == "superproject", "\(records)")

        let rerun = lab.sandbox.tenantctl(["switch", "t2"], in: copy.workspace)
        #expect(rerun.status == 0, "\(rerun.stderr)")
        #expect(try lab.workingCopy(copy.root) == after)
        let stopped = try RunJournal.read(gitDirectory: copy.workspace + "/.git", runId: run.runId)
        #expect(stopped.state == .aborted, "\(stopped)")
        let all = try RunJournal.all(gitDirectory: copy.workspace + "/.git").runs
        let last = try #require(all.last)
        #expect(stopped.finishedBy == last.runId)
        #expect(last.state == .finished)
        #expect(last.before?.first?.head == superproject.head, "the re-run records where it found the superproject")
    }
}
