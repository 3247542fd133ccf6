import Foundation
import TenantExample
import TenantKit
import TenantTestSupport
import Testing

/// `roll --review` and `roll --land` killed (SIGKILL) at sampled git calls (every call under `scripts/fault-sweep`):
/// right after the kill, every proposal on a remote is one the killed run's journal names; the re-run converges to
/// the uninterrupted run's proposals (the same proposal branches, no tenant branch touched) and leaves no run
/// unfinished.
@Suite(.serialized, .tags(.slow), .notInTheFastSet) struct ReviewKillSweepTests {
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

    /// Kills `arguments` at each sampled git call of the uninterrupted run in a copy of the lab's template, checks
    /// that nothing is proposed that no journal names, re-runs the same command, and compares with `reference` (the
    /// uninterrupted run's branches): the same proposal branches, every other branch the same, no run unfinished.
    static func sweep(
        _ lab: FaultLab, _ arguments: [String], reference: (result: CLIResult, calls: [String]),
        expected: [String: [String: String]], label: String
    ) throws -> Int {
        let indices = FaultLab.indices(for: reference.calls)
        #expect(
            indices.contains { FaultLab.subcommand(reference.calls[$0 - 1]) == "push" }, "\(label): no push sampled")
        for index in indices {
            let copy = try lab.copy("\(label)-kill-\(index)")
            let what = "\(label) killed at call \(index) (\(FaultLab.subcommand(reference.calls[index - 1])))"
            try lab.runKilled(arguments, in: copy, at: index, environment: FaultLab.dates, label: what)
            let unnamed = try unnamedProposals(lab, copy)
            #expect(unnamed.isEmpty, "\(what): \(unnamed)")
            let rerun = lab.sandbox.tenantctl(arguments, in: copy.workspace, environment: FaultLab.dates)
            #expect(rerun.status == reference.result.status, "\(what): re-run \(rerun.status) \(rerun.stderr)")
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

    @Test func reviewKilledAtSampledGitCallsConverges() throws {
        let lab = try FaultLab()
        let arguments = ["roll", "--review", "--jobs", "1"]
        let clean = try lab.copy("review-reference")
        let reference = try lab.runShimmed(arguments, in: clean, environment: FaultLab.dates)
        #expect(reference.result.status == 75, "\(reference.result.stderr)")
        let expected = try Self.branches(lab, clean)
        let proposes = Self.proposals(expected).values.contains { !$0.isEmpty }
        #expect(proposes, "the reference proposes something")
        let count = try Self.sweep(
            lab, arguments, reference: reference, expected: expected, label: "review")
        print("roll --review SIGKILL sweep: \(count) of \(reference.calls.count) git calls")
    }

    @Test func landKilledAtSampledGitCallsConverges() throws {
        let lab = try FaultLab()
        // The template: proposed, and the forge landed the module proposals and general_dev's re-pin.
        let template = (lab.template, lab.template + "/workspace", lab.template + "/remotes")
        let proposed = lab.sandbox.tenantctl(["roll", "--review"], in: template.1, environment: FaultLab.dates)
        #expect(proposed.status == 75, "\(proposed.stderr)")
        let forge = EmulatedForge(sandbox: lab.sandbox)
        let prefix = "refs/heads/\(ReviewOptions.defaultPrefix)/"
        try forge.land(prefix + "t2", into: "t2", method: .merge, in: template.2 + "/Infrastructure.git")
        try forge.land(prefix + "t3", into: "t3", method: .merge, in: template.2 + "/Order.git")
        try forge.land(
            prefix + "general_dev", into: "general_dev", method: .merge, in: template.2 + "/Superproject.git")

        let arguments = ["roll", "--land", "--jobs", "1"]
        let clean = try lab.copy("land-reference")
        let reference = try lab.runShimmed(arguments, in: clean, environment: FaultLab.dates)
        #expect(reference.result.status == 75, "the superproject proposals are open: \(reference.result.stderr)")
        let expected = try Self.branches(lab, clean)
        #expect(expected["Superproject"]?[ReviewOptions.defaultPrefix + "/t2"] != nil, "\(expected)")
        let count = try Self.sweep(lab, arguments, reference: reference, expected: expected, label: "land")
        print("roll --land SIGKILL sweep: \(count) of \(reference.calls.count) git calls")
    }
}
