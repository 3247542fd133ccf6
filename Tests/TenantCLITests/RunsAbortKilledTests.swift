import Foundation
import TenantKit
import TenantTestSupport
import Testing

/// Two starts of a resolution killed one after the other: the second one (a re-run) first put back what the first had
/// done, then was killed itself, so both runs are unfinished. `runs --abort <second>` takes the resolution back; it is
/// killed half-way, and its printed re-run finishes it. Nothing of the first start is left then (the second put it
/// back, and the abort took back the resolution under way), so the abort ends both runs: `runs` lists nothing
/// unfinished, the working copy is as before the first start, and a switch runs. Without the kill (positive control
/// of the kill's part) the abort does the same.
@Suite(.tags(.slow), .notInTheFastSet) struct RunsAbortKilledTests {
    /// The 1-based index of the last `merge` among a run's git `calls`.
    static func lastMerge(_ calls: [String]) throws -> Int {
        try #require(calls.lastIndex { FaultLab.subcommand($0) == "merge" }, "\(calls)") + 1
    }

    /// A copy of `lab` named `name` where `resolve t2` was killed at call `first`, then its re-run at call `second`
    /// (nil: the re-run runs to its end); the ids of the two runs.
    static func killedStarts(_ lab: FaultLab, _ name: String, first: Int, second: Int?) throws -> (
        copy: FaultLab.Copy, first: String, second: String, calls: [String]
    ) {
        let copy = try lab.copy(name)
        try lab.runKilled(["resolve", "t2"], in: copy, at: first, environment: FaultLab.dates)
        let firstId = try RunWaysOutTests.lastRunId(lab, "resolve", in: copy.workspace)
        var calls: [String] = []
        if let second {
            try lab.runKilled(["resolve", "t2"], in: copy, at: second, environment: FaultLab.dates)
        } else {
            let (result, made) = try lab.runShimmed(["resolve", "t2"], in: copy, environment: FaultLab.dates)
            #expect(result.status == 2, "\(result.stdout)\(result.stderr)")
            calls = made
        }
        let secondId = try RunWaysOutTests.lastRunId(lab, "resolve", in: copy.workspace)
        #expect(firstId != secondId)
        return (copy, firstId, secondId, calls)
    }

    /// The unfinished runs `tenantctl runs` lists, with their printed ways out.
    static func unfinished(_ lab: FaultLab, in workspace: String) throws -> [(id: String, ways: [String])] {
        let listed = try lab.sandbox.tenantctlProcess(["runs"], in: workspace)
        return listed.stdout.split(separator: "\n").compactMap { line in
            guard let range = line.range(of: " is unfinished; its ways out: ") else { return nil }
            return (String(line[..<range.lowerBound]), line[range.upperBound...].components(separatedBy: ", or "))
        }
    }

    @Test func aKilledAbortOfTheLaterOfTwoKilledStartsEndsBoth() throws {
        let lab = try FaultLab(stage: .conflict)
        let rolled = lab.sandbox.tenantctl(["roll"], in: "\(lab.template)/workspace", environment: FaultLab.dates)
        try #require(rolled.status == 2, "\(rolled.stdout)\(rolled.stderr)")
        let before = try lab.workingCopy(lab.template)
        let (started, startCalls) = try lab.runShimmed(
            ["resolve", "t2"], in: try lab.copy("probe-start"), environment: FaultLab.dates)
        try #require(started.status == 2, "\(started.stdout)\(started.stderr)")
        let first = try Self.lastMerge(startCalls)
        let rerunCalls = try Self.killedStarts(lab, "probe-rerun", first: first, second: nil).calls
        let second = try Self.lastMerge(rerunCalls)

        // The calls of the abort, uninterrupted: the kill comes before the middle one of those that write.
        let probe = try Self.killedStarts(lab, "probe-abort", first: first, second: second)
        let (aborted, abortCalls) = try lab.runShimmed(
            ["runs", "--abort", probe.second], in: probe.copy, environment: FaultLab.dates)
        try #require(aborted.status == 0, "\(aborted.stdout)\(aborted.stderr)")
        let writing: Set<String> = ["reset", "switch", "checkout", "update-ref", "branch", "symbolic-ref", "merge"]
        let writes = abortCalls.indices.filter { writing.contains(FaultLab.subcommand(abortCalls[$0])) }
        try #require(!writes.isEmpty, "\(abortCalls)")
        let killAt = writes[writes.count / 2] + 1

        for killed in [true, false] {
            let label = killed ? "abort killed at call \(killAt): \(abortCalls[killAt - 1])" : "abort not killed"
            let runs = try Self.killedStarts(lab, killed ? "killed" : "plain", first: first, second: second)
            let workspace = runs.copy.workspace
            #expect(try RunWaysOutTests.state(lab, runs.first, in: workspace) == "unfinished", "\(label)")
            #expect(try RunWaysOutTests.state(lab, runs.second, in: workspace) == "unfinished", "\(label)")
            if killed {
                try lab.runKilled(
                    ["runs", "--abort", runs.second], in: runs.copy, at: killAt, environment: FaultLab.dates,
                    label: label)
                // The printed re-run of the killed abort.
                let listing = try lab.sandbox.tenantctlProcess(["runs"], in: workspace).stdout
                let abort = try #require(
                    try Self.unfinished(lab, in: workspace).first {
                        $0.ways.first == "tenantctl runs --abort \(runs.second)"
                    }, "\(label): \(listing)")
                let rerun = try lab.sandbox.tenantctlProcess(
                    Array(DocsRunTests.words(abort.ways[0]).dropFirst()), in: workspace, environment: FaultLab.dates)
                #expect(rerun.status == 0, "\(label): \(rerun.stdout)\(rerun.stderr)")
            } else {
                let plain = try lab.sandbox.tenantctlProcess(
                    ["runs", "--abort", runs.second], in: workspace, environment: FaultLab.dates)
                #expect(plain.status == 0, "\(label): \(plain.stdout)\(plain.stderr)")
            }
            #expect(try RunWaysOutTests.state(lab, runs.second, in: workspace) == "aborted", "\(label)")
            #expect(try RunWaysOutTests.state(lab, runs.first, in: workspace) == "aborted", "\(label)")
            let left = try Self.unfinished(lab, in: workspace)
            #expect(left.isEmpty, "\(label): \(left)")
            #expect(try lab.workingCopy(runs.copy.root) == before, "\(label)")
            let switched = try lab.sandbox.tenantctlProcess(
                ["switch", "t1"], in: workspace, environment: FaultLab.dates)
            #expect(switched.status == 0, "\(label): \(switched.stdout)\(switched.stderr)")
        }
    }
}
