import Foundation
import TenantKit
import TenantTestSupport
import Testing

/// One journal for every writing command: each run is recorded in the common git directory and listed by `runs`; a
/// run killed half-way stays unfinished, every other writing command refuses naming it (and changes nothing), and
/// the re-run of the same command (or its abort) finishes it, after which the other command works.
@Suite(.tags(.slow), .notInTheFastSet) struct RunJournalTests {
    @Test func everyWritingCommandLeavesAFinishedRunThatRunsLists() throws {
        let sandbox = try GitSandbox()
        let example = try LifecycleExample(sandbox, stage: .afterUpdates)
        _ = try LifecycleModuleTests.invoiceRemote(example)
        let commands: [(words: String, arguments: [String])] = [
            ("switch", ["t2"]), ("pin", []), ("customize", ["t1", "Order"]), ("customize", ["--undo", "t1", "Order"]),
            ("tag", ["M1"]), ("tenant add", ["t5"]), ("tenant remove", ["t5"]),
            ("module add", ["Invoice", "--url", "../Invoice.git"]), ("module remove", ["Invoice"]), ("roll", []),
            ("resolve", ["t1"]),
        ]
        for (words, arguments) in commands {
            let result = example.tenantctl(words.split(separator: " ").map(String.init) + arguments)
            #expect(result.status == 0, "\(words) \(arguments): \(result.stderr)")
        }
        let runs = try sandbox.runs(in: example.workspace)
        for (words, arguments) in commands {
            let matching = runs.filter {
                $0["command"] as? String == words && $0["arguments"] as? [String] == arguments
            }
            #expect(matching.count == 1, "\(words) \(arguments): \(runs)")
            let expected = words == "roll" ? "published" : "finished"
            #expect(matching.first?["state"] as? String == expected, "\(words): \(matching)")
            #expect(matching.first?["worktree"] as? String != nil, "\(words): \(matching)")
        }
        // What changed is recorded: the tenant add's pushes, each published.
        let added = try #require(runs.last(command: "tenant add"))
        let refs = try #require(added["refs"] as? [[String: Any]])
        #expect(
            refs.contains { $0["repository"] as? String == "superproject" && $0["ref"] as? String == "refs/heads/t5" })
        #expect(!refs.isEmpty && refs.allSatisfy { $0["published"] as? Bool == true }, "\(refs)")
        // The text lists every command.
        let text = example.tenantctl(["runs"])
        for words in ["switch t2", "tenant add t5", "module remove Invoice", "resolve t1"] {
            #expect(text.stdout.contains(words), "\(words) missing in\n\(text.stdout)")
        }
        // A dry run writes none.
        let count = runs.count
        #expect(example.tenantctl(["tenant", "add", "t6", "--dry-run"]).status == 0)
        #expect(try sandbox.runs(in: example.workspace).count == count)
    }

    @Test func aKilledTenantAddBlocksOtherCommandsUntilItsRerunFinishesIt() throws {
        let run = try LifecycleKillLab(["tenant", "add", "t4", "--from", "t2"])
        let superprojectPush = try #require(run.pushes(superproject: true).last)
        let copy = try run.killed(at: superprojectPush)
        let sandbox = run.lab.sandbox
        let killed = try sandbox.lastRun("tenant add", in: copy.workspace)
        let runId = try #require(killed["runId"] as? String)
        #expect(killed["state"] as? String == "unfinished", "\(killed)")
        #expect(killed["arguments"] as? [String] == ["t4", "--from", "t2"], "\(killed)")
        let refs = try #require(killed["refs"] as? [[String: Any]])
        #expect(
            refs.contains {
                $0["repository"] as? String == "Infrastructure" && $0["ref"] as? String == "refs/heads/t4"
                    && $0["published"] as? Bool == true
            }, "\(refs)")
        #expect(
            refs.contains { $0["repository"] as? String == "superproject" && $0["published"] == nil }, "\(refs)")

        // Another writing command refuses, naming the run and the re-run that runs as printed; it changes nothing.
        let before = try run.lab.refs(copy.root)
        let refused = sandbox.tenantctl(["tag", "M1"], in: copy.workspace)
        #expect(refused.status == 1, "\(refused.stdout)\(refused.stderr)")
        #expect(refused.stderr.contains(runId), "\(refused.stderr)")
        #expect(refused.stderr.contains("finish it by running it again: tenantctl tenant add t4 --from t2"))
        #expect(try run.lab.refs(copy.root) == before)
        // status (read-only) works and mentions it.
        let status = sandbox.tenantctl(["status"], in: copy.workspace)
        #expect(status.status == 0, "\(status.stderr)")
        #expect(status.stderr.contains("tenantctl tenant add run \(runId) is unfinished"), "\(status.stderr)")

        // The re-run, as printed, finishes it; the journal says so; then the other command works.
        let rerun = sandbox.tenantctl(
            ["tenant", "add", "t4", "--from", "t2"], in: copy.workspace, environment: FaultLab.dates)
        #expect(rerun.status == 0, "\(rerun.stderr)")
        #expect(try run.lab.remoteRefs(copy.root) == run.remotesAfter)
        let after = try sandbox.runs(in: copy.workspace)
        let finished = try #require(after.first { $0["runId"] as? String == runId })
        #expect(finished["state"] as? String == "finished", "\(finished)")
        #expect(finished["finishedBy"] as? String == after.last(command: "tenant add")?["runId"] as? String)
        let tagged = sandbox.tenantctl(["tag", "M1"], in: copy.workspace)
        #expect(tagged.status == 0, "\(tagged.stderr)")
        #expect(!sandbox.tenantctl(["status"], in: copy.workspace).stderr.contains("unfinished"))
    }

    @Test func aKilledSwitchBlocksPinUntilTheSwitchIsRunAgain() throws {
        let lab = try FaultLab()
        let (calls, _, after) = try SwitchSignalFaultTests.reference(lab)
        let copy = try SwitchRunJournalTests.killedSwitch(lab, calls: calls, copy: "killed")
        let run = try lab.sandbox.lastRun("switch", in: copy.workspace)
        #expect(run["state"] as? String == "unfinished", "\(run)")
        #expect(run["arguments"] as? [String] == ["t2"], "\(run)")

        let workingCopy = try lab.workingCopy(copy.root)
        let refused = lab.sandbox.tenantctl(["pin"], in: copy.workspace)
        #expect(refused.status == 1, "\(refused.stdout)\(refused.stderr)")
        #expect(refused.stderr.contains("tenantctl switch t2"), "\(refused.stderr)")
        #expect(try lab.workingCopy(copy.root) == workingCopy)

        let rerun = lab.sandbox.tenantctl(["switch", "t2"], in: copy.workspace)
        #expect(rerun.status == 0, "\(rerun.stderr)")
        #expect(try lab.workingCopy(copy.root) == after)
        // The stopped run was put back by the re-run (aborted, finished by it); the re-run finished.
        let runs = try lab.sandbox.runs(in: copy.workspace)
        let switches = runs.filter { $0["command"] as? String == "switch" }
        let stopped = try #require(switches.first { $0["runId"] as? String == run["runId"] as? String })
        let last = try #require(switches.last)
        #expect(stopped["state"] as? String == "aborted", "\(stopped)")
        #expect(stopped["finishedBy"] as? String == last["runId"] as? String, "\(stopped)")
        #expect(last["state"] as? String == "finished", "\(last)")
        let pinned = lab.sandbox.tenantctl(["pin"], in: copy.workspace)
        #expect(pinned.status == 0, "\(pinned.stderr)")
    }

    @Test func aKilledRollBlocksTenantAddUntilItIsUndone() throws {
        let lab = try FaultLab()
        let (done, calls) = try lab.runShimmed(
            ["roll", "--jobs", "1"], in: try lab.copy("reference"), environment: FaultLab.dates)
        #expect(done.status == 0, "\(done.stderr)")
        let copy = try lab.copy("killed")
        let before = try lab.remoteRefs(copy.root)
        try lab.runKilled(
            ["roll", "--jobs", "1"], in: copy, at: try FaultLab.superprojectPush(in: calls), environment: FaultLab.dates
        )
        let run = try lab.sandbox.lastRun("roll", in: copy.workspace)
        #expect(run["state"] as? String == "unfinished", "\(run)")
        let runId = try #require(run["runId"] as? String)

        let landed = try lab.remoteRefs(copy.root)
        #expect(landed != before)  // positive control: the module pushes landed
        let refused = lab.sandbox.tenantctl(["tenant", "add", "t5"], in: copy.workspace)
        #expect(refused.status == 1, "\(refused.stdout)\(refused.stderr)")
        #expect(refused.stderr.contains("finish it by running it again: tenantctl roll --jobs 1"), "\(refused.stderr)")
        #expect(refused.stderr.contains("or take it back: tenantctl roll --undo \(runId)"), "\(refused.stderr)")
        #expect(try lab.remoteRefs(copy.root) == landed)

        let undone = lab.sandbox.tenantctl(["roll", "--undo", runId], in: copy.workspace, environment: FaultLab.dates)
        #expect(undone.status == 0, "\(undone.stdout)\(undone.stderr)")
        #expect(try lab.remoteRefs(copy.root) == before)
        let added = lab.sandbox.tenantctl(["tenant", "add", "t5"], in: copy.workspace)
        #expect(added.status == 0, "\(added.stderr)")
    }

    @Test func aKilledResolveStartBlocksSwitchUntilItIsAborted() throws {
        let lab = try FaultLab(stage: .conflict)
        let rolled = lab.sandbox.tenantctl(["roll"], in: "\(lab.template)/workspace", environment: FaultLab.dates)
        #expect(rolled.status == 2, "\(rolled.stderr)")
        let (started, calls) = try lab.runShimmed(
            ["resolve", "t2"], in: try lab.copy("reference"), environment: FaultLab.dates)
        #expect(started.status == 2, "\(started.stdout)\(started.stderr)")
        // The first merge: the resolution has started by then.
        let index = try #require(calls.firstIndex { FaultLab.subcommand($0) == "merge" }) + 1
        let copy = try lab.copy("killed")
        let before = try lab.workingCopy(copy.root)
        try lab.runKilled(["resolve", "t2"], in: copy, at: index, environment: FaultLab.dates)
        let run = try lab.sandbox.lastRun("resolve", in: copy.workspace)
        #expect(run["state"] as? String == "unfinished", "\(run)")
        #expect(run["arguments"] as? [String] == ["t2"], "\(run)")
        let runId = try #require(run["runId"] as? String)

        let workingCopy = try lab.workingCopy(copy.root)
        let refused = lab.sandbox.tenantctl(["switch", "t1"], in: copy.workspace)
        #expect(refused.status == 1, "\(refused.stdout)\(refused.stderr)")
        #expect(refused.stderr.contains("finish it by running it again: tenantctl resolve t2"), "\(refused.stderr)")
        #expect(refused.stderr.contains("or take it back: tenantctl resolve --abort"), "\(refused.stderr)")
        #expect(try lab.workingCopy(copy.root) == workingCopy)

        let aborted = lab.sandbox.tenantctl(["resolve", "--abort"], in: copy.workspace)
        #expect(aborted.status == 0, "\(aborted.stderr)")
        #expect(try lab.workingCopy(copy.root) == before)
        let after = try lab.sandbox.runs(in: copy.workspace)
        #expect(after.first { $0["runId"] as? String == runId }?["state"] as? String == "aborted", "\(after)")
        let switched = lab.sandbox.tenantctl(["switch", "t1"], in: copy.workspace)
        #expect(switched.status == 0, "\(switched.stderr)")
    }

    @Test func aKilledPinPushBlocksTagUntilItsRerunFinishesIt() throws {
        let run = try PinConvergenceTests.pinRun()
        let superprojectPush = try #require(run.pushes(superproject: true).last)
        let copy = try run.killed(at: superprojectPush)
        let sandbox = run.lab.sandbox
        let killed = try sandbox.lastRun("pin", in: copy.workspace)
        #expect(killed["state"] as? String == "unfinished", "\(killed)")
        #expect(killed["arguments"] as? [String] == ["--push"], "\(killed)")

        let before = try run.lab.refs(copy.root)
        let refused = sandbox.tenantctl(["tag", "M1"], in: copy.workspace)
        #expect(refused.status == 1, "\(refused.stdout)\(refused.stderr)")
        #expect(refused.stderr.contains("finish it by running it again: tenantctl pin --push"), "\(refused.stderr)")
        #expect(try run.lab.refs(copy.root) == before)

        let rerun = sandbox.tenantctl(["pin", "--push"], in: copy.workspace, environment: FaultLab.dates)
        #expect(rerun.status == 0, "\(rerun.stderr)")
        #expect(try run.lab.remoteRefs(copy.root) == run.remotesAfter)
        let tagged = sandbox.tenantctl(["tag", "M1"], in: copy.workspace)
        #expect(tagged.status == 0, "\(tagged.stderr)")
    }
}
