import Foundation
import TenantExample
import TenantKit
import TenantTestSupport
import Testing

/// `resolve --continue` killed (SIGKILL, through the `GitShim`) at a git call, one run per call index,
/// followed by `--continue` or by `--abort`, converges: `--continue` to the uninterrupted end state (remotes and
/// working copy), `--abort` to the state before `resolve t2` (working copy and remotes). Every index that writes
/// something is covered (commit, update-index, push, update-ref, switch, fetch, merge, reset, branch), plus the
/// first and the last; `TENANTCTL_FAULT_SWEEP=all` covers every index.
@Suite(.serialized, .tags(.slow), .notInTheFastSet) struct ResolveFaultTests {
    /// The lab: the example at stage `conflict`, rolled, `resolve t2` started and its conflict resolved and staged
    /// in the template; the working copy and remotes before `resolve t2`.
    struct Lab {
        let lab: FaultLab
        let beforeStart: [String: [String]]
        let remotesBefore: [String: [String: String]]

        init(function: String = #function) throws {
            lab = try FaultLab(stage: .conflict, function: function)
            let workspace = "\(lab.template)/workspace"
            let rolled = lab.sandbox.tenantctl(["roll"], in: workspace, environment: FaultLab.dates)
            #expect(rolled.status == 2, "\(rolled.stderr)")
            beforeStart = try lab.workingCopy(lab.template)
            remotesBefore = try lab.remoteRefs(lab.template)
            let started = lab.sandbox.tenantctl(["resolve", "t2"], in: workspace, environment: FaultLab.dates)
            #expect(started.status == 2, "\(started.stdout)\(started.stderr)")
            let module = "\(workspace)/Modules/Infrastructure"
            try ResolveFixture.resolutions[0].content.write(
                toFile: "\(module)/Strings.csv", atomically: true, encoding: .utf8)
            try lab.sandbox.git(["add", "Strings.csv"], in: module)
        }

        /// A copy of the template whose resolve state and run journals (which hold the resolution) name the copy's
        /// own worktree and remotes.
        func copy(_ name: String) throws -> FaultLab.Copy {
            let copy = try lab.copy(name)
            let directory = "\(copy.workspace)/.git/tenantctl"
            let journals = try FileManager.default.contentsOfDirectory(atPath: "\(directory)/journal")
                .filter { $0.hasSuffix(".json") }.map { "\(directory)/journal/\($0)" }
            for file in ["\(directory)/resolve.json"] + journals {
                let text = try String(contentsOfFile: file, encoding: .utf8)
                try text.replacingOccurrences(of: lab.template + "/", with: copy.root + "/").write(
                    toFile: file, atomically: true, encoding: .utf8)
            }
            return copy
        }
    }

    /// The indices of the sweep: every call that writes, the first and the last (or all, on request).
    static func indices(_ calls: [String]) -> [Int] {
        if ProcessInfo.processInfo.environment["TENANTCTL_FAULT_SWEEP"] == "all" { return Array(1...calls.count) }
        let writing: Set<String> = [
            "commit", "update-index", "push", "update-ref", "switch", "submodule", "fetch", "merge", "reset", "branch",
            "ls-remote",
        ]
        return calls.indices.filter { index in
            index == 0 || index == calls.count - 1 || writing.contains(FaultLab.subcommand(calls[index]))
        }.map { $0 + 1 }
    }

    @Test func continueKilledAtEveryWritingGitCallConvergesWithContinueOrAbort() throws {
        let lab = try Lab()
        let reference = try lab.copy("reference")
        let (done, calls) = try lab.lab.runShimmed(
            ["resolve", "--continue"], in: reference, environment: FaultLab.dates)
        #expect(done.status == 0, "\(done.stdout)\(done.stderr)")
        let after = try lab.lab.remoteRefs(reference.root)
        let afterWorkingCopy = try lab.lab.workingCopy(reference.root)
        #expect(after != lab.remotesBefore)
        let indices = Self.indices(calls)
        var failures: [String] = []
        for index in indices {
            let label = "SIGKILL at call \(index) (\(FaultLab.subcommand(calls[index - 1])))"
            for recovery in ["--continue", "--abort"] {
                let copy = try lab.copy("kill-\(index)\(recovery)")
                try lab.lab.runKilled(
                    ["resolve", "--continue"], in: copy, at: index, environment: FaultLab.dates, label: label)
                let bad = FaultLab.refsNeitherOldNorNew(
                    now: try lab.lab.remoteRefs(copy.root), old: lab.remotesBefore, new: after)
                #expect(bad.isEmpty, "\(label): \(bad)")
                #expect(lab.lab.staleLocks(copy.root).isEmpty, "\(label): \(lab.lab.staleLocks(copy.root))")

                let rerun = lab.lab.sandbox.tenantctl(
                    ["resolve", recovery], in: copy.workspace, environment: FaultLab.dates)
                guard rerun.status == 0 else {
                    failures.append("\(label), then \(recovery): exit \(rerun.status): \(rerun.stderr)")
                    continue
                }
                let remotes = try lab.lab.remoteRefs(copy.root)
                let workingCopy = try lab.lab.workingCopy(copy.root)
                if recovery == "--continue" {
                    if remotes != after { failures.append("\(label), then --continue: remotes differ") }
                    if workingCopy != afterWorkingCopy {
                        failures.append("\(label), then --continue: working copy differs: \(workingCopy)")
                    }
                } else {
                    if remotes != lab.remotesBefore { failures.append("\(label), then --abort: remotes differ") }
                    if workingCopy != lab.beforeStart {
                        failures.append("\(label), then --abort: working copy differs: \(workingCopy)")
                    }
                }
                if FileManager.default.fileExists(atPath: "\(copy.workspace)/.git/tenantctl/resolve.json") {
                    failures.append("\(label), then \(recovery): the resolve state is left")
                }
            }
        }
        #expect(failures.isEmpty, "\(failures.joined(separator: "\n"))")
        print("resolve --continue kill sweep: \(indices.count) of \(calls.count) git calls, each recovered both ways")
    }

    /// `resolve t2` killed at a git call (one run per writing call): `--abort` puts the working copy back exactly as
    /// before, or there is nothing to abort because nothing had changed yet; `--continue` never goes on from a
    /// half-done start. Then a new `resolve t2` starts cleanly.
    @Test func startKilledAtEveryWritingGitCallIsUndoneByAbort() throws {
        let lab = try FaultLab(stage: .conflict)
        let template = "\(lab.template)/workspace"
        let rolled = lab.sandbox.tenantctl(["roll"], in: template, environment: FaultLab.dates)
        #expect(rolled.status == 2, "\(rolled.stderr)")
        let reference = try lab.copy("reference")
        let before = try lab.workingCopy(reference.root)
        let remotes = try lab.remoteRefs(reference.root)
        let (started, calls) = try lab.runShimmed(["resolve", "t2"], in: reference, environment: FaultLab.dates)
        #expect(started.status == 2, "\(started.stdout)\(started.stderr)")
        let indices = Self.indices(calls)
        var failures: [String] = []
        for index in indices {
            let label = "SIGKILL at call \(index) (\(FaultLab.subcommand(calls[index - 1])))"
            let copy = try lab.copy("kill-\(index)")
            try lab.runKilled(["resolve", "t2"], in: copy, at: index, environment: FaultLab.dates, label: label)
            let state = "\(copy.workspace)/.git/tenantctl/resolve.json"
            if FileManager.default.fileExists(atPath: state) {
                let continued = lab.sandbox.tenantctl(["resolve", "--continue"], in: copy.workspace)
                if continued.status != 1 || !continued.stderr.contains("resolve --abort") {
                    failures.append("\(label): --continue after a half-done start: \(continued.stderr)")
                }
                let aborted = lab.sandbox.tenantctl(["resolve", "--abort"], in: copy.workspace)
                if aborted.status != 0 { failures.append("\(label): --abort: \(aborted.stderr)") }
            }
            if try lab.workingCopy(copy.root) != before { failures.append("\(label): the working copy differs") }
            if try lab.remoteRefs(copy.root) != remotes { failures.append("\(label): a remote changed") }
            let again = lab.sandbox.tenantctl(["resolve", "t2"], in: copy.workspace, environment: FaultLab.dates)
            if again.status != 2 { failures.append("\(label): a new start: \(again.stderr)") }
        }
        #expect(failures.isEmpty, "\(failures.joined(separator: "\n"))")
        print("resolve start kill sweep: \(indices.count) of \(calls.count) git calls")
    }
}
