import Foundation
import TenantExample
import TenantKit
import TenantTestSupport
import Testing

/// `roll --review` and `roll --land` killed (SIGKILL) at sampled git calls (every call under `scripts/fault-sweep`):
/// right after the kill, every proposal on a remote is one the killed run's journal names; the re-run converges to
/// the uninterrupted run's proposals (the same proposal branches, no tenant branch touched) and leaves no run
/// unfinished. Each sweep is split into shares of its kill points (`SweepShard`) that run side by side; the template and
/// the uninterrupted run are made once per test process.
@Suite(.tags(.slow), .notInTheFastSet) struct ReviewKillSweepTests {
    static let repositories = ["Infrastructure", "Article", "Customer", "Order", "Superproject"]

    /// Remote → branch → value, for every repository of a copy.
    static func branches(_ lab: FaultLab, _ copy: FaultLab.Copy) throws -> [String: [String: String]] {
        var result: [String: [String: String]] = [:]
        for name in repositories { result[name] = try lab.sandbox.branches(copy.remotes + "/\(name).git") }
        return result
    }

    /// The proposal branches only (`tenantctl/roll/…`), by repository.
    static func proposals(_ branches: [String: [String: String]]) -> [String: [String: String]] {
        branches.mapValues { $0.filter { $0.key.hasPrefix(ReviewOptions.defaultPrefix + "/") } }
    }

    /// Every other branch, by repository.
    static func others(_ branches: [String: [String: String]]) -> [String: [String: String]] {
        branches.mapValues { $0.filter { !$0.key.hasPrefix(ReviewOptions.defaultPrefix + "/") } }
    }

    /// The proposal branches on the remotes that no journal of the copy names with that value (`repository ref`):
    /// what a killed run would leave half-proposed without saying so.
    static func unnamedProposals(_ lab: FaultLab, _ copy: FaultLab.Copy) throws -> [String] {
        let journals = try RollJournal.all(gitDirectory: copy.workspace + "/.git").runs
        var named: Set<String> = []
        for journal in journals {
            let name = { (repository: String) in
                repository == RollPublication.superproject ? "Superproject" : repository
            }
            for entry in journal.entries { named.insert("\(name(entry.repository)) \(entry.ref) \(entry.new)") }
            for review in journal.reviews ?? [] {
                named.insert("\(name(review.repository)) \(review.ref) \(review.proposed)")
            }
        }
        var unnamed: [String] = []
        for (repository, refs) in proposals(try branches(lab, copy)) {
            for (branch, value) in refs where !named.contains("\(repository) refs/heads/\(branch) \(value)") {
                unnamed.append("\(repository) \(branch) \(value)")
            }
        }
        return unnamed.sorted()
    }

    /// The uninterrupted run of a sweep: its exit status and error output, its git calls and the remotes' branches
    /// after it.
    struct Reference: Sendable {
        var status: Int32
        var stderr: String
        var calls: [String]
        var expected: [String: [String: String]]
    }

    /// The uninterrupted run of `arguments` in a copy of `lab`'s template, once per test process under `key` (which
    /// names the template and the run).
    static func reference(_ lab: FaultLab, _ arguments: [String], key: String) throws -> Reference {
        try lab.shared(key + ": " + arguments.joined(separator: " ")) { lab in
            let clean = try lab.copy("reference")
            let run = try lab.runShimmed(arguments, in: clean, environment: FaultLab.dates)
            return Reference(
                status: run.result.status, stderr: run.result.stderr, calls: run.calls,
                expected: try branches(lab, clean))
        }
    }

    /// Kills `arguments` at each sampled git call of the uninterrupted run (the share `shard` of them) in a copy of
    /// the lab's template, checks that nothing is proposed that no journal names, re-runs the same command, and
    /// compares with `reference` (the uninterrupted run's branches): the same proposal branches, every other branch
    /// the same, no run unfinished.
    static func sweep(
        _ lab: FaultLab, _ arguments: [String], reference: Reference, label: String, shard: SweepShard
    ) throws -> Int {
        let sample = FaultLab.indices(for: reference.calls)
        #expect(
            sample.contains { FaultLab.subcommand(reference.calls[$0 - 1]) == "push" }, "\(label): no push sampled")
        let expected = reference.expected
        let indices = shard.take(sample)
        for index in indices {
            let copy = try lab.copy("\(label)-kill-\(index)")
            let what = "\(label) killed at call \(index) (\(FaultLab.subcommand(reference.calls[index - 1])))"
            try lab.runKilled(arguments, in: copy, at: index, environment: FaultLab.dates, label: what)
            let unnamed = try unnamedProposals(lab, copy)
            #expect(unnamed.isEmpty, "\(what): \(unnamed)")
            let rerun = lab.sandbox.tenantctl(arguments, in: copy.workspace, environment: FaultLab.dates)
            #expect(rerun.status == reference.status, "\(what): re-run \(rerun.status) \(rerun.stderr)")
            let after = try branches(lab, copy)
            #expect(others(after) == others(expected), "\(what): a branch other than a proposal changed")
            #expect(
                proposals(after).mapValues { Set($0.keys) } == proposals(expected).mapValues { Set($0.keys) },
                "\(what): \(proposals(after)) != \(proposals(expected))")
            let runs = lab.sandbox.tenantctl(["runs", "--json"], in: copy.workspace)
            #expect(!runs.stdout.contains("\"unfinished\""), "\(what): \(runs.stdout)")
            #expect(FaultLab.staleLocks(in: copy.root).isEmpty, "\(what): a lock is left")
        }
        return indices.count
    }

    @Test(arguments: SweepShard.all(3))
    func reviewKilledAtSampledGitCallsConverges(_ shard: SweepShard) throws {
        let lab = try FaultLab()
        let arguments = ["roll", "--review", "--jobs", "1"]
        let reference = try Self.reference(lab, arguments, key: "the example after its updates")
        #expect(reference.status == 75, "\(reference.stderr)")
        let proposes = Self.proposals(reference.expected).values.contains { !$0.isEmpty }
        #expect(proposes, "the reference proposes something")
        let count = try Self.sweep(lab, arguments, reference: reference, label: "review", shard: shard)
        print("roll --review SIGKILL sweep, \(shard.testDescription): \(count) of \(reference.calls.count) git calls")
    }

    @Test(arguments: SweepShard.all(3))
    func landKilledAtSampledGitCallsConverges(_ shard: SweepShard) throws {
        // The template: proposed, and the forge landed the module proposals and general_dev's re-pin.
        let key = "roll --review, the forge landed t2, t3 and general_dev"
        let lab = try FaultLab.prepared(key) { lab in
            let remotes = lab.template + "/remotes"
            let proposed = lab.sandbox.tenantctl(
                ["roll", "--review"], in: lab.template + "/workspace", environment: FaultLab.dates)
            try #require(proposed.status == 75, "\(proposed.stderr)")
            let forge = EmulatedForge(sandbox: lab.sandbox)
            let prefix = "refs/heads/\(ReviewOptions.defaultPrefix)/"
            try forge.land(prefix + "t2", into: "t2", method: .merge, in: remotes + "/Infrastructure.git")
            try forge.land(prefix + "t3", into: "t3", method: .merge, in: remotes + "/Order.git")
            try forge.land(
                prefix + "general_dev", into: "general_dev", method: .merge, in: remotes + "/Superproject.git")
            return true
        }.lab

        let arguments = ["roll", "--land", "--jobs", "1"]
        let reference = try Self.reference(lab, arguments, key: key)
        #expect(reference.status == 75, "the superproject proposals are open: \(reference.stderr)")
        #expect(
            reference.expected["Superproject"]?[ReviewOptions.defaultPrefix + "/t2"] != nil, "\(reference.expected)")
        let count = try Self.sweep(lab, arguments, reference: reference, label: "land", shard: shard)
        print("roll --land SIGKILL sweep, \(shard.testDescription): \(count) of \(reference.calls.count) git calls")
    }
}
