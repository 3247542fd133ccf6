import Foundation
import TenantKit
import TenantTestSupport
import Testing

/// The switch fault sweep beyond SIGKILL: SIGTERM at sampled git calls (every repository put back before the exit),
/// and a disk that fills up (a small tmpfs) at sampled git calls (every repository old or new, and what it left
/// said). The re-run of the same command converges to the uninterrupted end state. Each sweep is split into shares of
/// its kill points (`SweepShard`) that run side by side.
@Suite(.tags(.slow), .notInTheFastSet) struct SwitchSignalFaultTests {
    /// An uninterrupted `switch t2` of a copy of a lab of the plain example (`FaultLab()`): its git calls and the
    /// working copy before and after it. Run once per test process.
    static func reference(_ lab: FaultLab) throws -> (
        calls: [String], before: [String: [String]], after: [String: [String]]
    ) {
        let reference = try lab.shared("switch t2 on the example after its updates") { lab in
            let reference = try lab.copy("reference")
            let before = try lab.workingCopy(reference.root)
            let (result, calls) = try lab.runShimmed(["switch", "t2"], in: reference)
            try #require(result.status == 0, "\(result.stderr)")
            return Reference(calls: calls, before: before, after: try lab.workingCopy(reference.root))
        }
        #expect(reference.after != reference.before)
        return (reference.calls, reference.before, reference.after)
    }

    /// What ``reference(_:)`` returns.
    struct Reference: Sendable {
        var calls: [String]
        var before: [String: [String]]
        var after: [String: [String]]
    }

    /// Whether a share of a switch sweep has a kill point after the superproject's checkout (at or after the first
    /// module checkout): the share's positive control, that some run was put back, applies to it.
    static func reachesTheModules(_ indices: [Int], calls: [String]) throws -> Bool {
        let first = try FaultLab.firstModuleCheckout(in: calls)
        return indices.contains { $0 >= first }
    }

    /// Whether a switch run in `workspace` is unfinished (its run journal says `running`); with `changed`, one that
    /// had started changing a repository: what the next switch puts back. The file an older tenantctl kept for it,
    /// `switch-journal.json`, is never written.
    static func unfinishedSwitch(_ workspace: String, changed: Bool = false) throws -> Bool {
        #expect(!FileManager.default.fileExists(atPath: "\(workspace)/.git/tenantctl/switch-journal.json"))
        return try RunJournal.unfinished(gitDirectory: "\(workspace)/.git").contains { run in
            run.commandName == "switch" && (!changed || (run.before ?? []).contains { $0.started == true })
        }
    }

    /// The module a git call runs in (`-C <workspace>/Modules/<name>`), nil for any other directory.
    static func module(of call: String) -> String? {
        let words = call.split(separator: " ").map(String.init)
        guard words.count > 1, words[0] == "-C", let range = words[1].range(of: "/Modules/") else { return nil }
        return words[1][range.upperBound...].split(separator: "/").first.map(String.init)
    }

    /// The git calls a run interrupted at call `index` made after it (its put-back) in a module it had not started
    /// changing by then (no git call other than `config` in it since the superproject's checkout in `workspace`):
    /// none is needed.
    static func putBackCallsInUntouchedModules(_ calls: [String], interruptedAt index: Int, workspace: String)
        -> [String]
    {
        let checkout = calls.firstIndex {
            $0.hasPrefix("-C \(workspace) ") && ["switch", "reset"].contains(FaultLab.subcommand($0))
        }
        var started: Set<String> = []
        if let checkout, checkout < index {
            for call in calls[checkout..<index] where FaultLab.subcommand(call) != "config" {
                if let module = module(of: call) { started.insert(module) }
            }
        }
        return calls.dropFirst(index).filter { call in
            guard let module = module(of: call) else { return false }
            return !started.contains(module)
        }
    }

    /// HEAD, its commit and the working tree of every repository are the old or the new ones.
    static func expectOldOrNew(
        _ state: [String: [String]], before: [String: [String]], after: [String: [String]], label: String
    ) {
        for (repository, now) in state {
            let core = [now[0], now[1], now[3]]
            let old = before[repository].map { [$0[0], $0[1], $0[3]] }
            let new = after[repository].map { [$0[0], $0[1], $0[3]] }
            #expect(core == old || core == new, "\(label): \(repository) is \(now)")
        }
    }

    @Test(arguments: SweepShard.all(4))
    func switchSigtermAtSampledGitCallsPutsEveryRepositoryBack(_ shard: SweepShard) throws {
        let lab = try FaultLab()
        let (calls, before, after) = try Self.reference(lab)
        let indices = shard.take(FaultLab.indices(for: calls))
        var putBack = 0
        for index in indices {
            let copy = try lab.copy("term-\(index)")
            let run = try lab.terminate(["switch", "t2"], in: copy, at: index)
            let label = "SIGTERM at call \(index) (\(FaultLab.subcommand(calls[index - 1])))"
            let result = try #require(run.wait(seconds: 60), "\(label): tenantctl did not stop")
            #expect(result.status == 130, "\(label): \(result.stderr)")
            #expect(result.stderr.contains("tenantctl: interrupted"), "\(label): \(result.stderr)")
            #expect(try lab.waitForProcesses(mentioning: copy.root + "/").isEmpty, "\(label)")
            #expect(lab.staleLocks(copy.root).isEmpty, "\(label): \(lab.staleLocks(copy.root))")
            // Every repository is back where it was before the exit, and the run blocks nothing.
            #expect(try lab.workingCopy(copy.root) == before, "\(label): \(result.stderr)")
            #expect(try !Self.unfinishedSwitch(copy.workspace), "\(label): the run is left unfinished")
            // The put-back runs no git in a module the run had not started changing.
            let made = try String(contentsOfFile: lab.sandbox.path("shim-term-\(index).log"), encoding: .utf8)
                .split(separator: "\n").map(String.init)
            let needless = Self.putBackCallsInUntouchedModules(
                made, interruptedAt: index, workspace: copy.workspace)
            #expect(needless.isEmpty, "\(label): \(needless)")
            if result.stderr.contains("every repository the switch had changed is back where it was") { putBack += 1 }
            // The re-run is a plain switch.
            let rerun = lab.sandbox.tenantctl(["switch", "t2"], in: copy.workspace)
            #expect(rerun.status == 0, "\(label): re-run: \(rerun.stderr)")
            #expect(!rerun.stderr.contains("putting back"), "\(label): re-run: \(rerun.stderr)")
            #expect(try lab.workingCopy(copy.root) == after, "\(label): the re-run did not converge")
        }
        // Positive control: some interruptions came after the first change, and were put back.
        if try Self.reachesTheModules(indices, calls: calls) { #expect(putBack > 0) }
        print(
            "switch SIGTERM sweep, \(shard.testDescription): \(indices.count) of \(calls.count) git calls, \(putBack) put back"
        )
    }

    /// A 2 MB-headroom tmpfs holds the working copy; the shim fills it just before a sampled git call.
    @Test func switchOnAFullDiskAtSampledGitCallsFailsCleanlyAndTheRerunConverges() throws {
        let lab = try FaultLab()
        let (calls, before, after) = try Self.reference(lab)
        let probe = lab.sandbox.path("probe-mount")
        try FileManager.default.createDirectory(atPath: probe, withIntermediateDirectories: true)
        let mounted = try lab.sandbox.run("/bin/mount", ["-t", "tmpfs", "-o", "size=2m", "tmpfs", probe])
        guard mounted.status == 0 else {
            print("switch disk-full sweep skipped: cannot mount a tmpfs here (\(mounted.stderr))")
            return
        }
        _ = try lab.sandbox.run("/bin/umount", [probe])
        let indices = FaultLab.indices(for: calls).filter { index in
            ["switch", "update-ref", "reset", "config", "submodule"].contains(FaultLab.subcommand(calls[index - 1]))
        }
        var failed = 0
        for index in indices {
            let copy = try lab.copy("full-\(index)")
            let size = try lab.sandbox.run("/usr/bin/du", ["-sk", copy.workspace])
            let kilobytes = (Int(size.stdout.split(separator: "\t").first ?? "") ?? 20_000) * 2 + 2048
            let root = lab.sandbox.path("mnt-\(index)")
            try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
            let mount = try lab.sandbox.run("/bin/mount", ["-t", "tmpfs", "-o", "size=\(kilobytes)k", "tmpfs", root])
            try #require(mount.status == 0, "\(mount.stderr)")
            defer { _ = try? lab.sandbox.run("/bin/umount", [root]) }
            let copied = try lab.sandbox.run("/bin/cp", ["-a", copy.workspace, root + "/workspace"])
            try #require(copied.status == 0, "\(copied.stderr)")
            let workspace = root + "/workspace"
            let filler = root + "/filler"
            let shim = try GitShim(in: lab.sandbox, name: "shim-full-\(index)")
            let label = "disk full at call \(index) (\(FaultLab.subcommand(calls[index - 1])))"
            let result = try lab.sandbox.tenantctlProcess(
                ["switch", "t2", "--git", shim.path], in: workspace,
                environment: ["SHIM_FILL_AT": "\(index)", "SHIM_FILL_FILE": filler])
            #expect(result.status == 0 || result.status == 1, "\(label): \(result.status) \(result.stderr)")
            #expect(!result.stderr.contains("Error Domain="), "\(label): \(result.stderr)")
            let state = try lab.workingCopy(root)
            if result.status == 1 {
                failed += 1
                // Nothing changed, or everything is back, or it names what it left and the command that finishes.
                #expect(
                    state == before || result.stderr.contains("back where it was")
                        || result.stderr.contains("run: tenantctl switch t2"), "\(label): \(result.stderr)")
            }
            #expect(lab.staleLocks(root).isEmpty, "\(label): \(lab.staleLocks(root))")
            // Every repository old or new, unless putting back failed for want of space too: then the run stays
            // unfinished with what it changed, the message named the re-run, and the re-run below must finish it.
            if try Self.unfinishedSwitch(workspace, changed: true) {
                #expect(result.stderr.contains("run: tenantctl switch t2"), "\(label): \(result.stderr)")
            } else {
                Self.expectOldOrNew(state, before: before, after: after, label: label)
            }
            let leftovers =
                ((try? FileManager.default.contentsOfDirectory(atPath: workspace + "/.git/tenantctl")) ?? [])
                + ((try? FileManager.default.contentsOfDirectory(atPath: workspace + "/.git/tenantctl/journal")) ?? [])
            #expect(!leftovers.contains { $0.hasSuffix(".tmp") }, "\(label): \(leftovers)")

            try? FileManager.default.removeItem(atPath: filler)
            let rerun = lab.sandbox.tenantctl(["switch", "t2"], in: workspace)
            #expect(rerun.status == 0, "\(label): re-run: \(rerun.stderr)")
            #expect(try lab.workingCopy(root) == after, "\(label): the re-run did not converge")
            #expect(try !Self.unfinishedSwitch(workspace), "\(label): journal left")
        }
        // Positive control: the full disk made some runs fail.
        #expect(failed > 0)
        print("switch disk-full sweep: \(indices.count) git calls, \(failed) failed")
    }
}

/// The re-run after a killed switch puts back only the switch's own leftovers: a tracked file changed since then
/// that the switch does not touch is named and kept; once it is committed away (here: restored), the re-run
/// converges.
@Suite(.tags(.slow), .notInTheFastSet) struct SwitchRerunGuardTests {
    @Test func theRerunRefusesAChangeTheStoppedSwitchDidNotMake() throws {
        let lab = try FaultLab()
        let (calls, _, after) = try SwitchSignalFaultTests.reference(lab)
        let copy = try SwitchRunJournalTests.killedSwitch(lab, calls: calls, copy: "guard")
        #expect(try SwitchSignalFaultTests.unfinishedSwitch(copy.workspace, changed: true))
        // A tracked file of the superproject that the switch does not change (not a module).
        let touched = Set(
            try lab.sandbox.git(["diff", "--name-only", "HEAD@{1}", "HEAD"], in: copy.workspace).split(separator: "\n")
                .map(String.init))
        let files = try lab.sandbox.git(["ls-files", "-s"], in: copy.workspace).split(separator: "\n")
            .filter { !$0.hasPrefix("160000") }.compactMap { $0.split(separator: "\t").last.map(String.init) }
        let file = try #require(files.first { !touched.contains($0) })
        let edited = "\(copy.workspace)/\(file)"
        let original = try String(contentsOfFile: edited, encoding: .utf8)
        try (original + "my edit\n").write(toFile: edited, atomically: true, encoding: .utf8)

        let refused = lab.sandbox.tenantctl(["switch", "t2"], in: copy.workspace)
        #expect(refused.status == 1, "\(refused.stdout)\(refused.stderr)")
        #expect(refused.stderr.contains(file), "\(refused.stderr)")
        #expect(refused.stderr.contains("superproject: kept as it is"), "\(refused.stderr)")
        #expect(try String(contentsOfFile: edited, encoding: .utf8) == original + "my edit\n")
        // The superproject is kept, the rest put back: the stopped run blocks nothing.
        #expect(try !SwitchSignalFaultTests.unfinishedSwitch(copy.workspace))

        // Positive control: without the edit the re-run puts back and switches.
        try original.write(toFile: edited, atomically: true, encoding: .utf8)
        let rerun = lab.sandbox.tenantctl(["switch", "t2"], in: copy.workspace)
        #expect(rerun.status == 0, "\(rerun.stderr)")
        #expect(try lab.workingCopy(copy.root) == after)
        #expect(try !SwitchSignalFaultTests.unfinishedSwitch(copy.workspace))
    }
}

/// A git call that fails part-way through a switch (what `merge.verifySignatures` did to `merge --ff-only`, or any
/// configuration that makes git refuse): every repository the switch had changed is put back, the message says
/// so, no journal is left, and the re-run converges.
@Suite(.tags(.slow), .notInTheFastSet) struct SwitchFailureSweepTests {
    @Test(arguments: SweepShard.all(4))
    func switchFailingAtSampledGitCallsPutsEverythingBack(_ shard: SweepShard) throws {
        let lab = try FaultLab()
        let (calls, before, after) = try SwitchSignalFaultTests.reference(lab)
        let indices = shard.take(FaultLab.indices(for: calls))
        var putBack = 0
        for index in indices {
            let copy = try lab.copy("fail-\(index)")
            let shim = try GitShim(in: lab.sandbox, name: "shim-fail-\(index)")
            let label = "failure at call \(index) (\(FaultLab.subcommand(calls[index - 1])))"
            let failed = try lab.sandbox.tenantctlProcess(
                ["switch", "t2", "--git", shim.path], in: copy.workspace,
                environment: ["SHIM_FAIL_AT": "\(index)", "SHIM_FAIL_STATUS": "128"])
            #expect(failed.status == 1, "\(label): \(failed.stderr)")
            #expect(try lab.workingCopy(copy.root) == before, "\(label): not put back")
            #expect(try !SwitchSignalFaultTests.unfinishedSwitch(copy.workspace), "\(label)")
            #expect(lab.staleLocks(copy.root).isEmpty, "\(label): \(lab.staleLocks(copy.root))")
            if failed.stderr.contains("every repository it had changed is back where it was") { putBack += 1 }
            let rerun = lab.sandbox.tenantctl(["switch", "t2"], in: copy.workspace)
            #expect(rerun.status == 0, "\(label): re-run: \(rerun.stderr)")
            #expect(try lab.workingCopy(copy.root) == after, "\(label): the re-run did not converge")
        }
        // Positive control: some failures came after the first change and were put back.
        if try SwitchSignalFaultTests.reachesTheModules(indices, calls: calls) { #expect(putBack > 0) }
        print(
            "switch failure sweep, \(shard.testDescription): \(indices.count) of \(calls.count) git calls, \(putBack) put back"
        )
    }
}
