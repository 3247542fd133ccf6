import Foundation
import TenantKit
import TenantTestSupport
import Testing

/// A killed resolve is taken back from its run's journal alone: `.git/tenantctl/resolve.json` only names the tenant and
/// the run, so with that file gone or damaged `runs --abort <id>` and `resolve --abort` still put back exactly what the
/// run made. `runs --abort <id> --json` of a resolve run prints what every `runs --abort` prints.
@Suite(.tags(.slow), .notInTheFastSet) struct ResolveJournalOnlyTests {
    /// The lab at stage `conflict`, rolled (t2 conflicts), and the index of the git call just after the last merge of
    /// `resolve t2` (a kill there leaves the switch and every merge but the last landed).
    static func lab() throws -> (lab: FaultLab, killAt: Int) {
        let lab = try FaultLab(stage: .conflict)
        let rolled = lab.sandbox.tenantctl(["roll"], in: "\(lab.template)/workspace", environment: FaultLab.dates)
        #expect(rolled.status == 2, "\(rolled.stdout)\(rolled.stderr)")
        let probe = try lab.copy("probe")
        let (started, calls) = try lab.runShimmed(["resolve", "t2"], in: probe, environment: FaultLab.dates)
        #expect(started.status == 2, "\(started.stdout)\(started.stderr)")
        let merge = try #require(calls.lastIndex { FaultLab.subcommand($0) == "merge" }) + 1
        return (lab, merge)
    }

    /// A copy with `resolve t2` killed in it: the copy, the working copy before, and the killed run's id.
    static func killed(_ name: String, _ lab: FaultLab, at index: Int) throws
        -> (copy: FaultLab.Copy, before: [String: [String]], id: String)
    {
        let copy = try lab.copy(name)
        let before = try lab.workingCopy(copy.root)
        try lab.runKilled(["resolve", "t2"], in: copy, at: index, environment: FaultLab.dates)
        let id = try RunWaysOutTests.lastRunId(lab, "resolve", in: copy.workspace)
        #expect(try RunWaysOutTests.state(lab, id, in: copy.workspace) == "unfinished")
        #expect(try lab.workingCopy(copy.root) != before, "the killed run changed nothing")
        return (copy, before, id)
    }

    @Test func aKilledResolveIsTakenBackFromItsJournalWhenResolveJsonIsGoneOrDamaged() throws {
        let (lab, index) = try Self.lab()

        // resolve.json removed: `runs --abort <id>` reads the run's journal.
        let gone = try Self.killed("gone", lab, at: index)
        try FileManager.default.removeItem(atPath: "\(gone.copy.workspace)/.git/tenantctl/resolve.json")
        let aborted = lab.sandbox.tenantctl(
            ["runs", "--abort", gone.id], in: gone.copy.workspace, environment: FaultLab.dates)
        #expect(aborted.status == 0, "\(aborted.stdout)\(aborted.stderr)")
        #expect(try lab.workingCopy(gone.copy.root) == gone.before)
        #expect(try RunWaysOutTests.state(lab, gone.id, in: gone.copy.workspace) == "aborted")

        // resolve.json damaged: `resolve --abort` reads the unfinished run's journal.
        let damaged = try Self.killed("damaged", lab, at: index)
        let state = "\(damaged.copy.workspace)/.git/tenantctl/resolve.json"
        try "{ not json".write(toFile: state, atomically: true, encoding: .utf8)
        let abort = lab.sandbox.tenantctl(
            ["resolve", "--abort"], in: damaged.copy.workspace, environment: FaultLab.dates)
        #expect(abort.status == 0, "\(abort.stdout)\(abort.stderr)")
        #expect(try lab.workingCopy(damaged.copy.root) == damaged.before)
        #expect(!FileManager.default.fileExists(atPath: state))
        #expect(try RunWaysOutTests.state(lab, damaged.id, in: damaged.copy.workspace) == "aborted")
        let again = lab.sandbox.tenantctl(["resolve", "t2"], in: damaged.copy.workspace, environment: FaultLab.dates)
        #expect(again.status == 2, "\(again.stdout)\(again.stderr)")
    }

    @Test func runsAbortOfAResolveRunPrintsTheRunsAbortJSON() throws {
        let (lab, index) = try Self.lab()
        let killed = try Self.killed("json", lab, at: index)
        let aborted = lab.sandbox.tenantctl(
            ["runs", "--abort", killed.id, "--json"], in: killed.copy.workspace, environment: FaultLab.dates)
        #expect(aborted.status == 0, "\(aborted.stdout)\(aborted.stderr)")
        let problems = try OutputConventionTests.schema("runs-abort").violations(of: aborted.stdout)
        #expect(problems.isEmpty, "\(problems)\n\(aborted.stdout)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(aborted.stdout.utf8)) as? [String: Any])
        #expect(object["action"] as? String == "abort" && object["runId"] as? String == killed.id, "\(object)")
        #expect(object["tenant"] == nil, "resolve's report: \(object)")
        // The branches the killed run created or moved are the steps taken back.
        let undone = try #require(object["undone"] as? [[String: Any]])
        #expect(
            undone.contains { $0["ref"] as? String == "refs/heads/t2" && $0["local"] as? Bool == true }, "\(object)")
        #expect(try lab.workingCopy(killed.copy.root) == killed.before)
    }
}
