import Foundation
import TenantKit
import TenantTestSupport
import Testing

/// A lifecycle command run once uninterrupted (the reference: its git calls and the end state), and copies of the
/// same example killed (SIGKILL, through the `GitShim`) at a chosen git call.
struct LifecycleKillLab {
    let lab: FaultLab
    let arguments: [String]
    let before: [String: [String: String]]
    let after: [String: [String: String]]
    let workingCopy: [String: [String]]
    let calls: [String]

    /// Builds the example, runs `setUp` and then `prepare` in the template's workspace (every copy starts from
    /// there), then the reference run. The prepared template and the reference run are made once per test process
    /// (``FaultLab/prepared(_:stage:function:prepare:)``) and shared by every lab of the same arguments, `prepare`,
    /// `environment` and set-up: `setUpKey` names the set-up, so labs with the same `setUp` share by naming it the
    /// same; a `setUp` without a key is never shared.
    init(
        _ arguments: [String], prepare: [[String]] = [], environment: [String: String] = FaultLab.dates,
        setUp: ((FaultLab) throws -> Void)? = nil, setUpKey: String? = nil, function: String = #function
    ) throws {
        let settings = environment.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: ",")
        let key = [
            "lifecycle", setUpKey ?? (setUp == nil ? "" : "unshared \(UUID().uuidString)"), settings,
            prepare.map { $0.joined(separator: " ") }.joined(separator: ";"),
        ].joined(separator: "|")
        lab = try FaultLab.prepared(key, function: function) { lab in
            try setUp?(lab)
            for command in prepare {
                let run = lab.sandbox.tenantctl(command, in: lab.template + "/workspace", environment: environment)
                try #require(run.status == 0, "\(command): \(run.stderr)")
            }
            return true
        }.lab
        self.arguments = arguments
        let reference = try lab.shared(key + "|" + arguments.joined(separator: " ")) { lab in
            let reference = try lab.copy("reference")
            let before = try lab.refs(reference.root)
            let workingCopy = try lab.workingCopy(reference.root)
            let (result, calls) = try lab.runShimmed(arguments, in: reference, environment: environment)
            try #require(result.status == 0, "\(result.stderr)")
            return Reference(
                before: before, after: try lab.refs(reference.root), workingCopy: workingCopy,
                workingCopyAfter: try lab.workingCopy(reference.root), calls: calls)
        }
        before = reference.before
        after = reference.after
        workingCopy = reference.workingCopy
        workingCopyAfter = reference.workingCopyAfter
        calls = reference.calls
    }

    /// What the uninterrupted run of a lab saw.
    struct Reference: Sendable {
        var before: [String: [String: String]]
        var after: [String: [String: String]]
        var workingCopy: [String: [String]]
        var workingCopyAfter: [String: [String]]
        var calls: [String]
    }

    /// The working copy after the uninterrupted run.
    let workingCopyAfter: [String: [String]]

    /// The remotes' refs after the uninterrupted run.
    var remotesAfter: [String: [String: String]] { after.filter { $0.key.hasPrefix("remote/") } }

    /// 1-based indices of the pushes: `superproject` true for the pushes to `origin`, false for the module pushes.
    func pushes(superproject: Bool) -> [Int] {
        calls.indices.filter {
            FaultLab.subcommand(calls[$0]) == "push" && calls[$0].contains(" -- origin ") == superproject
        }.map { $0 + 1 }
    }

    /// A fresh copy in which the command was killed at git call `index` (before it runs; with `afterTheCall`, once
    /// it has run: a push that landed).
    func killed(
        at index: Int, afterTheCall: Bool = false, copy name: String? = nil,
        environment: [String: String] = FaultLab.dates
    ) throws -> FaultLab.Copy {
        let copy = try lab.copy(name ?? "kill-\(afterTheCall ? "after-" : "")\(index)")
        try lab.runKilled(
            arguments, in: copy, at: index, afterTheCall: afterTheCall, environment: environment,
            label: "call \(index)")
        return copy
    }

    /// A fresh copy in which git call `index` of the command failed, and that run's result; the command exits 1
    /// naming the failure.
    func failed(at index: Int, environment: [String: String] = FaultLab.dates) throws -> (
        copy: FaultLab.Copy, result: CLIResult
    ) {
        let copy = try lab.copy("fail-\(index)")
        let shim = try GitShim(in: lab.sandbox, name: "shim-fail-\(index)")
        let failed = lab.sandbox.tenantctl(
            arguments + ["--git", shim.path], in: copy.workspace,
            environment: environment.merging(["SHIM_FAIL_AT": "\(index)", "SHIM_FAIL_STATUS": "128"]) { $1 })
        // A failure in the module checkouts' copy of the remote, after every push landed, is a warning: the run
        // finished, and says that `tenantctl status --fetch` shows the remote afresh.
        let finishedWithWarning = failed.status == 0 && failed.stderr.contains("tenantctl status --fetch")
        #expect(failed.status == 1 || finishedWithWarning, "call \(index): \(failed.status) \(failed.stderr)")
        #expect(failed.stderr.contains("injected failure"), "call \(index): \(failed.stderr)")
        return (copy, failed)
    }

    /// Kills the command at every sampled git call (`FaultLab.indices`); after each: refs old or new everywhere, the
    /// working copy as before, no lock left, and the re-run (same arguments) reaches the uninterrupted end state.
    /// Returns the calls whose re-run did not converge.
    /// A command that changes the working copy (`pin`) is checked after its re-run only: there, the working copy
    /// must equal the uninterrupted run's (`workingCopyAfter`). `alsoFirst`: the sample also takes the first call of
    /// these subcommands (``FaultLab/indices(for:alsoFirst:)``).
    /// `failing`: instead of a kill, git call `index` fails (status 128, git's fatal error); the run must say so. The
    /// failure sample is smaller than the kill sample: one call of each kind (``FaultLab/failureIndices(for:alsoFirst:)``).
    /// `shard`: only that share of the kill points (a sweep split into test cases, `SweepShard`).
    func sweep(
        environment: [String: String] = FaultLab.dates, alsoFirst: Set<String> = [], failing: Bool = false,
        shard: SweepShard = SweepShard(index: 0, count: 1)
    ) throws -> [String] {
        var unconverged: [String] = []
        let sample =
            failing
            ? FaultLab.failureIndices(for: calls, alsoFirst: alsoFirst)
            : FaultLab.indices(for: calls, alsoFirst: alsoFirst)
        let indices = shard.take(sample)
        for index in indices {
            var finishedWithWarning = false
            let copy: FaultLab.Copy
            if failing {
                let run = try failed(at: index, environment: environment)
                copy = run.copy
                finishedWithWarning = run.result.status == 0
            } else {
                copy = try killed(at: index, environment: environment)
            }
            let label = "\(failing ? "failure" : "SIGKILL") at call \(index) (\(FaultLab.subcommand(calls[index - 1])))"
            let bad = FaultLab.refsNeitherOldNorNew(now: try lab.refs(copy.root), old: before, new: after)
            #expect(bad.isEmpty, "\(label): \(bad)")
            if workingCopy == workingCopyAfter {
                #expect(try lab.workingCopy(copy.root) == workingCopy, "\(label): the working copy changed")
            }
            #expect(lab.staleLocks(copy.root).isEmpty, "\(label): \(lab.staleLocks(copy.root))")
            if finishedWithWarning {
                // Every push had landed: the run is finished, nothing to re-run.
                #expect(try lab.remoteRefs(copy.root) == remotesAfter, "\(label): the remotes are not the run's end")
                continue
            }
            let rerun = lab.sandbox.tenantctl(arguments, in: copy.workspace, environment: environment)
            let remotes = try lab.remoteRefs(copy.root)
            let local = try lab.workingCopy(copy.root)
            if rerun.status != 0 || remotes != remotesAfter || local != workingCopyAfter {
                unconverged.append("\(label): re-run exit \(rerun.status): \(rerun.stderr)")
            }
        }
        print(
            "\(arguments.joined(separator: " ")) \(failing ? "failure" : "kill") sweep, \(shard.testDescription): \(indices.count) of \(calls.count)"
        )
        return unconverged
    }
}

/// Lifecycle commands stopped between their pushes: the re-run of the same command finishes, and `verify` reports
/// the module branches they leave meanwhile, with a command that finishes the job as printed.
@Suite(.tags(.slow), .notInTheFastSet) struct LifecycleConvergenceTests {
    @Test func tenantAddKilledBeforeTheSuperprojectPushFinishesOnReRun() throws {
        let run = try LifecycleKillLab(["tenant", "add", "t4", "--from", "t2"])
        let modulePushes = run.pushes(superproject: false)
        let superprojectPush = try #require(run.pushes(superproject: true).last)
        #expect(modulePushes.count == 2 && modulePushes.allSatisfy { $0 < superprojectPush })
        let copy = try run.killed(at: superprojectPush)
        let remotes = try run.lab.remoteRefs(copy.root)
        #expect(remotes["remote/Infrastructure"]?["refs/heads/t4"] != nil)
        #expect(remotes["remote/Superproject"]?["refs/heads/t4"] == nil)
        let rerun = run.lab.sandbox.tenantctl(run.arguments, in: copy.workspace, environment: FaultLab.dates)
        #expect(rerun.status == 0, "\(rerun.stderr)")
        #expect(try run.lab.remoteRefs(copy.root) == run.remotesAfter)
        // Positive control: a module branch t4 somewhere else than the source's pin is still refused.
        let other = try run.lab.copy("other")
        try run.lab.sandbox.git(["branch", "t4", "general_dev"], in: other.remotes + "/Infrastructure.git")
        let refused = run.lab.sandbox.tenantctl(run.arguments, in: other.workspace, environment: FaultLab.dates)
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("module Infrastructure already has a branch t4"), "\(refused.stderr)")
    }

    @Test func tenantRemoveKilledBeforeTheModuleDeletionsFinishesOnReRunAndVerifyReportsTheOrphans() throws {
        let run = try LifecycleKillLab(["tenant", "remove", "t2", "--archive"])
        let superprojectPush = try #require(run.pushes(superproject: true).last)
        let deletions = run.pushes(superproject: false).filter { $0 > superprojectPush }
        #expect(deletions.count == 2)
        let copy = try run.killed(at: try #require(deletions.first))
        #expect(try run.lab.remoteRefs(copy.root)["remote/Infrastructure"]?["refs/heads/t2"] != nil)
        let verify = run.lab.sandbox.tenantctl(["verify"], in: copy.workspace)
        #expect(verify.status == 2, "\(verify.stdout)\(verify.stderr)")
        for module in ["Infrastructure", "Customer"] {
            #expect(
                verify.stdout.contains("module \(module)'s remote has a branch t2 of the removed tenant t2"),
                "\(verify.stdout)")
        }
        #expect(verify.stdout.contains("finish the removal: tenantctl tenant remove t2 --archive"), "\(verify.stdout)")
        let audit = run.lab.sandbox.tenantctl(["audit"], in: copy.workspace)
        #expect(audit.stdout.contains("branch t2 of the removed tenant t2"), "\(audit.stdout)\(audit.stderr)")
        let rerun = run.lab.sandbox.tenantctl(run.arguments, in: copy.workspace, environment: FaultLab.dates)
        #expect(rerun.status == 0, "\(rerun.stderr)")
        #expect(try run.lab.remoteRefs(copy.root) == run.remotesAfter)
        let clean = run.lab.sandbox.tenantctl(["verify"], in: copy.workspace)
        #expect(!clean.stdout.contains("orphan"), "\(clean.stdout)")
        // Positive control: a name that never was a tenant is still unknown.
        let unknown = run.lab.sandbox.tenantctl(["tenant", "remove", "t9"], in: copy.workspace)
        #expect(unknown.status == 64, "\(unknown.stderr)")
    }

    @Test func undoKilledBeforeTheBranchDeletionFinishesOnReRunAndVerifyReportsTheOrphan() throws {
        let run = try LifecycleKillLab(
            ["customize", "--undo", "t1", "Article"], prepare: [["customize", "t1", "Article"]])
        let superprojectPush = try #require(run.pushes(superproject: true).last)
        let deletion = try #require(run.pushes(superproject: false).last)
        #expect(deletion > superprojectPush)
        let copy = try run.killed(at: deletion)
        #expect(try run.lab.remoteRefs(copy.root)["remote/Article"]?["refs/heads/t1"] != nil)
        let verify = run.lab.sandbox.tenantctl(["verify"], in: copy.workspace)
        #expect(verify.status == 2, "\(verify.stdout)\(verify.stderr)")
        let fix = "tenantctl customize --undo t1 Article"
        #expect(
            verify.stdout.contains("module Article's remote has a branch t1, but tenant t1 does not declare Article"),
            "\(verify.stdout)")
        #expect(verify.stdout.contains("delete it: \(fix)"), "\(verify.stdout)")
        // The printed command, run as printed, finishes the undo.
        let rerun = run.lab.sandbox.tenantctl(
            Array(fix.split(separator: " ").dropFirst().map(String.init)), in: copy.workspace,
            environment: FaultLab.dates)
        #expect(rerun.status == 0, "\(rerun.stderr)")
        #expect(try run.lab.remoteRefs(copy.root) == run.remotesAfter)
        #expect(run.lab.sandbox.tenantctl(["verify"], in: copy.workspace).status == 0)
        // Positive control: the undo of a module that is neither declared nor branched is still refused.
        let refused = run.lab.sandbox.tenantctl(["customize", "--undo", "t1", "Order"], in: copy.workspace)
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("does not customise Order"), "\(refused.stderr)")
    }

    @Test(
        arguments: [
            ["tenant", "add", "t4", "--from", "t2"], ["tenant", "remove", "t2", "--archive"],
        ], SweepShard.all(2))
    func killedAtSampledGitCallsConverges(_ arguments: [String], _ shard: SweepShard) throws {
        let run = try LifecycleKillLab(arguments)
        let unconverged = try run.sweep(shard: shard)
        #expect(unconverged.isEmpty, "\(unconverged.joined(separator: "\n"))")
    }

    @Test(
        arguments: [
            ["tenant", "add", "t4", "--from", "t2"], ["tenant", "remove", "t2", "--archive"],
            ["customize", "t1", "Article"],
        ], SweepShard.all(2))
    func failingAtSampledGitCallsConverges(_ arguments: [String], _ shard: SweepShard) throws {
        let run = try LifecycleKillLab(arguments)
        let unconverged = try run.sweep(failing: true, shard: shard)
        #expect(unconverged.isEmpty, "\(unconverged.joined(separator: "\n"))")
    }

    @Test(arguments: SweepShard.all(2))
    func undoKilledAtSampledGitCallsConverges(_ shard: SweepShard) throws {
        let run = try LifecycleKillLab(
            ["customize", "--undo", "t1", "Article"], prepare: [["customize", "t1", "Article"]])
        let unconverged = try run.sweep(shard: shard)
        #expect(unconverged.isEmpty, "\(unconverged.joined(separator: "\n"))")
    }
}
