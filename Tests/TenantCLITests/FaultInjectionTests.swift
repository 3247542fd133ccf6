import Foundation
import TenantKit
import TenantTestSupport
import Testing

/// A roll killed (SIGKILL) or failing at a git call, one run per call index, through the
/// `GitShim`. Sampled by default (`FaultLab.indices`, and for the failures the smaller `FaultLab.failureIndices`);
/// `scripts/fault-sweep` runs every index. Each sweep is split into shares of its kill points (`SweepShard`) that run
/// side by side.
@Suite(.tags(.slow), .notInTheFastSet) struct FaultInjectionTests {
    /// The uninterrupted roll of one copy: its git calls and the end state every faulted copy must converge to.
    struct Reference: Sendable {
        var calls: [String]
        var before: [String: [String: String]]
        var after: [String: [String: String]]
        var workingCopy: [String: [String]]
    }

    /// The reference of a lab of the plain example (`FaultLab()`), run once per test process.
    static func reference(_ lab: FaultLab) throws -> Reference {
        try lab.shared("roll --jobs 1 on the example after its updates") { try computeReference($0) }
    }

    static func computeReference(_ lab: FaultLab) throws -> Reference {
        let copy = try lab.copy("reference")
        let before = try lab.refs(copy.root)
        let workingCopy = try lab.workingCopy(copy.root)
        let (result, calls) = try lab.runShimmed(["roll", "--jobs", "1"], in: copy, environment: FaultLab.dates)
        #expect(result.status == 0, "\(result.stderr)")
        let after = try lab.refs(copy.root)
        // The uninterrupted roll: exactly one new merge in Infrastructure t2 and Order t3.
        for (module, branch) in [("Infrastructure", "t2"), ("Order", "t3")] {
            let old = try #require(before["remote/\(module)"]?["refs/heads/\(branch)"])
            let new = try #require(after["remote/\(module)"]?["refs/heads/\(branch)"])
            let made = try lab.sandbox.git(
                ["rev-list", "--count", new, "^\(old)", "^general_dev"], in: "\(copy.root)/remotes/\(module).git")
            #expect(made == "1", "\(module) \(branch)")
        }
        #expect(after["remote/Superproject"] != before["remote/Superproject"])
        return Reference(calls: calls, before: before, after: after, workingCopy: workingCopy)
    }

    /// Asserts the invariants after a fault, then re-runs without a fault and asserts convergence.
    static func checkFaultedCopy(
        _ lab: FaultLab, _ copy: FaultLab.Copy, _ reference: Reference,
        _ label: String
    ) throws {
        let left = try lab.waitForProcesses(mentioning: copy.root + "/")
        #expect(left.isEmpty, "\(label): processes left: \(left)")
        let bad = FaultLab.refsNeitherOldNorNew(
            now: try lab.refs(copy.root), old: reference.before, new: reference.after)
        #expect(bad.isEmpty, "\(label): \(bad)")
        #expect(try lab.workingCopy(copy.root) == reference.workingCopy, "\(label): the working copy changed")
        #expect(lab.staleLocks(copy.root).isEmpty, "\(label): \(lab.staleLocks(copy.root))")

        let rerun = lab.sandbox.tenantctl(["roll"], in: copy.workspace, environment: FaultLab.dates)
        #expect(rerun.status == 0, "\(label): re-run failed: \(rerun.stderr)")
        let remotes = try lab.remoteRefs(copy.root)
        #expect(
            remotes == reference.after.filter { $0.key.hasPrefix("remote/") },
            "\(label): the re-run did not converge to the uninterrupted end state")
        #expect(
            try lab.workingCopy(copy.root) == reference.workingCopy, "\(label): the re-run changed the working copy")
    }

    // Every faulted run uses `--jobs 1`: module fetches, merges and pushes then happen one at a time, so call N
    // of a faulted run is call N of the reference run and every index is covered deterministically.
    @Test(arguments: SweepShard.all(4))
    func rollKilledAtEveryGitCallLosesNothingAndConverges(_ shard: SweepShard) throws {
        let lab = try FaultLab()
        let reference = try Self.reference(lab)
        let indices = shard.take(FaultLab.indices(for: reference.calls))
        #expect(reference.calls.count > 30)
        for index in indices {
            let copy = try lab.copy("kill-\(index)")
            let label = "SIGKILL at call \(index) (\(FaultLab.subcommand(reference.calls[index - 1])))"
            try lab.runKilled(["roll", "--jobs", "1"], in: copy, at: index, environment: FaultLab.dates, label: label)
            try Self.checkFaultedCopy(lab, copy, reference, label)
        }
        print("roll kill sweep, \(shard.testDescription): \(indices.count) of \(reference.calls.count) git calls")
    }

    @Test(arguments: SweepShard.all(4))
    func rollFailingAtEveryGitCallExitsCleanlyAndConverges(_ shard: SweepShard) throws {
        let lab = try FaultLab()
        let reference = try Self.reference(lab)
        let indices = shard.take(FaultLab.failureIndices(for: reference.calls))
        for index in indices {
            let copy = try lab.copy("fail-\(index)")
            let shim = try GitShim(in: lab.sandbox, name: "shim-fail-\(index)")
            let failed = lab.sandbox.tenantctl(
                ["roll", "--jobs", "1", "--git", shim.path], in: copy.workspace,
                environment: FaultLab.dates.merging(["SHIM_FAIL_AT": "\(index)", "SHIM_FAIL_STATUS": "128"]) { $1 })
            let label = "failure at call \(index) (\(FaultLab.subcommand(reference.calls[index - 1])))"
            // A failure in the module checkouts' copy of the remote, after the pushes landed, is a warning: the
            // roll finished and says that `tenantctl status --fetch` shows the remote afresh.
            let finishedWithWarning = failed.status == 0 && failed.stderr.contains("tenantctl status --fetch")
            // A module mirror records its landed push in the process that staged it; that record is a cache of the
            // remote, tried again beside the superproject's push, and only a failure of the second try is reported.
            // Healed, the mirror holds exactly what the uninterrupted roll left in it.
            let call = reference.calls[index - 1]
            let healedMirrorRecord =
                failed.status == 0 && FaultLab.subcommand(call) == "update-ref"
                && call.contains("/.git/tenantctl/mirrors/")
            #expect(
                failed.status == 1 || failed.status == 2 || finishedWithWarning || healedMirrorRecord,
                "\(label): exit \(failed.status) \(failed.stderr)")
            if healedMirrorRecord {
                let now = try lab.refs(copy.root).filter { $0.key.hasPrefix("mirror/") }
                #expect(
                    now == reference.after.filter { $0.key.hasPrefix("mirror/") },
                    "\(label): the mirror's record was not tried again")
            } else {
                #expect(failed.stderr.contains("injected failure"), "\(label): \(failed.stderr)")
            }
            try Self.checkFaultedCopy(lab, copy, reference, label)
        }
        print("roll failure sweep, \(shard.testDescription): \(indices.count) of \(reference.calls.count) git calls")
    }
}

/// `switch` killed at a git call: each repository's working tree is as before or as after, no HEAD is left
/// detached on a commit that no ref reaches, and a re-run converges.
@Suite(.tags(.slow), .notInTheFastSet) struct SwitchFaultInjectionTests {
    @Test(arguments: SweepShard.all(4))
    func switchKilledAtSampledGitCallsLeavesEachRepositoryBeforeOrAfter(_ shard: SweepShard) throws {
        let lab = try FaultLab()
        let (calls, before, after) = try SwitchSignalFaultTests.reference(lab)
        let indices = shard.take(FaultLab.indices(for: calls))
        for index in indices {
            let copy = try lab.copy("kill-\(index)")
            let label = "SIGKILL at call \(index) (\(FaultLab.subcommand(calls[index - 1])))"
            try lab.runKilled(["switch", "t2"], in: copy, at: index, label: label)
            let state = try lab.workingCopy(copy.root)
            for (repository, now) in state {
                // HEAD, its commit and the working tree are the old or the new ones (local branches may be created
                // before HEAD moves; they are checked after the re-run).
                let core = [now[0], now[1], now[3]]
                let old = before[repository].map { [$0[0], $0[1], $0[3]] }
                let new = after[repository].map { [$0[0], $0[1], $0[3]] }
                #expect(core == old || core == new, "\(label): \(repository) is \(now)")
                if now[0].isEmpty {
                    let directory =
                        repository == "superproject" ? copy.workspace : "\(copy.workspace)/Modules/\(repository)"
                    let reachable = try lab.sandbox.git(
                        ["for-each-ref", "--contains", now[1], "--format=%(refname)"], in: directory)
                    #expect(!reachable.isEmpty, "\(label): \(repository) detached on an unreachable commit")
                }
            }
            #expect(lab.staleLocks(copy.root).isEmpty, "\(label): \(lab.staleLocks(copy.root))")
            let rerun = lab.sandbox.tenantctl(["switch", "t2"], in: copy.workspace)
            #expect(rerun.status == 0, "\(label): re-run: \(rerun.stderr)")
            #expect(try lab.workingCopy(copy.root) == after, "\(label): the re-run did not converge")
            try Self.userGoesOnWorking(lab, killedAt: index, label: label)
        }
        print("switch kill sweep, \(shard.testDescription): \(indices.count) of \(calls.count) git calls")
    }

    /// The second phase: after the kill the user goes on working (a commit in the superproject and in the first
    /// module, an untracked file, at every other index an edit to a module's file), then switches elsewhere. Whatever the next switch does (puts
    /// back and switches, or refuses), nothing of the user's is lost: each commit is on a branch, the untracked file
    /// and the edit are there.
    static func userGoesOnWorking(_ lab: FaultLab, killedAt index: Int, label: String) throws {
        let copy = try lab.copy("kill-\(index)-user")
        try lab.runKilled(["switch", "t2"], in: copy, at: index, label: label)
        var commits: [(directory: String, commit: String)] = []
        for directory in [copy.workspace, copy.workspace + "/Modules/" + FaultLab.modules[0]] {
            let mine = directory + "/mine-\(commits.count).txt"
            try "mine\n".write(toFile: mine, atomically: true, encoding: .utf8)
            try lab.sandbox.git(["add", "--", (mine as NSString).lastPathComponent], in: directory)
            try lab.sandbox.git(["commit", "-q", "-m", "my work after the kill"], in: directory)
            commits.append((directory, try lab.sandbox.git(["rev-parse", "HEAD"], in: directory)))
        }
        let untracked = copy.workspace + "/notes.txt"
        try "my notes\n".write(toFile: untracked, atomically: true, encoding: .utf8)
        // Every other index also an edit to a tracked file of a module (the next switch then refuses).
        let module = copy.workspace + "/Modules/" + FaultLab.modules[1]
        let tracked = try #require(try lab.sandbox.git(["ls-files"], in: module).split(separator: "\n").first)
        let edited = module + "/" + tracked
        let original = try String(contentsOfFile: edited, encoding: .utf8)
        let content = index % 2 == 0 ? original + "my edit\n" : original
        try content.write(toFile: edited, atomically: true, encoding: .utf8)

        let next = lab.sandbox.tenantctl(["switch", "t3"], in: copy.workspace)
        #expect(next.status == 0 || next.status == 1, "\(label): user phase: \(next.status) \(next.stderr)")
        for (directory, commit) in commits {
            let branches = try lab.sandbox.git(["branch", "--contains", commit, "--format=%(refname)"], in: directory)
            #expect(!branches.isEmpty, "\(label): user phase: \(commit) is on no branch in \(directory)")
        }
        #expect(try String(contentsOfFile: untracked, encoding: .utf8) == "my notes\n", "\(label): user phase")
        #expect(try String(contentsOfFile: edited, encoding: .utf8) == content, "\(label): user phase")
    }
}

/// `customize` killed at a git call (as a roll is, for the lifecycle commands): refs old or new everywhere, the
/// working copy untouched, and a re-run of the same command converges to the uninterrupted end state.
@Suite(.tags(.slow), .notInTheFastSet) struct CustomizeFaultInjectionTests {
    /// The uninterrupted `customize t1 Article` of a copy: its git calls, the refs before and after, the working copy.
    struct Reference: Sendable {
        var calls: [String]
        var before: [String: [String: String]]
        var after: [String: [String: String]]
        var workingCopy: [String: [String]]
    }

    @Test(arguments: SweepShard.all(3))
    func customizeKilledAtSampledGitCallsConverges(_ shard: SweepShard) throws {
        let lab = try FaultLab()
        let arguments = ["customize", "t1", "Article"]
        let reference = try lab.shared("customize t1 Article on the example") { lab in
            let reference = try lab.copy("reference")
            let before = try lab.refs(reference.root)
            let workingCopy = try lab.workingCopy(reference.root)
            let (result, calls) = try lab.runShimmed(arguments, in: reference, environment: FaultLab.dates)
            try #require(result.status == 0, "\(result.stderr)")
            return Reference(
                calls: calls, before: before, after: try lab.refs(reference.root), workingCopy: workingCopy)
        }
        let (calls, before, after, workingCopy) = (
            reference.calls, reference.before, reference.after, reference.workingCopy
        )
        #expect(after["remote/Article"]?["refs/heads/t1"] != nil)
        let indices = shard.take(FaultLab.indices(for: calls))
        var unconverged: [String] = []
        for index in indices {
            let copy = try lab.copy("kill-\(index)")
            let label = "SIGKILL at call \(index) (\(FaultLab.subcommand(calls[index - 1])))"
            try lab.runKilled(arguments, in: copy, at: index, environment: FaultLab.dates, label: label)
            let bad = FaultLab.refsNeitherOldNorNew(now: try lab.refs(copy.root), old: before, new: after)
            #expect(bad.isEmpty, "\(label): \(bad)")
            #expect(try lab.workingCopy(copy.root) == workingCopy, "\(label)")
            #expect(lab.staleLocks(copy.root).isEmpty, "\(label): \(lab.staleLocks(copy.root))")
            let rerun = lab.sandbox.tenantctl(arguments, in: copy.workspace, environment: FaultLab.dates)
            let remotes = try lab.remoteRefs(copy.root)
            if rerun.status != 0 || remotes != after.filter({ $0.key.hasPrefix("remote/") }) {
                unconverged.append("\(label): re-run exit \(rerun.status): \(rerun.stderr)")
            }
        }
        #expect(unconverged.isEmpty, "\(unconverged.joined(separator: "\n"))")
        print("customize kill sweep, \(shard.testDescription): \(indices.count) of \(calls.count) git calls")
    }
}
