import Foundation
import TenantKit
import TenantTestSupport
import Testing

/// Every unfinished run has a way out that works as printed: a run killed before its first change blocks nothing;
/// `runs --abort` takes back what a run left, where it is still as the run left it; `runs --forget` says what stays
/// on the remotes and unblocks; a compensated run ends failed; an undo is a run of its own; a removed worktree
/// leaves a way out that runs from here.
@Suite(.tags(.slow), .notInTheFastSet) struct RunWaysOutTests {
    static let pre = "#!/bin/sh\necho 'protected branch: pushes refused' >&2\nexit 1\n"

    /// Installs a `pre-receive` hook that rejects every push to the remote `name` of `copy`.
    static func reject(_ lab: FaultLab, _ copy: FaultLab.Copy, _ name: String) throws {
        let hook = "\(copy.remotes)/\(name).git/hooks/pre-receive"
        _ = try lab.sandbox.writeExecutable(String(hook.dropFirst(lab.sandbox.root.count + 1)), pre)
    }

    /// The run id of the last run of `command` in `workspace`.
    static func lastRunId(_ lab: FaultLab, _ command: String, in workspace: String) throws -> String {
        try #require(try lab.sandbox.lastRun(command, in: workspace)["runId"] as? String)
    }

    /// The state of run `id` in `runs --json`.
    static func state(_ lab: FaultLab, _ id: String, in workspace: String) throws -> String? {
        try lab.sandbox.runs(in: workspace).first { $0["runId"] as? String == id }?["state"] as? String
    }

    /// Runs a printed `tenantctl …` line as printed (its words, no shell) in `directory`.
    static func runPrinted(_ line: String, _ lab: FaultLab, in directory: String) throws -> CLIResult {
        let words = DocsRunTests.words(line)
        try #require(words.first == "tenantctl", "not a tenantctl command: \(line)")
        return lab.sandbox.tenantctl(Array(words.dropFirst()), in: directory, environment: FaultLab.dates)
    }

    /// The command printed after `prefix` on a line of `text`.
    static func printed(after prefix: String, in text: String) throws -> String {
        let line = try #require(text.split(separator: "\n").first { $0.contains(prefix) }, "no \(prefix) in \(text)")
        let range = try #require(line.range(of: prefix))
        return String(line[range.upperBound...]).trimmingCharacters(in: .whitespaces)
    }

    /// A run killed while it fetched (before its first change) ends as if it never started: a different command
    /// (the same one with other arguments, another one) is not refused. Positive control: a run killed after its
    /// first push still blocks the others.
    @Test func aRunKilledBeforeItsFirstChangeBlocksNothing() throws {
        let lab = try FaultLab()
        let probe = try lab.copy("probe")
        let (_, calls) = try lab.runShimmed(["tenant", "remove", "t3"], in: probe, environment: FaultLab.dates)
        let fetch = try #require(calls.firstIndex { FaultLab.subcommand($0) == "fetch" }) + 1
        let copy = try lab.copy("killed")
        try lab.runKilled(["tenant", "remove", "t3"], in: copy, at: fetch)
        let killed = try Self.lastRunId(lab, "tenant remove", in: copy.workspace)
        #expect(try Self.state(lab, killed, in: copy.workspace) == "not started")
        let other = lab.sandbox.tenantctl(
            ["tenant", "remove", "t3", "--archive"], in: copy.workspace, environment: FaultLab.dates)
        #expect(other.status == 0, "\(other.stdout)\(other.stderr)")

        // pin killed while it fetched a module that has an unpushed commit: tag is not refused.
        let pinLab = try FaultLab()
        try PinConvergenceTests.commitInCustomer(pinLab)
        let pinProbe = try pinLab.copy("probe")
        let (refused, pinCalls) = try pinLab.runShimmed(["pin"], in: pinProbe, environment: FaultLab.dates)
        #expect(refused.status == 1, "\(refused.stdout)\(refused.stderr)")
        let moduleFetch = try #require(pinCalls.firstIndex { FaultLab.subcommand($0) == "fetch" }) + 1
        let pinCopy = try pinLab.copy("killed")
        try pinLab.runKilled(["pin"], in: pinCopy, at: moduleFetch)
        let tagged = pinLab.sandbox.tenantctl(["tag", "M1"], in: pinCopy.workspace, environment: FaultLab.dates)
        #expect(tagged.status == 0, "\(tagged.stdout)\(tagged.stderr)")

        // Positive control: killed once its first module push landed, the run blocks the others.
        let archive = ["tenant", "remove", "t3", "--archive"]
        let control = try lab.copy("control")
        let (_, archiveCalls) = try lab.runShimmed(archive, in: try lab.copy("probe-archive"))
        let push = try #require(archiveCalls.firstIndex { FaultLab.subcommand($0) == "push" }) + 1
        try lab.runKilled(archive, in: control, at: push, afterTheCall: true)
        let blocked = lab.sandbox.tenantctl(["tag", "M1"], in: control.workspace, environment: FaultLab.dates)
        #expect(blocked.status == 1, "\(blocked.stdout)\(blocked.stderr)")
        #expect(blocked.stderr.contains("tenantctl runs --forget"), "\(blocked.stderr)")
    }

    /// `resolve t2` killed during its fetch, after a roll left t2 conflicted: the roll it needs first is not refused
    /// (before, roll refused because of the killed resolve, and `resolve --abort` had no resolution to abort).
    @Test func aResolveKilledDuringItsFetchDoesNotBlockTheRoll() throws {
        let lab = try FaultLab(stage: .conflict)
        let rolled = lab.sandbox.tenantctl(["roll"], in: "\(lab.template)/workspace", environment: FaultLab.dates)
        #expect(rolled.status == 2, "\(rolled.stderr)")
        let (_, calls) = try lab.runShimmed(["resolve", "t2"], in: try lab.copy("probe"), environment: FaultLab.dates)
        let fetch = try #require(calls.firstIndex { FaultLab.subcommand($0) == "fetch" }) + 1
        let copy = try lab.copy("killed")
        try lab.runKilled(["resolve", "t2"], in: copy, at: fetch)
        let roll = lab.sandbox.tenantctl(["roll"], in: copy.workspace, environment: FaultLab.dates)
        #expect(roll.status == 2, "\(roll.stdout)\(roll.stderr)")
        #expect(!roll.stderr.contains("refusing to run"), "\(roll.stderr)")
        let resolve = lab.sandbox.tenantctl(["resolve", "t2"], in: copy.workspace, environment: FaultLab.dates)
        #expect(resolve.status == 2, "\(resolve.stdout)\(resolve.stderr)")
    }

    /// A protected superproject branch refuses pin's push after the module's push landed. The refusal of the other
    /// commands names `runs --abort` and `runs --forget`; the abort puts the module branch and the local branch back
    /// (the remotes and the working copy as before the pin), the run ends aborted, and switching works.
    @Test func aPinWhoseSuperprojectPushIsRefusedIsAbortedAsPrinted() throws {
        let lab = try FaultLab()
        try PinConvergenceTests.commitInCustomer(lab)
        let copy = try lab.copy("abort")
        try Self.reject(lab, copy, "Superproject")
        let remotesBefore = try lab.remoteRefs(copy.root)
        let workingCopyBefore = try lab.workingCopy(copy.root)
        let pin = lab.sandbox.tenantctl(["pin", "--push"], in: copy.workspace, environment: FaultLab.dates)
        #expect(pin.status == 1, "\(pin.stdout)\(pin.stderr)")
        #expect(try lab.remoteRefs(copy.root) != remotesBefore)  // the module branch landed
        let id = try Self.lastRunId(lab, "pin", in: copy.workspace)
        #expect(pin.stderr.contains("tenantctl runs --abort \(id)"), "\(pin.stderr)")
        let blocked = lab.sandbox.tenantctl(["switch", "t1"], in: copy.workspace, environment: FaultLab.dates)
        #expect(blocked.status == 1, "\(blocked.stdout)\(blocked.stderr)")
        #expect(blocked.stderr.contains("tenantctl runs --forget \(id)"), "\(blocked.stderr)")
        let abort = try Self.printed(after: "or take it back: ", in: blocked.stderr)
        #expect(abort == "tenantctl runs --abort \(id)")
        let aborted = try Self.runPrinted(abort, lab, in: copy.workspace)
        #expect(aborted.status == 0, "\(aborted.stdout)\(aborted.stderr)")
        #expect(aborted.stdout.contains("taken back:"), "\(aborted.stdout)")
        #expect(try lab.remoteRefs(copy.root) == remotesBefore)
        #expect(try lab.workingCopy(copy.root) == workingCopyBefore)
        #expect(try Self.state(lab, id, in: copy.workspace) == "aborted")
        let abortRun = try Self.lastRunId(lab, "runs", in: copy.workspace)
        #expect(try Self.state(lab, abortRun, in: copy.workspace) == "finished")
        let switched = lab.sandbox.tenantctl(["switch", "t1"], in: copy.workspace, environment: FaultLab.dates)
        #expect(switched.status == 0, "\(switched.stdout)\(switched.stderr)")

        // A colleague pushed on top of the module branch the pin pushed: the abort keeps it and names it.
        let moved = try lab.copy("moved")
        try Self.reject(lab, moved, "Superproject")
        let again = lab.sandbox.tenantctl(["pin", "--push"], in: moved.workspace, environment: FaultLab.dates)
        #expect(again.status == 1)
        let customer = moved.remotes + "/Customer.git"
        let clone = lab.sandbox.path("colleague")
        try lab.sandbox.git(["clone", "-q", "--branch", "t2", customer, clone], in: lab.sandbox.root)
        try lab.sandbox.commit(in: "colleague", file: "Other.swift", content: "// other\n", message: "colleague")
        try lab.sandbox.git(["push", "-q", "origin", "t2"], in: clone)
        let tip = try lab.sandbox.git(["rev-parse", "refs/heads/t2"], in: customer)
        let movedId = try Self.lastRunId(lab, "pin", in: moved.workspace)
        let kept = lab.sandbox.tenantctl(["runs", "--abort", movedId], in: moved.workspace)
        #expect(kept.status == 0, "\(kept.stdout)\(kept.stderr)")
        #expect(kept.stdout.contains("kept:") && kept.stdout.contains("Customer branch t2"), "\(kept.stdout)")
        #expect(try lab.sandbox.git(["rev-parse", "refs/heads/t2"], in: customer) == tip)
    }

    /// The same refused pin given up: `runs --forget` says what stays on the remotes (the module branch as the run
    /// left it), marks the run forgotten, and switching works.
    @Test func aPinWhoseSuperprojectPushIsRefusedIsForgottenAfterShowingTheRemotes() throws {
        let lab = try FaultLab()
        try PinConvergenceTests.commitInCustomer(lab)
        let copy = try lab.copy("forget")
        try Self.reject(lab, copy, "Superproject")
        let pin = lab.sandbox.tenantctl(["pin", "--push"], in: copy.workspace, environment: FaultLab.dates)
        #expect(pin.status == 1, "\(pin.stdout)\(pin.stderr)")
        let pushed = try lab.remoteRefs(copy.root)
        let id = try Self.lastRunId(lab, "pin", in: copy.workspace)
        let blocked = lab.sandbox.tenantctl(["tag", "M1"], in: copy.workspace, environment: FaultLab.dates)
        let forget = try Self.printed(
            after: "give it up (what it left on the remotes stays, shown first): ", in: blocked.stderr)
        let forgotten = try Self.runPrinted(forget, lab, in: copy.workspace)
        #expect(forgotten.status == 0, "\(forgotten.stdout)\(forgotten.stderr)")
        #expect(forgotten.stdout.contains("Customer branch t2: at "), "\(forgotten.stdout)")
        #expect(forgotten.stdout.contains("as the run left it"), "\(forgotten.stdout)")
        #expect(try lab.remoteRefs(copy.root) == pushed)
        #expect(try Self.state(lab, id, in: copy.workspace) == "forgotten")
        let switched = lab.sandbox.tenantctl(["switch", "t1"], in: copy.workspace, environment: FaultLab.dates)
        #expect(switched.status == 0, "\(switched.stdout)\(switched.stderr)")
    }

    /// A server hook rejects the superproject push of `customize`; the module branch pushed before is deleted again.
    /// The run ends failed with the compensation journalled, and blocks nothing.
    @Test func aLifecycleRunWhoseEveryPushWasTakenBackEndsFailed() throws {
        let lab = try FaultLab()
        let copy = try lab.copy("rejected")
        try Self.reject(lab, copy, "Superproject")
        let remotesBefore = try lab.remoteRefs(copy.root)
        let run = lab.sandbox.tenantctl(
            ["customize", "t1", "Article"], in: copy.workspace, environment: FaultLab.dates)
        #expect(run.status == 1, "\(run.stdout)\(run.stderr)")
        #expect(run.stderr.contains("deleted again"), "\(run.stderr)")
        #expect(try lab.remoteRefs(copy.root) == remotesBefore)
        let summary = try lab.sandbox.lastRun("customize", in: copy.workspace)
        #expect(summary["state"] as? String == "failed", "\(summary)")
        let refs = try #require(summary["refs"] as? [[String: Any]])
        let article = refs.filter { $0["repository"] as? String == "Article" }
        #expect(!article.isEmpty && article.allSatisfy { $0["undone"] as? Bool == true }, "\(refs)")
        let tagged = lab.sandbox.tenantctl(["switch", "t2"], in: copy.workspace, environment: FaultLab.dates)
        #expect(tagged.status == 0, "\(tagged.stdout)\(tagged.stderr)")
    }

    /// A lifecycle run killed after its first push in a worktree that was removed since: the refusal in the main
    /// worktree prints a re-run that works from there (no `-C` to the removed worktree).
    @Test func theWayOutOfARunInARemovedWorktreeRunsFromHere() throws {
        let lab = try FaultLab()
        let arguments = ["tenant", "add", "t4", "--from", "t2"]
        func worktree(_ copy: FaultLab.Copy) throws -> FaultLab.Copy {
            let path = copy.root + "/second"
            try lab.sandbox.git(["worktree", "add", "-q", "--detach", path], in: copy.workspace)
            return (copy.root, path, copy.remotes)
        }
        let probe = try worktree(try lab.copy("probe"))
        let (reference, calls) = try lab.runShimmed(arguments, in: probe, environment: FaultLab.dates)
        try #require(reference.status == 0, "\(reference.stderr)")
        let push = try #require(calls.firstIndex { FaultLab.subcommand($0) == "push" }) + 1
        let copy = try lab.copy("killed")
        let second = try worktree(copy)
        try lab.runKilled(arguments, in: second, at: push, afterTheCall: true)
        try lab.sandbox.git(["worktree", "remove", "--force", second.workspace], in: copy.workspace)
        let blocked = lab.sandbox.tenantctl(["tag", "M1"], in: copy.workspace, environment: FaultLab.dates)
        #expect(blocked.status == 1, "\(blocked.stdout)\(blocked.stderr)")
        let rerun = try Self.printed(after: "finish it by running it again: ", in: blocked.stderr)
        #expect(!rerun.contains("-C"), "\(rerun)")
        let finished = try Self.runPrinted(rerun, lab, in: copy.workspace)
        #expect(finished.status == 0, "\(finished.stdout)\(finished.stderr)")
        #expect(try lab.remoteRefs(copy.root) == lab.remoteRefs(probe.root))
    }

    /// `roll --undo` killed once its first push (the superproject's) landed: `runs` shows the roll partly undone
    /// and the undo unfinished, other writing commands refuse naming the undo, and its re-run converges.
    @Test func anUndoKilledBetweenItsPushesIsARunOfItsOwn() throws {
        let lab = try FaultLab()
        func rolled(_ name: String) throws -> (copy: FaultLab.Copy, before: [String: [String: String]], id: String) {
            let copy = try lab.copy(name)
            let before = try lab.remoteRefs(copy.root)
            let roll = lab.sandbox.tenantctl(["roll"], in: copy.workspace, environment: FaultLab.dates)
            #expect(roll.status == 0, "\(roll.stderr)")
            return (copy, before, try Self.lastRunId(lab, "roll", in: copy.workspace))
        }
        let reference = try rolled("reference")
        let (undone, calls) = try lab.runShimmed(["roll", "--undo", reference.id], in: reference.copy)
        #expect(undone.status == 0, "\(undone.stderr)")
        #expect(try lab.remoteRefs(reference.copy.root) == reference.before)
        let pushes = calls.indices.filter { FaultLab.subcommand(calls[$0]) == "push" }.map { $0 + 1 }
        try #require(pushes.count >= 2, "\(calls)")

        let killed = try rolled("killed")
        try lab.runKilled(["roll", "--undo", killed.id], in: killed.copy, at: pushes[0], afterTheCall: true)
        let runs = try lab.sandbox.runs(in: killed.copy.workspace)
        #expect(runs.first { $0["runId"] as? String == killed.id }?["state"] as? String == "partly undone", "\(runs)")
        let undo = try #require(runs.last { ($0["arguments"] as? [String])?.first == "--undo" })
        #expect(undo["state"] as? String == "unfinished", "\(runs)")
        for blocked in [["tag", "M1"], ["roll"]] {
            let refused = lab.sandbox.tenantctl(blocked, in: killed.copy.workspace, environment: FaultLab.dates)
            #expect(refused.status == 1, "\(blocked): \(refused.stdout)\(refused.stderr)")
            #expect(
                refused.stderr.contains("finish it by running it again: tenantctl roll --undo \(killed.id)"),
                "\(refused.stderr)")
        }
        let rerun = lab.sandbox.tenantctl(["roll", "--undo", killed.id], in: killed.copy.workspace)
        #expect(rerun.status == 0, "\(rerun.stdout)\(rerun.stderr)")
        #expect(try lab.remoteRefs(killed.copy.root) == killed.before)
        #expect(try Self.state(lab, killed.id, in: killed.copy.workspace) == "undone")
        let tagged = lab.sandbox.tenantctl(["tag", "M1"], in: killed.copy.workspace, environment: FaultLab.dates)
        #expect(tagged.status == 0, "\(tagged.stdout)\(tagged.stderr)")
    }
}
