import Foundation
import TenantExample
import TenantKit
import TenantTestSupport
import Testing

/// `resolve --continue` killed (SIGKILL, through the `GitShim`) at a git call, one run per call index,
/// followed by `--continue` or by `--abort`, converges: `--continue` to the uninterrupted end state (remotes and
/// working copy), `--abort` to the state before `resolve t2` (working copy and remotes). Every index that writes
/// something is covered (commit, push, update-ref, switch, fetch, merge, reset, branch; of a run of update-index
/// calls the first and the last), plus the first and the last; `TENANTCTL_FAULT_SWEEP=all` covers every index.
/// The start's sweep takes of these every call that publishes or moves a working tree and the first and the last
/// call of each other kind. In `swift test` each kill point of `--continue` is recovered one way, the two ways
/// alternating along the points of each kind (``recoveries(_:calls:)``); `scripts/fault-sweep` recovers every kill
/// point both ways.
/// Each sweep is split into shares of its kill points (`SweepShard`) that run side by side.
@Suite(.tags(.slow), .notInTheFastSet) struct ResolveFaultTests {
    /// The lab: the example at stage `conflict`, rolled, `resolve t2` started and its conflict resolved and staged
    /// in the template (prepared once per test process); the working copy and remotes before `resolve t2`.
    struct Lab {
        let lab: FaultLab
        let beforeStart: [String: [String]]
        let remotesBefore: [String: [String: String]]

        /// What the preparation saw before `resolve t2`.
        struct Before: Sendable {
            var workingCopy: [String: [String]]
            var remotes: [String: [String: String]]
        }

        init(function: String = #function) throws {
            let prepared = try FaultLab.prepared(
                "roll, resolve t2, Strings.csv resolved", stage: .conflict, function: function
            ) { lab in
                let workspace = "\(lab.template)/workspace"
                let rolled = lab.sandbox.tenantctl(["roll"], in: workspace, environment: FaultLab.dates)
                try #require(rolled.status == 2, "\(rolled.stderr)")
                let before = Before(
                    workingCopy: try lab.workingCopy(lab.template), remotes: try lab.remoteRefs(lab.template))
                let started = lab.sandbox.tenantctl(["resolve", "t2"], in: workspace, environment: FaultLab.dates)
                try #require(started.status == 2, "\(started.stdout)\(started.stderr)")
                let module = "\(workspace)/Modules/Infrastructure"
                try ResolveFixture.resolutions[0].content.write(
                    toFile: "\(module)/Strings.csv", atomically: true, encoding: .utf8)
                try lab.sandbox.git(["add", "Strings.csv"], in: module)
                return before
            }
            lab = prepared.lab
            beforeStart = prepared.value.workingCopy
            remotesBefore = prepared.value.remotes
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

    /// The uninterrupted run of a sweep: its git calls, and the remotes and working copy a recovered copy must show.
    struct Reference: Sendable {
        var calls: [String]
        var remotes: [String: [String: String]]
        var workingCopy: [String: [String]]
    }

    /// The indices of the sweep (or all, on request): every call that writes, the first and the last; of a run of
    /// `update-index` calls (staging one gitlink or file after the other) only the first and the last of the run, so
    /// a kill before anything is staged and one with all but the last staged are in the sample, and the stages
    /// between them only in `scripts/fault-sweep`.
    static func indices(_ calls: [String]) -> [Int] {
        if ProcessInfo.processInfo.environment["TENANTCTL_FAULT_SWEEP"] == "all" { return Array(1...calls.count) }
        let writing: Set<String> = [
            "commit", "update-index", "push", "update-ref", "switch", "submodule", "fetch", "merge", "reset", "branch",
            "ls-remote",
        ]
        let kinds = calls.map { FaultLab.subcommand($0) }
        // A call inside a run of writes of its kind: the same writing kind comes before it and after it, with no
        // other writing call between.
        let writes = kinds.indices.filter { writing.contains(kinds[$0]) }
        var inside: Set<Int> = []
        for (position, index) in writes.enumerated() where kinds[index] == "update-index" {
            if position > 0, position < writes.count - 1, kinds[writes[position - 1]] == "update-index",
                kinds[writes[position + 1]] == "update-index"
            {
                inside.insert(index)
            }
        }
        return calls.indices.filter { index in
            index == 0 || index == calls.count - 1 || (writing.contains(kinds[index]) && !inside.contains(index))
        }.map { $0 + 1 }
    }

    /// The kill points of the start's sweep: of ``indices(_:)``, every call that publishes or moves a working tree
    /// (push, update-ref, switch, submodule), and of every other kind (``FaultLab/kind(_:)``) its first and its last
    /// call, as the other sweeps sample; the first and the last call. `TENANTCTL_FAULT_SWEEP=all`: every index.
    static func startIndices(_ calls: [String]) -> [Int] {
        let sample = indices(calls)
        if ProcessInfo.processInfo.environment["TENANTCTL_FAULT_SWEEP"] == "all" { return sample }
        let every: Set<String> = ["push", "update-ref", "switch", "submodule"]
        var first: [String: Int] = [:]
        var last: [String: Int] = [:]
        for index in sample {
            let kind = FaultLab.kind(calls[index - 1])
            if first[kind] == nil { first[kind] = index }
            last[kind] = index
        }
        return sample.filter { index in
            every.contains(FaultLab.subcommand(calls[index - 1])) || first.values.contains(index)
                || last.values.contains(index) || index == 1 || index == calls.count
        }
    }

    /// The ways a `--continue` kill sweep recovers each of its kill points (`indices`, into `calls`).
    ///
    /// `TENANTCTL_FAULT_SWEEP=all`: every point both ways. Otherwise each point one way: along the points of each kind
    /// of git call (``FaultLab/kind(_:)``) `--continue` and `--abort` take turns, the first point of a kind going on
    /// with `--continue`. So every kill point is recovered, a kind killed more than once is recovered both ways, and
    /// the choice is the same on every run.
    static func recoveries(_ indices: [Int], calls: [String]) -> [(index: Int, recovery: String)] {
        if ProcessInfo.processInfo.environment["TENANTCTL_FAULT_SWEEP"] == "all" {
            return indices.flatMap { [(index: $0, recovery: "--continue"), (index: $0, recovery: "--abort")] }
        }
        var seen: [String: Int] = [:]
        return indices.map { index in
            let kind = FaultLab.kind(calls[index - 1])
            let turn = seen[kind, default: 0]
            seen[kind] = turn + 1
            return (index: index, recovery: turn % 2 == 0 ? "--continue" : "--abort")
        }
    }

    /// The uninterrupted `resolve <action>` (`--continue` or `--abort`) on a copy of the lab's template: its git calls
    /// and the remotes and working copy it ends with. Run once per test process and shared by every test that asks
    /// (the kill sweep's cases, `ResolveJournalTests`).
    static func reference(_ lab: Lab, _ action: String) throws -> Reference {
        try lab.lab.shared("resolve \(action) after roll, resolve t2, Strings.csv resolved") { _ in
            let reference = try lab.copy("reference")
            let (done, calls) = try lab.lab.runShimmed(["resolve", action], in: reference, environment: FaultLab.dates)
            try #require(done.status == 0, "\(done.stdout)\(done.stderr)")
            return Reference(
                calls: calls, remotes: try lab.lab.remoteRefs(reference.root),
                workingCopy: try lab.lab.workingCopy(reference.root))
        }
    }

    /// A lab whose template is the example at stage `conflict` after a roll (which stops at t2's conflict), prepared
    /// once per test process.
    static func rolledLab(function: String = #function) throws -> FaultLab {
        try FaultLab.prepared("rolled", stage: .conflict, function: function) { lab in
            let rolled = lab.sandbox.tenantctl(["roll"], in: "\(lab.template)/workspace", environment: FaultLab.dates)
            try #require(rolled.status == 2, "\(rolled.stderr)")
        }.lab
    }

    @Test(arguments: SweepShard.all(4))
    func continueKilledAtEveryWritingGitCallConvergesWithContinueOrAbort(_ shard: SweepShard) throws {
        let lab = try Lab()
        let done = try Self.reference(lab, "--continue")
        let (calls, after, afterWorkingCopy) = (done.calls, done.remotes, done.workingCopy)
        #expect(after != lab.remotesBefore)
        let sample = Self.recoveries(Self.indices(calls), calls: calls)
        // Both ways out are in the sample, each after several kinds of kill point.
        for recovery in ["--continue", "--abort"] {
            let kinds = Set(sample.filter { $0.recovery == recovery }.map { FaultLab.kind(calls[$0.index - 1]) })
            #expect(kinds.count >= 2, "\(recovery) follows kills at \(kinds.sorted()) only")
        }
        let points = shard.take(sample)
        var failures: [String] = []
        for (index, recovery) in points {
            let label = "SIGKILL at call \(index) (\(FaultLab.subcommand(calls[index - 1])))"
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
        #expect(failures.isEmpty, "\(failures.joined(separator: "\n"))")
        let continued = points.filter { $0.recovery == "--continue" }.count
        print(
            "resolve --continue kill sweep, \(shard.testDescription): \(points.count) kills at \(Set(points.map { $0.index }).count) of \(calls.count) git calls, \(continued) recovered by --continue, \(points.count - continued) by --abort"
        )
    }

    /// `resolve t2` killed at a git call (one run per call of ``startIndices(_:)``): `--abort` puts the working copy back exactly as
    /// before, or there is nothing to abort because nothing had changed yet; `--continue` never goes on from a
    /// half-done start. Then a new `resolve t2` starts cleanly.
    @Test(arguments: SweepShard.all(3))
    func startKilledAtEveryWritingGitCallIsUndoneByAbort(_ shard: SweepShard) throws {
        let lab = try Self.rolledLab()
        let reference = try lab.shared("resolve t2 on the rolled conflict example") { lab in
            let reference = try lab.copy("reference")
            let before = try lab.workingCopy(reference.root)
            let remotes = try lab.remoteRefs(reference.root)
            let (started, calls) = try lab.runShimmed(["resolve", "t2"], in: reference, environment: FaultLab.dates)
            try #require(started.status == 2, "\(started.stdout)\(started.stderr)")
            return Reference(calls: calls, remotes: remotes, workingCopy: before)
        }
        let (calls, before, remotes) = (reference.calls, reference.workingCopy, reference.remotes)
        let indices = shard.take(Self.startIndices(calls))
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
        print("resolve start kill sweep, \(shard.testDescription): \(indices.count) of \(calls.count) git calls")
    }
}
