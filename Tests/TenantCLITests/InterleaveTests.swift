import Foundation
import TenantExample
import TenantKit
import TenantTestSupport
import Testing

/// Commands, kills and user actions interleaved at random on the conflicted example (seeded, so each sequence
/// replays), with the invariants checked after every step: no commit or uncommitted edit of the user's or a
/// colleague's lost, no superproject pin on a commit missing from its module's remote branches, and every
/// unfinished run has a way out that works. `scripts/interleave` runs thousands of sequences by hand.
enum Interleave {
    /// Runs the sequences of `seeds` with `steps` steps each on copies of one example build; the failure reports.
    /// `progress` prints each failing seed as it is found (the by-hand run).
    static func run(seeds: [UInt64], steps: Int, progress: Bool = false) throws -> [String] {
        let lab = try FaultLab(stage: .conflict)
        var failures: [String] = []
        for seed in seeds {
            let sequence = try InterleaveSequence(lab: lab, seed: seed)
            var failure: String?
            do {
                failure = try sequence.run(steps: steps)
            } catch {
                // A step the harness could not carry out is a failure of the seed too, with its steps so far.
                failure = sequence.report(["the harness stopped: \(error)"])
            }
            if let failure {
                failures.append(failure)
                if progress { Interleave.say(failure) }
            } else {
                sequence.remove()
                if progress { say("interleave: seed \(seed) passed (\(steps) steps, \(sequence.timing))") }
                if progress && environment["TENANTCTL_INTERLEAVE_VERBOSE"] == "1" {
                    say(sequence.log.map { "  " + $0 }.joined(separator: "\n"))
                }
            }
        }
        return failures
    }

    /// Prints at once (stdout is a pipe in `scripts/interleave`: a by-hand run shows each seed as it ends).
    static func say(_ text: String) {
        FileHandle.standardOutput.write(Data((text + "\n").utf8))
    }

    /// `first-last` or one number.
    static func seeds(_ text: String) -> [UInt64] {
        let bounds = text.split(separator: "-").compactMap { UInt64($0) }
        guard let first = bounds.first else { return [] }
        return Array(first...(bounds.count > 1 ? max(first, bounds[1]) : first))
    }

    static var environment: [String: String] { ProcessInfo.processInfo.environment }
}

/// One short sequence in the fast set: the harness itself works end to end.
@Suite struct InterleaveTests {
    @Test func aThreeStepSequenceKeepsEveryInvariant() throws {
        let failures = try Interleave.run(seeds: [7], steps: 3)
        #expect(failures.isEmpty, "\(failures.joined(separator: "\n\n"))")
    }

    /// The generator is the same on every machine: a seed draws the same steps.
    @Test func aSeedDrawsTheSameStepsEveryTime() {
        var first = InterleaveGenerator(seed: 42)
        var second = InterleaveGenerator(seed: 42)
        let a = (0..<30).map { first.next(index: $0).description }
        let b = (0..<30).map { second.next(index: $0).description }
        #expect(a == b)
        var other = InterleaveGenerator(seed: 43)
        #expect((0..<30).map { other.next(index: $0).description } != a)
    }

    /// The by-hand run (`scripts/interleave`): `TENANTCTL_INTERLEAVE_SEEDS=1-5000` (or one seed to replay,
    /// `TENANTCTL_INTERLEAVE_SEED=<n>`) with `TENANTCTL_INTERLEAVE_STEPS=<n>` steps; prints every failing seed.
    @Test(
        .enabled(
            if: Interleave.environment["TENANTCTL_INTERLEAVE_SEEDS"] != nil
                || Interleave.environment["TENANTCTL_INTERLEAVE_SEED"] != nil,
            "by hand: scripts/interleave"))
    func byHand() throws {
        let range =
            Interleave.environment["TENANTCTL_INTERLEAVE_SEED"] ?? Interleave.environment["TENANTCTL_INTERLEAVE_SEEDS"]
            ?? ""
        let steps = Int(Interleave.environment["TENANTCTL_INTERLEAVE_STEPS"] ?? "") ?? 20
        let failures = try Interleave.run(seeds: Interleave.seeds(range), steps: steps, progress: true)
        #expect(failures.isEmpty, "\(failures.count) failing sequences (printed above)")
    }
}

/// A short seed set of longer sequences, and the checks' positive control.
@Suite(.tags(.slow), .notInTheFastSet) struct InterleaveSeedTests {
    /// The checks see what they are for: a user's commit whose branch is deleted, an edit that is overwritten, a
    /// remote superproject branch pinning a commit its module lacks, and a run no way out can end (both servers
    /// keep refusing). Before each, nothing is reported.
    @Test func theChecksCatchALostCommitALostEditAMissingPinAndAStuckRun() throws {
        let lab = try FaultLab(stage: .conflict)
        let sequence = try InterleaveSequence(lab: lab, seed: 0)
        let customer = InterleavePlace(worktree: nil, module: "Customer")
        let checkout = sequence.copy.workspace + "/Modules/Customer"
        _ = try sequence.perform(.command(["switch", "t2"], worktree: nil, fault: .none, rejecting: nil), index: 0)
        #expect(try sequence.perform(.commit(customer), index: 1).hasPrefix("committed"))
        #expect(try sequence.perform(.edit(customer, untracked: false, pick: 0), index: 2).hasPrefix("edited"))
        #expect(try InterleaveCheck(sequence: sequence).violations() == [])

        try lab.sandbox.git(["checkout", "-q", "--detach"], in: checkout)
        try lab.sandbox.git(["branch", "-q", "-D", "t2"], in: checkout)
        try lab.sandbox.git(["checkout", "-q", "--", "."], in: checkout)
        let clone = sequence.copy.root + "/pinner"
        try lab.sandbox.git(["clone", "-q", "--branch", "t1", sequence.copy.remotes + "/Superproject.git", clone])
        let missing = String(repeating: "ab", count: 20)
        try lab.sandbox.git(["update-index", "--cacheinfo", "160000,\(missing),Modules/Article"], in: clone)
        try lab.sandbox.git(["commit", "-q", "-m", "pin nothing"], in: clone)
        try lab.sandbox.git(["push", "-q", "origin", "t1"], in: clone)
        let found = try InterleaveCheck(sequence: sequence).violations()
        #expect(found.contains { $0.hasPrefix("commit lost: the user's commit") }, "\(found)")
        #expect(found.contains { $0.hasPrefix("uncommitted edit lost: workspace/Modules/Customer/") }, "\(found)")
        #expect(found.contains { $0.contains("branch t1 pins Modules/Article at abababab") }, "\(found)")

        // A pin whose superproject push is refused, then the module's server refuses too: no way out but forget.
        let stuck = try InterleaveSequence(lab: lab, seed: 1)
        _ = try stuck.perform(.command(["switch", "t2"], worktree: nil, fault: .none, rejecting: nil), index: 0)
        _ = try stuck.perform(.commit(customer), index: 1)
        #expect(try InterleaveProbe(sequence: stuck).violations() == [])
        try RunWaysOutTests.reject(lab, stuck.copy, "Superproject")
        let pin = lab.sandbox.tenantctl(["pin", "--push"], in: stuck.copy.workspace, environment: FaultLab.dates)
        #expect(pin.status == 1, "\(pin.stdout)\(pin.stderr)")
        try RunWaysOutTests.reject(lab, stuck.copy, "Customer")
        let probed = try InterleaveProbe(sequence: stuck).violations()
        #expect(probed.contains { $0.hasPrefix("stuck: run ") }, "\(probed)")
    }

    /// A `pin --push` whose superproject push is refused stays unfinished; its re-run, after the user committed in
    /// the module again, pushes that commit and is refused the same way: a second unfinished run. The printed way
    /// out of the first, `runs --abort <first>`, runs (it was refused, naming the second), keeps the module branch
    /// the second moved since, and so does the second's; then switching works. (Found by seed 258.)
    @Test func theAbortOfARunIsNotBlockedByAnotherUnfinishedRun() throws {
        let lab = try FaultLab()
        try PinConvergenceTests.commitInCustomer(lab)
        let copy = try lab.copy("twice")
        try RunWaysOutTests.reject(lab, copy, "Superproject")
        let first = lab.sandbox.tenantctl(["pin", "--push"], in: copy.workspace, environment: FaultLab.dates)
        #expect(first.status == 1, "\(first.stdout)\(first.stderr)")
        let firstId = try RunWaysOutTests.lastRunId(lab, "pin", in: copy.workspace)
        try lab.sandbox.commit(
            in: "twice/workspace/Modules/Customer", file: "Again.swift", content: "// again\n", message: "again")
        let second = lab.sandbox.tenantctl(["pin", "--push"], in: copy.workspace, environment: FaultLab.dates)
        #expect(second.status == 1, "\(second.stdout)\(second.stderr)")
        let secondId = try RunWaysOutTests.lastRunId(lab, "pin", in: copy.workspace)
        #expect(firstId != secondId)
        #expect(try RunWaysOutTests.state(lab, firstId, in: copy.workspace) == "unfinished")
        #expect(try RunWaysOutTests.state(lab, secondId, in: copy.workspace) == "unfinished")
        try FileManager.default.removeItem(atPath: "\(copy.remotes)/Superproject.git/hooks/pre-receive")

        let blocked = lab.sandbox.tenantctl(["switch", "t1"], in: copy.workspace, environment: FaultLab.dates)
        let abort = try RunWaysOutTests.printed(after: "or take it back: ", in: blocked.stderr)
        #expect(abort == "tenantctl runs --abort \(firstId)", "\(blocked.stderr)")
        let aborted = try RunWaysOutTests.runPrinted(abort, lab, in: copy.workspace)
        #expect(aborted.status == 0, "\(aborted.stdout)\(aborted.stderr)")
        #expect(aborted.stdout.contains("kept:"), "\(aborted.stdout)")
        #expect(try RunWaysOutTests.state(lab, firstId, in: copy.workspace) == "aborted")
        let next = lab.sandbox.tenantctl(["runs", "--abort", secondId], in: copy.workspace)
        #expect(next.status == 0, "\(next.stdout)\(next.stderr)")
        let switched = lab.sandbox.tenantctl(["switch", "t1"], in: copy.workspace, environment: FaultLab.dates)
        #expect(switched.status == 0, "\(switched.stdout)\(switched.stderr)")
    }

    /// A roll killed once its first push landed, on the example where t2 conflicts: its re-run rolls everything it
    /// can and reports t2 conflicted (exit 2), as an uninterrupted roll does; that finishes the killed roll, and the
    /// other writing commands run (the killed roll stayed unfinished, and `roll --undo` refuses once a colleague
    /// pushed: nothing but `runs --forget` was left). (Found by seed 118.)
    @Test func aRerunOfAKilledRollThatReportsAConflictFinishesIt() throws {
        let lab = try FaultLab(stage: .conflict)
        let (probe, calls) = try lab.runShimmed(["roll"], in: try lab.copy("probe"), environment: FaultLab.dates)
        #expect(probe.status == 2, "\(probe.stdout)\(probe.stderr)")
        let push = try #require(calls.firstIndex { FaultLab.subcommand($0) == "push" }) + 1
        let copy = try lab.copy("killed")
        try lab.runKilled(["roll"], in: copy, at: push, afterTheCall: true)
        let killed = try RunWaysOutTests.lastRunId(lab, "roll", in: copy.workspace)
        #expect(try RunWaysOutTests.state(lab, killed, in: copy.workspace) == "unfinished")
        let rerun = lab.sandbox.tenantctl(["roll"], in: copy.workspace, environment: FaultLab.dates)
        #expect(rerun.status == 2, "\(rerun.stdout)\(rerun.stderr)")
        #expect(try RunWaysOutTests.state(lab, killed, in: copy.workspace) != "unfinished")
        let tagged = lab.sandbox.tenantctl(["tag", "M1"], in: copy.workspace, environment: FaultLab.dates)
        #expect(tagged.status == 0, "\(tagged.stdout)\(tagged.stderr)")
    }

    /// The seeds that found a failure, replayed with their step counts.
    @Test(arguments: [(258, 18), (118, 16)] as [(UInt64, Int)]) func aSeedThatFailedOnceKeepsEveryInvariant(
        seed: UInt64, steps: Int
    ) throws {
        let failures = try Interleave.run(seeds: [seed], steps: steps)
        #expect(failures.isEmpty, "\(failures.joined(separator: "\n\n"))")
    }

    /// The user edits a file in a module checkout while a resolution is open (started after a killed `resolve t2`);
    /// `resolve --abort` put that checkout back and the edit was gone. It now compares each repository with what
    /// the resolution left there and keeps the user's changes (seed 134; the control without an edit is
    /// `ResolveAbortKeepsTests.anAbortWithoutAnEditPutsEverythingBackAndKeepsNothing`).
    @Test func aResolveAbortKeepsAnEditMadeDuringTheResolution() throws {
        let failures = try Interleave.run(seeds: [134], steps: 14)
        #expect(failures.isEmpty, "\(failures.joined(separator: "\n\n"))")
    }

    /// A `roll --undo` killed once a push of its landed is unfinished; a colleague then pushes to a branch the roll
    /// had moved. The undo's re-run goes on: it puts back what is still where the roll left it, keeps the moved
    /// branch and names it, and ends, so nothing stays blocked (seed 4266; the step by step case with its control is
    /// `RollUndoResumeTests`).
    @Test func aKilledRollUndoHasAWayOutAfterAColleaguePushed() throws {
        let failures = try Interleave.run(seeds: [4266], steps: 11)
        #expect(failures.isEmpty, "\(failures.joined(separator: "\n\n"))")
    }

    @Test(arguments: [1, 2, 3] as [UInt64]) func aSequenceKeepsEveryInvariant(seed: UInt64) throws {
        let failures = try Interleave.run(seeds: [seed], steps: 12)
        #expect(failures.isEmpty, "\(failures.joined(separator: "\n\n"))")
    }
}
