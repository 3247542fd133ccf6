import Foundation
import TenantExample
import TenantKit
import TenantTestSupport
import Testing

/// resolve through the one run journal: each run records every repository's branch and HEAD before it changes
/// anything; `--continue` records its pushes in its own journal (one run, no second record); a run that stopped with
/// an error after part of it was pushed stays unfinished and blocks the other writing commands until its re-run
/// finishes it (one that stopped before anything landed blocks nothing); and each resolve command killed right after
/// its last git call is finished by the next one, which reaches the uninterrupted run's end state.
@Suite(.tags(.slow), .notInTheFastSet) struct ResolveJournalTests {
    /// The journal file of a run, read.
    static func journal(_ workspace: String, runId: String) throws -> RunJournal {
        try RunJournal.read(gitDirectory: "\(workspace)/.git", runId: runId)
    }

    /// Every repository's branch and HEAD as git shows them: the superproject and each module.
    static func heads(_ sandbox: GitSandbox, _ workspace: String) throws -> [RunJournal.Before] {
        var result: [RunJournal.Before] = []
        for (name, path) in [("superproject", workspace)]
            + RollFixture.modules.map({ ($0, "\(workspace)/Modules/\($0)") })
        {
            let symbolic = try sandbox.gitResult(["symbolic-ref", "-q", "--short", "HEAD"], in: path).stdout
                .trimmingCharacters(in: .whitespacesAndNewlines)
            let head = try sandbox.git(["rev-parse", "HEAD"], in: path)
            result.append(RunJournal.Before(repository: name, branch: symbolic.isEmpty ? nil : symbolic, head: head))
        }
        return result
    }

    /// The runs added since `count` runs were listed.
    static func newRuns(_ sandbox: GitSandbox, in workspace: String, since count: Int) throws -> [[String: Any]] {
        Array(try sandbox.runs(in: workspace).dropFirst(count))
    }

    /// `resolve t2`, `--continue` and `--abort` each record the branch and HEAD of every repository as they were
    /// before the run; `--continue` is one run (command resolve) whose refs are its pushes, published, and
    /// `roll --undo` of that run takes the publication back. Before, `--continue` wrote a second, roll-type record
    /// and no run recorded a before-state.
    @Test func everyResolveRunRecordsItsBeforeStateAndContinueIsOneRunWithItsPushes() throws {
        let fixture = try ResolveFixture(wide: false)
        let sandbox = fixture.sandbox
        let workspace = fixture.workspace
        let beforeStart = try Self.heads(sandbox, workspace)
        let runsBefore = try sandbox.runs(in: workspace).count
        let started = fixture.resolve(["t2", "--json"])
        #expect(started.status == 2, "\(started.stdout)\(started.stderr)")
        let start = try #require(try Self.newRuns(sandbox, in: workspace, since: runsBefore).last)
        let startJournal = try Self.journal(workspace, runId: try #require(start["runId"] as? String))
        #expect(startJournal.before == beforeStart, "\(String(describing: startJournal.before))")

        try fixture.resolveFiles(only: [ResolveFixture.resolutions[0].path])
        let beforeContinue = try Self.heads(sandbox, workspace)
        #expect(beforeContinue != beforeStart)
        let runsBeforeContinue = try sandbox.runs(in: workspace).count
        let startReport = try JSONDecoder().decode(ResolveReport.self, from: Data(started.stdout.utf8))
        let remoteBefore = try fixture.remoteTip("Superproject", startReport.branch)
        let continued = fixture.resolve(["--continue", "--json"])
        #expect(continued.status == 0, "\(continued.stdout)\(continued.stderr)")
        let report = try JSONDecoder().decode(ResolveReport.self, from: Data(continued.stdout.utf8))
        let added = try Self.newRuns(sandbox, in: workspace, since: runsBeforeContinue)
        #expect(added.count == 1, "\(added)")
        let run = try #require(added.first)
        #expect(run["command"] as? String == "resolve")
        #expect(run["arguments"] as? [String] == ["--continue"])
        #expect(run["state"] as? String == "finished")
        #expect(run["runId"] as? String == report.runId)
        let refs = try #require(run["refs"] as? [[String: Any]])
        #expect(Set(refs.compactMap { $0["repository"] as? String }) == ["Infrastructure", "superproject"], "\(refs)")
        #expect(refs.contains { $0["ref"] as? String == "refs/heads/\(report.branch)" }, "\(refs)")
        #expect(refs.allSatisfy { $0["published"] as? Bool == true }, "\(refs)")
        let continueJournal = try Self.journal(workspace, runId: try #require(report.runId))
        #expect(continueJournal.before == beforeContinue, "\(String(describing: continueJournal.before))")
        #expect(
            try fixture.remoteTip("Superproject", report.branch)
                == refs.first { $0["repository"] as? String == "superproject" }?["new"] as? String)

        // roll --undo takes the publication back from that one record.
        let undo = sandbox.tenantctl(["roll", "--undo", try #require(report.runId)], in: workspace)
        #expect(undo.status == 0, "\(undo.stdout)\(undo.stderr)")
        #expect(try fixture.remoteTip("Superproject", report.branch) == remoteBefore)
    }

    /// `--abort` records where every repository stood before it put them back.
    @Test func abortRecordsItsBeforeState() throws {
        let fixture = try ResolveFixture(wide: false)
        let sandbox = fixture.sandbox
        let started = fixture.resolve(["t2"])
        #expect(started.status == 2, "\(started.stdout)\(started.stderr)")
        let beforeAbort = try Self.heads(sandbox, fixture.workspace)
        let runsBefore = try sandbox.runs(in: fixture.workspace).count
        let aborted = fixture.resolve(["--abort"])
        #expect(aborted.status == 0, "\(aborted.stdout)\(aborted.stderr)")
        let run = try #require(try Self.newRuns(sandbox, in: fixture.workspace, since: runsBefore).last)
        #expect(run["command"] as? String == "resolve")
        let journal = try Self.journal(fixture.workspace, runId: try #require(run["runId"] as? String))
        #expect(journal.before == beforeAbort, "\(String(describing: journal.before))")
        #expect(try Self.heads(sandbox, fixture.workspace) != beforeAbort, "the abort changed something")
    }

    /// The example at stage `conflict`, rolled, `resolve t2` started and its conflict resolved and staged (the
    /// template); the reference `--continue` through the shim (its git calls and end state), shared with the kill
    /// sweep's.
    struct ContinueLab {
        let lab: ResolveFaultTests.Lab
        let calls: [String]
        let remotesAfter: [String: [String: String]]
        let workingCopyAfter: [String: [String]]

        init(function: String = #function) throws {
            lab = try ResolveFaultTests.Lab(function: function)
            let reference = try ResolveFaultTests.reference(lab, "--continue")
            calls = reference.calls
            remotesAfter = reference.remotes
            workingCopyAfter = reference.workingCopy
        }

        /// 1-based indices of the pushes, modules first, the superproject last.
        var pushes: [Int] { calls.indices.filter { FaultLab.subcommand(calls[$0]) == "push" }.map { $0 + 1 } }
    }

    /// `--continue` whose superproject push fails (git exits 128) or is rejected (a hook on the remote) after the
    /// module's push landed: the run stays unfinished with its error, `tag` refuses naming its re-run and
    /// `resolve --abort`, and the re-run publishes the rest and reaches the uninterrupted end state; then `tag` runs.
    /// Positive control: the module's push fails, nothing landed, the run ends failed and blocks nothing. Before,
    /// the half-published run ended failed (or finished, when rejected) and blocked nothing.
    @Test(arguments: ["failed", "rejected"])
    func aContinueStoppedAfterAPushLandedBlocksUntilItsReRunFinishesIt(_ how: String) throws {
        let run = try ContinueLab()
        let sandbox = run.lab.lab.sandbox
        let pushes = run.pushes
        try #require(pushes.count == 2, "\(run.calls)")
        let copy = try run.lab.copy("half-\(how)")
        let hook = "\(copy.remotes)/Superproject.git/hooks/pre-receive"
        var environment = FaultLab.dates
        if how == "failed" {
            environment.merge(["SHIM_FAIL_AT": "\(pushes[1])", "SHIM_FAIL_STATUS": "128"]) { $1 }
        } else {
            try "#!/bin/sh\necho 'refused by the test hook' >&2\nexit 1\n".write(
                toFile: hook, atomically: true, encoding: .utf8)
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: hook)
        }
        let shim = try GitShim(in: sandbox, name: "shim-\(how)")
        let stopped = sandbox.tenantctl(
            ["resolve", "--continue", "--git", shim.path], in: copy.workspace, environment: environment)
        #expect(stopped.status == 1, "\(stopped.stdout)\(stopped.stderr)")
        #expect(try run.lab.lab.remoteRefs(copy.root) != run.remotesAfter)
        let last = try #require(try sandbox.runs(in: copy.workspace).last)
        #expect(last["command"] as? String == "resolve")
        #expect(last["state"] as? String == "unfinished", "\(last)")
        #expect(last["error"] as? String != nil, "\(last)")

        let blocked = sandbox.tenantctl(["tag", "M1"], in: copy.workspace, environment: FaultLab.dates)
        #expect(blocked.status == 1, "\(blocked.stdout)\(blocked.stderr)")
        #expect(
            blocked.stderr.contains("finish it by running it again: tenantctl resolve --continue"), "\(blocked.stderr)")
        #expect(blocked.stderr.contains("or take it back: tenantctl resolve --abort"), "\(blocked.stderr)")
        #expect(blocked.stderr.contains("it stopped with an error"), "\(blocked.stderr)")

        if how == "rejected" { try FileManager.default.removeItem(atPath: hook) }
        let rerun = sandbox.tenantctl(["resolve", "--continue"], in: copy.workspace, environment: FaultLab.dates)
        #expect(rerun.status == 0, "\(rerun.stdout)\(rerun.stderr)")
        #expect(try run.lab.lab.remoteRefs(copy.root) == run.remotesAfter)
        #expect(try run.lab.lab.workingCopy(copy.root) == run.workingCopyAfter)
        let runs = try sandbox.runs(in: copy.workspace)
        #expect(!runs.contains { $0["state"] as? String == "unfinished" }, "\(runs)")
        let tagged = sandbox.tenantctl(["tag", "M1"], in: copy.workspace, environment: FaultLab.dates)
        #expect(tagged.status == 0, "\(tagged.stderr)")

        // Positive control: the first (module) push fails; nothing landed, nothing blocks.
        let early = try run.lab.copy("early-\(how)")
        let earlyShim = try GitShim(in: sandbox, name: "shim-early-\(how)")
        let failed = sandbox.tenantctl(
            ["resolve", "--continue", "--git", earlyShim.path], in: early.workspace,
            environment: FaultLab.dates.merging(["SHIM_FAIL_AT": "\(pushes[0])", "SHIM_FAIL_STATUS": "128"]) { $1 })
        #expect(failed.status == 1, "\(failed.stdout)\(failed.stderr)")
        let earlyRun = try #require(try sandbox.runs(in: early.workspace).last)
        #expect(earlyRun["state"] as? String == "failed", "\(earlyRun)")
        let notBlocked = sandbox.tenantctl(["tag", "M1"], in: early.workspace, environment: FaultLab.dates)
        #expect(notBlocked.status == 0, "\(notBlocked.stdout)\(notBlocked.stderr)")
    }

    /// A lifecycle command (`tenant add`) killed after its module pushes landed stays unfinished: `tag` refuses
    /// naming its re-run, which finishes it. One whose superproject push fails takes its module pushes back (each
    /// deletion a step of its journal): it ends failed and blocks nothing. Positive control: failing at its first
    /// push, nothing landed and nothing blocks.
    @Test func aLifecycleCommandStoppedAfterAPushLandedBlocksUntilItsReRunFinishesIt() throws {
        let run = try LifecycleKillLab(["tenant", "add", "t4", "--from", "t2"])
        let sandbox = run.lab.sandbox
        let modulePushes = run.pushes(superproject: false)
        let superprojectPush = try #require(run.pushes(superproject: true).last)
        let firstPush = try #require(modulePushes.first, "\(run.calls)")
        #expect(firstPush < superprojectPush)

        let copy = try run.killed(at: superprojectPush)
        let blocked = sandbox.tenantctl(["tag", "M1"], in: copy.workspace, environment: FaultLab.dates)
        #expect(blocked.status == 1, "\(blocked.stdout)\(blocked.stderr)")
        #expect(
            blocked.stderr.contains("finish it by running it again: tenantctl tenant add t4 --from t2"),
            "\(blocked.stderr)")
        let rerun = sandbox.tenantctl(run.arguments, in: copy.workspace, environment: FaultLab.dates)
        #expect(rerun.status == 0, "\(rerun.stderr)")
        #expect(try run.lab.remoteRefs(copy.root) == run.remotesAfter)
        let tagged = sandbox.tenantctl(["tag", "M1"], in: copy.workspace, environment: FaultLab.dates)
        #expect(tagged.status == 0, "\(tagged.stderr)")

        let compensated = try run.failed(at: superprojectPush).copy
        let failedRun = try #require(try sandbox.runs(in: compensated.workspace).last)
        #expect(failedRun["state"] as? String == "failed", "\(failedRun)")
        #expect(try run.lab.remoteRefs(compensated.root) == run.before.filter { $0.key.hasPrefix("remote/") })
        let free = sandbox.tenantctl(["tag", "M1"], in: compensated.workspace, environment: FaultLab.dates)
        #expect(free.status == 0, "\(free.stdout)\(free.stderr)")

        // Positive control: nothing landed.
        let early = try run.failed(at: firstPush).copy
        let runs = try sandbox.runs(in: early.workspace)
        #expect(runs.last?["state"] as? String == "failed", "\(runs)")
        let notBlocked = sandbox.tenantctl(["tag", "M1"], in: early.workspace, environment: FaultLab.dates)
        #expect(notBlocked.status == 0, "\(notBlocked.stdout)\(notBlocked.stderr)")
    }

    /// `resolve t2` killed right after its last git call: its re-run puts back what it did and starts again, ending
    /// where an uninterrupted start ends, and finishes its journal. Before, the re-run refused ("in progress") and
    /// `--continue` refused too: only `--abort` got out.
    @Test func startKilledAfterItsLastGitCallIsFinishedByItsReRun() throws {
        let lab = try ResolveFaultTests.rolledLab()
        let reference = try lab.copy("reference")
        let (started, calls) = try lab.runShimmed(["resolve", "t2"], in: reference, environment: FaultLab.dates)
        #expect(started.status == 2, "\(started.stdout)\(started.stderr)")
        let after = try lab.workingCopy(reference.root)

        let copy = try lab.copy("killed")
        try lab.runKilled(
            ["resolve", "t2"], in: copy, at: calls.count, afterTheCall: true, environment: FaultLab.dates)
        let blocked = lab.sandbox.tenantctl(["tag", "M1"], in: copy.workspace, environment: FaultLab.dates)
        #expect(blocked.status == 1, "\(blocked.stderr)")

        let rerun = lab.sandbox.tenantctl(["resolve", "t2"], in: copy.workspace, environment: FaultLab.dates)
        #expect(rerun.status == 2, "\(rerun.stdout)\(rerun.stderr)")
        #expect(try lab.workingCopy(copy.root) == after)
        let runs = try lab.sandbox.runs(in: copy.workspace)
        #expect(!runs.contains { $0["state"] as? String == "unfinished" }, "\(runs)")
        // Positive control: a second start of the same tenant, not stopped, is still refused.
        let again = lab.sandbox.tenantctl(["resolve", "t2"], in: copy.workspace, environment: FaultLab.dates)
        #expect(again.status == 1, "\(again.stdout)\(again.stderr)")
        #expect(again.stderr.contains("in progress"), "\(again.stderr)")
    }

    /// `--continue` and `--abort` killed right after their last git call: the re-run finishes the journal and ends
    /// where the uninterrupted run ends (remotes, working copy, no resolve state, no unfinished run).
    @Test(arguments: ["--continue", "--abort"])
    func continueOrAbortKilledAfterItsLastGitCallIsFinishedByItsReRun(_ action: String) throws {
        let lab = try ResolveFaultTests.Lab()
        let reference = try ResolveFaultTests.reference(lab, action)
        let (calls, remotes, workingCopy) = (reference.calls, reference.remotes, reference.workingCopy)

        let copy = try lab.copy("killed")
        try lab.lab.runKilled(
            ["resolve", action], in: copy, at: calls.count, afterTheCall: true, environment: FaultLab.dates)
        let stopped = try #require(try lab.lab.sandbox.runs(in: copy.workspace).last)
        #expect(stopped["state"] as? String == "unfinished", "\(stopped)")

        let rerun = lab.lab.sandbox.tenantctl(["resolve", action], in: copy.workspace, environment: FaultLab.dates)
        #expect(rerun.status == 0, "\(rerun.stdout)\(rerun.stderr)")
        #expect(try lab.lab.remoteRefs(copy.root) == remotes)
        #expect(try lab.lab.workingCopy(copy.root) == workingCopy)
        #expect(!FileManager.default.fileExists(atPath: "\(copy.workspace)/.git/tenantctl/resolve.json"))
        let runs = try lab.lab.sandbox.runs(in: copy.workspace)
        #expect(!runs.contains { $0["state"] as? String == "unfinished" }, "\(runs)")
        let finished = runs.first { $0["runId"] as? String == stopped["runId"] as? String }
        #expect(finished?["finishedBy"] as? String != nil, "\(String(describing: finished))")
    }
}

/// resolve on a tenant whose branch moved a module itself (its own `.gitmodules` and gitlink): like roll, the
/// gitlink stays where the tenant's `.gitmodules` puts it.
@Suite struct ResolveMovedModuleTests {
    /// customer/x moves `other` to `plugins/other` (git mv: its .gitmodules and gitlink) and rewords README, master
    /// rewords README too: roll leaves customer-x conflicted; `resolve customer-x`, the README resolved, and
    /// `--continue` keep the gitlink where customer/x's `.gitmodules` puts it, as roll does for a clean merge
    /// (`PublishedSuperprojectTests.aModuleATenantBranchMovedItselfStaysWhereItsGitmodulesPutsIt`).
    @Test func aModuleATenantBranchMovedItselfStaysWhereItsGitmodulesPutsIt() throws {
        let sandbox = try GitSandbox()
        let app = try PublishedSuperproject(sandbox: sandbox)
        try app.moveOtherOnCustomerX(readme: "app x\n")
        try FileManager.default.removeItem(atPath: app.work + "/plugins/other")
        try app.adopt()
        try sandbox.write("app/README", "app master\n")
        try sandbox.git(["add", "README"], in: app.work)
        try sandbox.git(["commit", "-q", "-m", "master rewords README"], in: app.work)
        try sandbox.git(["push", "-q", "origin", "master"], in: app.work)
        let roll = sandbox.tenantctl(["roll"], in: app.work)
        #expect(roll.status == 2, "\(roll.stdout)\(roll.stderr)")
        #expect(roll.stdout.contains("tenantctl resolve customer-x"), "\(roll.stdout)")

        let started = sandbox.tenantctl(["resolve", "customer-x"], in: app.work)
        #expect(started.status == 2, "\(started.stdout)\(started.stderr)")
        try sandbox.write("app/README", "app x master\n")
        try sandbox.git(["add", "README"], in: app.work)
        let continued = sandbox.tenantctl(["resolve", "--continue"], in: app.work)
        #expect(continued.status == 0, "\(continued.stdout)\(continued.stderr)")
        let links = try sandbox.gitlinks(on: "customer/x", in: "\(app.remotes)/App.git")
        #expect(links["plugins/other"] == (try app.tip("other")), "\(links)")
        #expect(links["deps/other/src"] == nil, "\(links)")
        #expect(links[PublishedSuperproject.newPath] == (try app.tip("libdshowcapture")), "\(links)")
        let paths = try sandbox.git(
            ["config", "--blob", "customer/x:.gitmodules", "--get-regexp", "^submodule\\..*\\.path$"],
            in: "\(app.remotes)/App.git")
        #expect(paths.contains("plugins/other"), "\(paths)")
        #expect(!paths.contains(".path deps/other/src"), "\(paths)")
        #expect(try sandbox.git(["show", "customer/x:README"], in: "\(app.remotes)/App.git") == "app x master")
    }
}
