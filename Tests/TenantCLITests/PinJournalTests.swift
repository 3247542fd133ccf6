import Foundation
import TenantKit
import TenantTestSupport
import Testing

/// pin journals its run like every writing command: the branch and HEAD of the superproject and of each module it
/// pins, recorded before the first change; and a pin killed after its last step is finished by its re-run.
@Suite(.tags(.slow), .notInTheFastSet) struct PinJournalTests {
    /// `pin` (`push`: `pin --push`) from the template on t2 with a new commit in Customer; without --push the commit
    /// is on Customer's remote first (a plain pin never pins an unpushed commit). `roll`: a roll moved t2 first.
    static func pinRun(push: Bool, roll: Bool = false, function: String = #function) throws -> LifecycleKillLab {
        try LifecycleKillLab(
            push ? ["pin", "--push"] : ["pin"],
            setUp: { lab in
                try PinConvergenceTests.commitInCustomer(lab)
                let workspace = lab.template + "/workspace"
                if roll {
                    let rolled = lab.sandbox.tenantctl(["roll"], in: workspace, environment: FaultLab.dates)
                    try #require(rolled.status == 0, "\(rolled.stderr)")
                }
                if !push { try lab.sandbox.git(["push", "-q", "origin", "t2"], in: workspace + "/Modules/Customer") }
            }, function: function)
    }

    /// The unfinished pin run of a workspace.
    static func stoppedRun(_ workspace: String) throws -> RunJournal {
        let runs = try RunJournal.unfinished(gitDirectory: workspace + "/.git").filter { $0.commandName == "pin" }
        try #require(runs.count == 1, "\(runs)")
        return runs[0]
    }

    /// Killed at its first change (the staging of the gitlink; with --push, the first module push), the pin's
    /// journal already holds where the superproject and Customer were.
    @Test(arguments: [false, true])
    func pinRecordsWhereEachRepositoryWasBeforeItsFirstChange(push: Bool) throws {
        let run = try Self.pinRun(push: push)
        let first = try #require(
            run.calls.firstIndex { ["update-index", "push"].contains(FaultLab.subcommand($0)) }, "\(run.calls)")
        let copy = try run.killed(at: first + 1)
        let journal = try Self.stoppedRun(copy.workspace)
        let records = try #require(journal.before)
        let superproject = try #require(records.first { $0.repository == "superproject" }, "\(records)")
        #expect(superproject.branch == "t2")
        #expect(superproject.head == run.workingCopy["superproject"]?[1])
        let customer = try #require(records.first { $0.repository == "Customer" }, "\(records)")
        #expect(customer.branch == "t2")
        #expect(customer.head == run.workingCopy["Customer"]?[1])
        // Only the modules it pins: Infrastructure is at its pin.
        #expect(!records.contains { $0.repository == "Infrastructure" }, "\(records)")
        // An uninterrupted run keeps the same record.
        let reference = run.lab.sandbox.path("reference/workspace/.git")
        let done = try #require(try RunJournal.all(gitDirectory: reference).runs.last { $0.commandName == "pin" })
        #expect(done.before == records)
    }

    /// Killed right after its last step (the last push with --push, the commit of a plain pin, the move of the
    /// local branch onto the remote's tip after a roll), the run stays unfinished and blocks the other commands; its
    /// re-run finishes it: the journal says finished, the end state is the uninterrupted run's, `tag` works again.
    @Test(arguments: [(false, false), (true, false), (false, true), (true, true)])
    func killedAfterItsLastStepTheRerunFinishesIt(push: Bool, roll: Bool) throws {
        let run = try Self.pinRun(push: push, roll: roll)
        let sandbox = run.lab.sandbox
        let writing = ["push", "commit", "reset"]
        let last = try #require(run.calls.lastIndex { writing.contains(FaultLab.subcommand($0)) }, "\(run.calls)")
        var indices = [last + 1]
        if let push = run.pushes(superproject: true).last, push != last + 1 { indices.append(push) }
        for index in indices {
            let label = "killed after call \(index) (\(FaultLab.subcommand(run.calls[index - 1])))"
            let copy = try run.killed(at: index, afterTheCall: true)
            let stopped = try Self.stoppedRun(copy.workspace)
            let blocked = sandbox.tenantctl(["tag", "M1"], in: copy.workspace, environment: FaultLab.dates)
            #expect(blocked.status == 1, "\(label): \(blocked.stdout)\(blocked.stderr)")
            #expect(
                blocked.stderr.contains(
                    "finish it by running it again: tenantctl \(run.arguments.joined(separator: " "))"),
                "\(label): \(blocked.stderr)")

            let rerun = sandbox.tenantctl(run.arguments, in: copy.workspace, environment: FaultLab.dates)
            #expect(rerun.status == 0, "\(label): \(rerun.stderr)")
            #expect(try run.lab.remoteRefs(copy.root) == run.remotesAfter, "\(label)")
            #expect(try run.lab.workingCopy(copy.root) == run.workingCopyAfter, "\(label)")
            let runs = try RunJournal.all(gitDirectory: copy.workspace + "/.git").runs
            let finished = try #require(runs.first { $0.runId == stopped.runId })
            #expect(finished.state == .finished, "\(label): \(finished)")
            #expect(finished.finishedBy == runs.last?.runId, "\(label)")
            #expect(try RunJournal.unfinished(gitDirectory: copy.workspace + "/.git").isEmpty, "\(label)")
            let tagged = sandbox.tenantctl(["tag", "M1"], in: copy.workspace, environment: FaultLab.dates)
            #expect(tagged.status == 0, "\(label): \(tagged.stderr)")
        }
    }
}
