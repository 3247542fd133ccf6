import Foundation
import TenantKit
import TenantTestSupport
import Testing

/// The roll fault sweep beyond SIGKILL and failures: SIGTERM while a sampled git call runs (every call under
/// `scripts/fault-sweep`). Each run exits 130 with every ref old or new, the working copy untouched and no lock
/// left, and the re-run of the same command converges to the uninterrupted end state. The sweep is split into shares
/// of its kill points (`SweepShard`) that run side by side.
@Suite(.tags(.slow), .notInTheFastSet) struct RollSignalSweepTests {
    @Test(arguments: SweepShard.all(4))
    func rollSigtermAtSampledGitCallsExits130AndTheRerunConverges(_ shard: SweepShard) throws {
        let lab = try FaultLab()
        let reference = try FaultInjectionTests.reference(lab)
        let sample = FaultLab.indices(for: reference.calls)
        let indices = shard.take(sample)
        // The sample covers the ways roll writes objects and repositories, where it uses them.
        for subcommand in ["fast-import", "clone", "push"]
        where reference.calls.contains(where: { FaultLab.subcommand($0) == subcommand }) {
            #expect(
                sample.contains { FaultLab.subcommand(reference.calls[$0 - 1]) == subcommand },
                "the sample has no \(subcommand)")
        }
        #expect(reference.calls.contains { FaultLab.subcommand($0) == "fast-import" }, "roll writes no commits?")
        for index in indices {
            let copy = try lab.copy("term-\(index)")
            let run = try lab.terminate(["roll", "--jobs", "1"], in: copy, at: index, environment: FaultLab.dates)
            let label = "SIGTERM at call \(index) (\(FaultLab.subcommand(reference.calls[index - 1])))"
            let result = try #require(run.wait(seconds: 30), "\(label): tenantctl did not stop")
            #expect(result.status == 130, "\(label): \(result.status) \(result.stderr)")
            #expect(result.stderr.contains("interrupted"), "\(label): \(result.stderr)")
            try FaultInjectionTests.checkFaultedCopy(lab, copy, reference, label)
        }
        print("roll SIGTERM sweep, \(shard.testDescription): \(indices.count) of \(reference.calls.count) git calls")
    }
}
