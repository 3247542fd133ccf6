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
                if progress { say("interleave: seed \(seed) passed (\(steps) steps)") }
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

/// A short seed set of longer sequences.
@Suite(.tags(.slow), .notInTheFastSet) struct InterleaveSeedTests {
    @Test(arguments: [1, 2, 3] as [UInt64]) func aSequenceKeepsEveryInvariant(seed: UInt64) throws {
        let failures = try Interleave.run(seeds: [seed], steps: 12)
        #expect(failures.isEmpty, "\(failures.joined(separator: "\n\n"))")
    }
}
