import Foundation
import TenantKit
import TenantTestSupport
import Testing

/// `module add`, `module remove` and `tag` killed (SIGKILL) or failing at sampled git calls (every call under
/// `scripts/fault-sweep`): refs old or new everywhere, the working copy untouched, no lock left, and the re-run of the
/// same command reaches the uninterrupted run's end state (every ref of every remote, and the working copy).
@Suite(.tags(.slow), .notInTheFastSet) struct LifecycleSweepTests {
    static let addInvoice = ["module", "add", "Invoice", "--url", "../Invoice.git", "--depends-on", "Customer"]

    /// A module remote `Invoice.git` (branch general_dev) next to the template's remotes.
    static func invoiceRemote(_ lab: FaultLab) throws {
        try lab.sandbox.makeRepository("invoice-src", branch: "general_dev", files: ["Invoice.swift": "// invoice\n"])
        try lab.sandbox.git(
            ["clone", "-q", "--bare", lab.sandbox.path("invoice-src"), lab.template + "/remotes/Invoice.git"])
    }

    static func lab(_ command: String, function: String = #function) throws -> LifecycleKillLab {
        switch command {
        case "module add":
            return try LifecycleKillLab(
                Self.addInvoice, setUp: invoiceRemote, setUpKey: "an Invoice remote", function: function)
        case "module remove":
            return try LifecycleKillLab(
                ["module", "remove", "Invoice"], prepare: [Self.addInvoice], setUp: invoiceRemote,
                setUpKey: "an Invoice remote", function: function)
        default:
            return try LifecycleKillLab(["tag", "M1"], function: function)
        }
    }

    @Test(arguments: ["module add", "module remove", "tag"], SweepShard.all(2))
    func killedAtSampledGitCallsConverges(_ command: String, _ shard: SweepShard) throws {
        let run = try Self.lab(command)
        // The uninterrupted run changed the superproject's remote: the sweep compares against a real change.
        #expect(run.remotesAfter["remote/Superproject"] != run.before["remote/Superproject"])
        let unconverged = try run.sweep(shard: shard)
        #expect(unconverged.isEmpty, "\(unconverged.joined(separator: "\n"))")
    }

    @Test(arguments: ["module add", "module remove", "tag"], SweepShard.all(2))
    func failingAtSampledGitCallsConverges(_ command: String, _ shard: SweepShard) throws {
        let run = try Self.lab(command)
        let unconverged = try run.sweep(failing: true, shard: shard)
        #expect(unconverged.isEmpty, "\(unconverged.joined(separator: "\n"))")
    }

    /// Killed right after the superproject push landed: before the fix, the re-run refused what its own run had
    /// published (`module add`: a duplicate module; `module remove`: an unknown module; `tag`: tags that exist).
    @Test(arguments: ["module add", "module remove", "tag"])
    func killedAfterThePushLandedTheRerunFinishes(_ command: String) throws {
        let run = try Self.lab(command)
        let push = try #require(run.pushes(superproject: true).last)
        let copy = try run.killed(at: push, afterTheCall: true)
        #expect(try run.lab.remoteRefs(copy.root) == run.remotesAfter, "the push landed")
        let rerun = run.lab.sandbox.tenantctl(run.arguments, in: copy.workspace, environment: FaultLab.dates)
        #expect(rerun.status == 0, "\(rerun.stderr)")
        #expect(rerun.stdout.contains("nothing to change: the remote has it already"), "\(rerun.stdout)")
        #expect(try run.lab.remoteRefs(copy.root) == run.remotesAfter)
        #expect(try run.lab.workingCopy(copy.root) == run.workingCopyAfter)
        // Positive control: what the run did not publish is still refused.
        let other = try run.lab.copy("other")
        let refused: [String]
        switch command {
        case "module add":
            refused = ["module", "add", "Invoice", "--url", "../Elsewhere.git"]
            _ = run.lab.sandbox.tenantctl(run.arguments, in: other.workspace, environment: FaultLab.dates)
        case "module remove": refused = ["module", "remove", "Billing"]
        default:
            try run.lab.sandbox.git(["tag", "DEV-M2", "t1"], in: other.remotes + "/Superproject.git")
            refused = ["tag", "M2"]
        }
        let refusal = run.lab.sandbox.tenantctl(refused, in: other.workspace, environment: FaultLab.dates)
        #expect(refusal.status != 0, "\(refused): \(refusal.stdout)")
    }

    /// `tenant add`, `tenant remove`, `customize` and its undo killed right after their last push: everything is
    /// published but the journal is unfinished, so the other writing commands are refused. The re-run of the stopped
    /// run finds the remotes as the run leaves them and has nothing to change; its journal ends finished and the
    /// other commands work again. Before the fix the re-run refused ("tenant t4 exists", "already customised",
    /// "unknown tenant", "does not customise") and the unfinished run blocked every other writing command for good.
    @Test(arguments: [
        ["tenant", "add", "t4", "--from", "t2"], ["tenant", "remove", "t2", "--archive"],
        ["customize", "t1", "Article"],
        ["customize", "--undo", "t1", "Article"],
    ])
    func killedAfterTheLastPushTheRerunOfTheStoppedRunFinishesIt(_ arguments: [String]) throws {
        let undo = arguments.contains("--undo")
        let run = try LifecycleKillLab(arguments, prepare: undo ? [["customize", "t1", "Article"]] : [])
        let sandbox = run.lab.sandbox
        let push = try #require((run.pushes(superproject: true) + run.pushes(superproject: false)).max())
        let copy = try run.killed(at: push, afterTheCall: true)
        #expect(try run.lab.remoteRefs(copy.root) == run.remotesAfter, "the push landed")
        let blocked = sandbox.tenantctl(["tag", "M1"], in: copy.workspace, environment: FaultLab.dates)
        #expect(blocked.status == 1, "\(blocked.stdout)\(blocked.stderr)")
        #expect(blocked.stderr.contains("finish it by running it again: tenantctl \(arguments.joined(separator: " "))"))

        let rerun = sandbox.tenantctl(arguments, in: copy.workspace, environment: FaultLab.dates)
        #expect(rerun.status == 0, "\(rerun.stderr)")
        #expect(rerun.stdout.contains("nothing to change: the remote has it already"), "\(rerun.stdout)")
        #expect(try run.lab.remoteRefs(copy.root) == run.remotesAfter)
        #expect(try run.lab.workingCopy(copy.root) == run.workingCopyAfter)
        let runs = sandbox.tenantctl(["runs", "--json"], in: copy.workspace)
        #expect(runs.status == 0, "\(runs.stderr)")
        #expect(!runs.stdout.contains("\"unfinished\""), "\(runs.stdout)")
        let tagged = sandbox.tenantctl(["tag", "M1"], in: copy.workspace, environment: FaultLab.dates)
        #expect(tagged.status == 0, "\(tagged.stderr)")

        // Positive control: run anew, with no stopped run to finish, the command still refuses what exists.
        let again = sandbox.tenantctl(arguments, in: copy.workspace, environment: FaultLab.dates)
        #expect(again.status != 0, "\(again.stdout)\(again.stderr)")
    }

    @Test(arguments: [false, true], SweepShard.all(2))
    func initStoppedAtSampledGitCallsConverges(failing: Bool, _ shard: SweepShard) throws {
        let lab = try InitKillLab()
        // The uninterrupted run wrote the three files; the sweep compares against that.
        #expect(lab.after.files.count == 3, "\(lab.after.files.keys.sorted())")
        let unconverged = try lab.sweep(failing: failing, shard: shard)
        #expect(unconverged.isEmpty, "\(unconverged.joined(separator: "\n"))")
    }
}
