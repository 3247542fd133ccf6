import Foundation
import TenantKit
import TenantTestSupport
import Testing

/// A `roll --undo` killed after its first push (the superproject's) landed, then a colleague pushes to a module
/// branch the roll had moved: the undo's re-run puts back every other ref, keeps the colleague's branch and names it,
/// and ends, so the other writing commands run again. A colleague's push to a superproject branch the stopped undo
/// had put back keeps nothing from going back. Positive control: without the colleague's push the re-run puts
/// everything back and keeps nothing. The re-runs run as processes of the built tenantctl.
@Suite(.tags(.slow), .notInTheFastSet) struct RollUndoResumeTests {
    /// A copy rolled once: the remotes' refs before the roll, and the roll's id.
    static func rolled(_ lab: FaultLab, _ name: String) throws -> (
        copy: FaultLab.Copy, before: [String: [String: String]], id: String
    ) {
        let copy = try lab.copy(name)
        let before = try lab.remoteRefs(copy.root)
        let roll = lab.sandbox.tenantctl(["roll"], in: copy.workspace, environment: FaultLab.dates)
        #expect(roll.status == 0, "\(roll.stderr)")
        return (copy, before, try RunWaysOutTests.lastRunId(lab, "roll", in: copy.workspace))
    }

    /// A colleague's commit pushed on top of `branch` of `repository`'s remote; its id.
    static func colleaguePush(_ lab: FaultLab, _ copy: FaultLab.Copy, _ repository: String, _ branch: String) throws
        -> String
    {
        let clone = copy.root + "/colleague"
        try lab.sandbox.git(["clone", "-q", "--branch", branch, "--", "\(copy.remotes)/\(repository).git", clone])
        try "colleague\n".write(toFile: clone + "/Colleague.txt", atomically: true, encoding: .utf8)
        try lab.sandbox.git(["add", "Colleague.txt"], in: clone)
        try lab.sandbox.git(["commit", "-q", "-m", "colleague"], in: clone)
        try lab.sandbox.git(["push", "-q", "origin", "HEAD:refs/heads/\(branch)"], in: clone)
        return try lab.sandbox.git(["rev-parse", "HEAD"], in: clone)
    }

    /// Where the colleague pushes once the undo was killed after its superproject push: nowhere (the control), on
    /// a module branch the roll moved (still at the roll's merge), or on a superproject branch the stopped undo had
    /// already put back.
    enum Colleague: CaseIterable { case nowhere, module, superproject }

    @Test(arguments: Colleague.allCases) func aStoppedUndoGoesOnAndKeepsWhatAColleaguePushed(colleague: Colleague)
        throws
    {
        let lab = try FaultLab()
        let reference = try Self.rolled(lab, "reference")
        let (undone, calls) = try lab.runShimmed(["roll", "--undo", reference.id], in: reference.copy)
        #expect(undone.status == 0, "\(undone.stderr)")
        let pushes = calls.indices.filter { FaultLab.subcommand(calls[$0]) == "push" }.map { $0 + 1 }
        try #require(pushes.count >= 2, "\(calls)")

        let killed = try Self.rolled(lab, "killed")
        let journal = try RollJournal.read(gitDirectory: killed.copy.workspace + "/.git", runId: killed.id)
        let moved = try #require(
            journal.entries.first {
                ($0.repository == "superproject") == (colleague == .superproject) && $0.published == true
                    && $0.ref.hasPrefix("refs/heads/")
            }, "\(journal.entries)")
        try lab.runKilled(["roll", "--undo", killed.id], in: killed.copy, at: pushes[0], afterTheCall: true)
        let branch = String(moved.ref.dropFirst("refs/heads/".count))
        var expected = killed.before
        if colleague != .nowhere {
            let remote = colleague == .superproject ? "Superproject" : moved.repository
            let theirs = try Self.colleaguePush(lab, killed.copy, remote, branch)
            expected["remote/\(remote)"]?[moved.ref] = theirs
        }

        let rerun = try lab.sandbox.tenantctlProcess(["roll", "--undo", killed.id], in: killed.copy.workspace)
        if colleague == .module {
            // Kept and named, with what to do; everything else is back where it was before the roll.
            #expect(rerun.status == 2, "\(rerun.stdout)\(rerun.stderr)")
            #expect(rerun.stdout.contains("kept (not put back):"), "\(rerun.stdout)")
            #expect(rerun.stdout.contains("\(moved.repository) branch \(branch): now "), "\(rerun.stdout)")
            #expect(rerun.stdout.contains("git revert"), "\(rerun.stdout)")
        } else {
            // The superproject branch went back with the stopped undo's push, and the colleague pushed on top of
            // that: the roll is gone from it, and nothing is kept.
            #expect(rerun.status == 0, "\(rerun.stdout)\(rerun.stderr)")
            #expect(!rerun.stdout.contains("kept"), "\(rerun.stdout)")
        }
        #expect(try lab.remoteRefs(killed.copy.root) == expected, "\(rerun.stdout)")
        #expect(
            try RunWaysOutTests.state(lab, killed.id, in: killed.copy.workspace)
                == (colleague == .module ? "partly undone" : "undone"))
        // Nothing is left unfinished: the stopped undo is finished by its re-run, and writing commands run.
        let runs = try lab.sandbox.runs(in: killed.copy.workspace)
        #expect(!runs.contains { $0["state"] as? String == "unfinished" }, "\(runs)")
        let tagged = lab.sandbox.tenantctl(["tag", "M1"], in: killed.copy.workspace, environment: FaultLab.dates)
        #expect(tagged.status == 0, "\(tagged.stdout)\(tagged.stderr)")
    }

    /// An undo killed before its first push put nothing back; a colleague then pushes on a branch the roll moved.
    /// The re-run refuses whole (the roll stays as it is, with the colleague's commit), and that refusal ends the
    /// stopped undo too: nothing stays blocked.
    @Test func aStoppedUndoThatPutNothingBackEndsWithTheRefusal() throws {
        let lab = try FaultLab()
        let reference = try Self.rolled(lab, "reference")
        let (undone, calls) = try lab.runShimmed(["roll", "--undo", reference.id], in: reference.copy)
        #expect(undone.status == 0, "\(undone.stderr)")
        let push = try #require(calls.firstIndex { FaultLab.subcommand($0) == "push" }, "\(calls)") + 1

        let killed = try Self.rolled(lab, "killed")
        let journal = try RollJournal.read(gitDirectory: killed.copy.workspace + "/.git", runId: killed.id)
        let moved = try #require(
            journal.entries.first {
                $0.repository != "superproject" && $0.published == true && $0.ref.hasPrefix("refs/heads/")
            }, "\(journal.entries)")
        try lab.runKilled(["roll", "--undo", killed.id], in: killed.copy, at: push)
        let stopped = try #require(
            try lab.sandbox.runs(in: killed.copy.workspace).last { $0["state"] as? String == "unfinished" })
        let stoppedId = try #require(stopped["runId"] as? String)
        _ = try Self.colleaguePush(
            lab, killed.copy, moved.repository, String(moved.ref.dropFirst("refs/heads/".count)))
        let remotes = try lab.remoteRefs(killed.copy.root)

        let rerun = try lab.sandbox.tenantctlProcess(["roll", "--undo", killed.id], in: killed.copy.workspace)
        #expect(rerun.status == 1, "\(rerun.stdout)\(rerun.stderr)")
        #expect(rerun.stderr.contains("refusing to undo roll \(killed.id): 1 ref moved since"), "\(rerun.stderr)")
        #expect(rerun.stderr.contains("the stopped undo \(stoppedId) had put nothing back"), "\(rerun.stderr)")
        #expect(try lab.remoteRefs(killed.copy.root) == remotes)
        let runs = try lab.sandbox.runs(in: killed.copy.workspace)
        #expect(!runs.contains { $0["state"] as? String == "unfinished" }, "\(runs)")
        #expect(try RunWaysOutTests.state(lab, stoppedId, in: killed.copy.workspace) == "failed")
        let tagged = lab.sandbox.tenantctl(["tag", "M1"], in: killed.copy.workspace, environment: FaultLab.dates)
        #expect(tagged.status == 0, "\(tagged.stdout)\(tagged.stderr)")
    }

    /// An undo that has put nothing back yet still refuses whole when a ref moved since the roll, changing nothing.
    @Test func aFreshUndoStillRefusesWholeWhenARefMoved() throws {
        let lab = try FaultLab()
        let rolled = try Self.rolled(lab, "fresh")
        let journal = try RollJournal.read(gitDirectory: rolled.copy.workspace + "/.git", runId: rolled.id)
        let moved = try #require(
            journal.entries.first {
                $0.repository != "superproject" && $0.published == true && $0.ref.hasPrefix("refs/heads/")
            }, "\(journal.entries)")
        _ = try Self.colleaguePush(
            lab, rolled.copy, moved.repository, String(moved.ref.dropFirst("refs/heads/".count)))
        let remotes = try lab.remoteRefs(rolled.copy.root)
        let undo = try lab.sandbox.tenantctlProcess(["roll", "--undo", rolled.id], in: rolled.copy.workspace)
        #expect(undo.status == 1, "\(undo.stdout)\(undo.stderr)")
        #expect(undo.stderr.contains("refusing to undo roll \(rolled.id): 1 ref moved since"), "\(undo.stderr)")
        #expect(try lab.remoteRefs(rolled.copy.root) == remotes)
        #expect(try RunWaysOutTests.state(lab, rolled.id, in: rolled.copy.workspace) == "published")
    }
}
