import Foundation
import TenantKit
import TenantTestSupport
import Testing

/// switch keeps what it needs to put a stopped switch back in its run journal (the one journal of every writing
/// command): each repository's branch and HEAD before, where the switch takes it, and whether it had started. The
/// next switch reads that, puts the repositories back and ends the stopped run `aborted`. A `switch-journal.json`
/// an older tenantctl left is put back the same way.
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

    /// An older tenantctl kept the records in `switch-journal.json` (and its run journal recorded no repository):
    /// the next switch puts that switch back (here: a switch back to where the working copy was), removes the file
    /// and ends the stopped run. Positive control: without the file, the branch the stopped switch created stays.
    @Test func aSwitchJournalAnOlderTenantctlLeftIsPutBack() throws {
        let lab = try FaultLab()
        let (calls, before, _) = try SwitchSignalFaultTests.reference(lab)
        let original = try #require(before["superproject"]?[0]).replacingOccurrences(of: "refs/heads/", with: "")
            .trimmingCharacters(in: .whitespacesAndNewlines)
        var states: [Bool: [String: [String]]] = [:]
        for legacy in [true, false] {
            let copy = try Self.killedSwitch(lab, calls: calls, copy: legacy ? "legacy" : "control")
            var run = try Self.stoppedRun(copy.workspace)
            let file = copy.workspace + "/.git/tenantctl/switch-journal.json"
            if legacy { try Self.writeLegacyJournal(run, to: file) }
            run.before = []
            try run.write(gitDirectory: copy.workspace + "/.git")
            if legacy {
                // A dry run says a switch stopped part-way and changes nothing.
                let dry = lab.sandbox.tenantctl(["switch", original, "--dry-run"], in: copy.workspace)
                #expect(dry.status == 1, "\(dry.stdout)\(dry.stderr)")
                #expect(dry.stderr.contains("stopped part-way"), "\(dry.stderr)")
            }
            let back = lab.sandbox.tenantctl(["switch", original], in: copy.workspace)
            #expect(back.status == 0, "\(back.stderr)")
            states[legacy] = try lab.workingCopy(copy.root)
            #expect(!FileManager.default.fileExists(atPath: file))
            let stopped = try RunJournal.read(gitDirectory: copy.workspace + "/.git", runId: run.runId)
            #expect(stopped.state == .aborted, "\(stopped)")
        }
        #expect(states[true] == before)
        #expect(states[false] != before, "the control: nothing put back, the stopped switch's branch stays")
    }

    /// `switch-journal.json` as an older tenantctl wrote it, from a run journal's records.
    static func writeLegacyJournal(_ run: RunJournal, to file: String) throws {
        let repositories = (run.before ?? []).filter { $0.targetBranch != nil }.map { record -> [String: Any] in
            var object: [String: Any] = [
                "repository": record.repository, "path": record.path ?? "", "branch": record.targetBranch ?? "",
                "target": record.target ?? "", "initialises": record.initialises ?? false,
                "started": record.started ?? false,
            ]
            object["branchBefore"] = record.branch
            object["headBefore"] = record.head
            object["branchTipBefore"] = record.targetBranchTip
            object["movedFrom"] = record.movedFrom
            return object
        }
        try #require(repositories.contains { $0["started"] as? Bool == true })
        let data = try JSONSerialization.data(
            withJSONObject: ["schemaVersion": 1, "target": "t2", "repositories": repositories], options: [.sortedKeys])
        try data.write(to: URL(fileURLWithPath: file))
    }
}
