import Foundation
import TenantExample
import TenantKit
import TenantTestSupport
import Testing

/// Putting back a stopped switch acts only on what that switch made: it happens in the worktree the switch ran in,
/// a branch it created goes only while it is at the commit the switch wrote, a module it cloned is deinitialised
/// only without the user's changes, and a checkout is reset only while its files are the two commits' own. A user
/// who went on working after the kill loses nothing. Every command runs as a process of the built tenantctl.
@Suite(.tags(.slow), .notInTheFastSet) struct SwitchRecoveryTests {
    /// The superproject's branch (`refs/heads/…`, empty when detached) and commit, and a file's contents.
    static func head(_ lab: FaultLab, _ directory: String) throws -> [String] {
        [
            try lab.sandbox.gitResult(["symbolic-ref", "-q", "HEAD"], in: directory).stdout
                .trimmingCharacters(in: .whitespacesAndNewlines),
            try lab.sandbox.git(["rev-parse", "HEAD"], in: directory),
        ]
    }

    /// The unfinished switch runs of a workspace.
    static func unfinishedSwitches(_ workspace: String) throws -> [RunJournal] {
        try RunJournal.unfinished(gitDirectory: workspace + "/.git").filter { $0.commandName == "switch" }
    }

    /// A copy with a second worktree `b` of the superproject on a branch of its own at t3's commit (no module
    /// initialised there), and the git calls of an uninterrupted `switch t2` in it.
    static func worktreeCopy(_ lab: FaultLab, _ name: String) throws -> (copy: FaultLab.Copy, worktree: String) {
        let copy = try lab.copy(name)
        let worktree = copy.root + "/b"
        try lab.sandbox.git(["worktree", "add", "-q", "-b", "mine", worktree, "origin/t3"], in: copy.workspace)
        return (copy, worktree)
    }

    /// Runs tenantctl with `arguments` in `directory` through a shim named `name` (killed at call `killAt` when
    /// given): the result and the git calls.
    static func shimmed(
        _ lab: FaultLab, _ arguments: [String], in directory: String, name: String, killAt: Int? = nil
    ) throws -> (result: CLIResult, calls: [String]) {
        let shim = try GitShim(in: lab.sandbox, name: name)
        let result = try lab.sandbox.tenantctlProcess(
            arguments + ["--git", shim.path], in: directory,
            environment: killAt.map { ["SHIM_KILL_AT": "\($0)"] } ?? [:])
        return (result, try shim.calls())
    }

    /// The 1-based index of the first git call in `calls` after the superproject's own checkout (`switch` run in
    /// `superproject`), at which the superproject has moved and no module has.
    static func afterTheSuperprojectMoved(_ calls: [String], superproject: String) throws -> Int {
        let moved = try #require(
            calls.firstIndex { $0.hasPrefix("-C \(superproject) ") && FaultLab.subcommand($0) == "switch" },
            "\(calls)")
        return moved + 2
    }

    @Test func aSwitchStoppedInAnotherWorktreeIsNeverPutBackHere() throws {
        let lab = try FaultLab()
        // Reference: the calls of `switch t2` in the second worktree.
        let reference = try Self.worktreeCopy(lab, "reference")
        let (done, calls) = try Self.shimmed(
            lab, ["switch", "t2"], in: reference.worktree, name: "shim-reference")
        #expect(done.status == 0, "\(done.stderr)")
        let killAt = try Self.afterTheSuperprojectMoved(calls, superproject: reference.worktree)

        for (removed, moved) in [(false, false), (true, false), (true, true)] {
            let (copy, worktree) = try Self.worktreeCopy(lab, removed ? "removed-\(moved)" : "kept")
            // The switch creates t2 (no local branch t2 before it).
            if try lab.sandbox.gitResult(["rev-parse", "--verify", "-q", "refs/heads/t2"], in: copy.workspace)
                .status == 0
            {
                try lab.sandbox.git(["branch", "-D", "t2"], in: copy.workspace)
            }
            let (killed, _) = try Self.shimmed(
                lab, ["switch", "t2"], in: worktree, name: "shim-\(removed)", killAt: killAt)
            #expect(killed.status == -SIGKILL, "\(killed.status) \(killed.stderr)")
            try #require(try !Self.unfinishedSwitches(copy.workspace).isEmpty)
            let worktreeHead = try Self.head(lab, worktree)
            #expect(worktreeHead[0] == "refs/heads/t2", "\(worktreeHead)")
            // The user goes on working in the first worktree: an edit to a tracked file.
            let here = try Self.head(lab, copy.workspace)
            let file = copy.workspace + "/modules.json"
            let original = try String(contentsOfFile: file, encoding: .utf8)
            try (original + " ").write(toFile: file, atomically: true, encoding: .utf8)
            if removed {
                try lab.sandbox.git(["worktree", "remove", "--force", worktree], in: copy.workspace)
                try original.write(toFile: file, atomically: true, encoding: .utf8)
                let left = try lab.sandbox.git(["rev-parse", "refs/heads/t2"], in: copy.workspace)
                // The user moved the branch the stopped switch created: it is theirs now.
                let other = try lab.sandbox.git(["rev-parse", "origin/t3"], in: copy.workspace)
                if moved { try lab.sandbox.git(["update-ref", "refs/heads/t2", other, left], in: copy.workspace) }
                // A dry run says what the switch would do with it, and changes nothing.
                let dry = try lab.sandbox.tenantctlProcess(["switch", "t1", "--dry-run"], in: copy.workspace)
                #expect(dry.status == 0, "\(dry.stdout)\(dry.stderr)")
                #expect(dry.stderr.contains("no longer exists"), "\(dry.stderr)")
                #expect(try Self.unfinishedSwitches(copy.workspace).count == 1)
                // The worktree is gone: its steps are skipped, said, and this worktree switches.
                let result = try lab.sandbox.tenantctlProcess(["switch", "t1"], in: copy.workspace)
                #expect(result.status == 0, "\(result.stderr)")
                #expect(result.stderr.contains("no longer exists"), "\(result.stderr)")
                #expect(try Self.head(lab, copy.workspace)[0] == "refs/heads/t1")
                #expect(try Self.unfinishedSwitches(copy.workspace).isEmpty)
                // The branch the switch created is deleted while it is where the switch left it (checked out
                // nowhere now); moved since, it is kept and named.
                let t2 = try lab.sandbox.gitResult(
                    ["rev-parse", "--verify", "-q", "refs/heads/t2"], in: copy.workspace)
                if moved {
                    #expect(t2.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == other)
                    #expect(result.stderr.contains("kept branch t2"), "\(result.stderr)")
                } else {
                    #expect(t2.status != 0, "\(t2.stdout)")
                    #expect(result.stderr.contains("deleted branch t2"), "\(result.stderr)")
                }
                continue
            }
            // A dry run says that the stopped switch is left to its own worktree (not "run without --dry-run").
            let dry = try lab.sandbox.tenantctlProcess(["switch", "t1", "--dry-run"], in: copy.workspace)
            #expect(dry.status == 1, "\(dry.stdout)\(dry.stderr)")
            #expect(dry.stderr.contains("left to that worktree"), "\(dry.stderr)")
            #expect(dry.stderr.contains(worktree) && !dry.stderr.contains("without --dry-run"), "\(dry.stderr)")
            let refused = try lab.sandbox.tenantctlProcess(["switch", "t1"], in: copy.workspace)
            #expect(refused.status == 1, "\(refused.stdout)\(refused.stderr)")
            #expect(refused.stderr.contains(worktree), "\(refused.stderr)")
            #expect(!refused.stderr.contains("putting back"), "\(refused.stderr)")
            // Nothing of this worktree, nor of the other, changed.
            #expect(try String(contentsOfFile: file, encoding: .utf8) == original + " ")
            #expect(try Self.head(lab, copy.workspace) == here)
            #expect(try Self.head(lab, worktree) == worktreeHead)
            #expect(try Self.unfinishedSwitches(copy.workspace).count == 1)
            // The printed way out runs as printed from here, and puts the other worktree back there.
            let line = try #require(
                refused.stderr.split(separator: "\n").first { $0.contains("tenantctl -C") }, "\(refused.stderr)")
            let command = try #require(line.split(separator: "`").dropFirst().first.map(String.init), "\(line)")
            let words = command.split(separator: " ").dropFirst().map(String.init)
            let wayOut = try lab.sandbox.tenantctlProcess(words, in: copy.workspace)
            #expect(wayOut.status == 0, "\(command): \(wayOut.stderr)")
            #expect(try Self.head(lab, worktree)[0] == "refs/heads/t2")
            #expect(try Self.unfinishedSwitches(copy.workspace).isEmpty)
            #expect(try String(contentsOfFile: file, encoding: .utf8) == original + " ")
            #expect(try Self.head(lab, copy.workspace) == here)
        }
    }

    @Test func aCommitOnTheBranchTheStoppedSwitchCreatedIsKeptAndNamed() throws {
        let lab = try FaultLab()
        let (calls, _, _) = try SwitchSignalFaultTests.reference(lab)
        let copy = try SwitchRunJournalTests.killedSwitch(lab, calls: calls, copy: "commit")
        #expect(try Self.head(lab, copy.workspace)[0] == "refs/heads/t2")
        try "mine\n".write(toFile: copy.workspace + "/mine.txt", atomically: true, encoding: .utf8)
        try lab.sandbox.git(["add", "mine.txt"], in: copy.workspace)
        try lab.sandbox.git(["commit", "-q", "-m", "my work on t2"], in: copy.workspace)
        let mine = try lab.sandbox.git(["rev-parse", "HEAD"], in: copy.workspace)

        let result = try lab.sandbox.tenantctlProcess(["switch", "general_dev"], in: copy.workspace)
        #expect(result.status == 0, "\(result.stderr)")
        // The commit is on its branch, and the output names both.
        #expect(try lab.sandbox.git(["rev-parse", "--verify", "-q", "t2"], in: copy.workspace) == mine)
        #expect(result.stderr.contains("t2") && result.stderr.contains(ObjectID.short(mine)), "\(result.stderr)")
        #expect(try Self.head(lab, copy.workspace)[0] == "refs/heads/general_dev")
        #expect(try Self.unfinishedSwitches(copy.workspace).isEmpty)
    }

    /// A file of the superproject that differs between where it was and where the switch took it (no module).
    static func differingFile(
        _ lab: FaultLab, _ copy: FaultLab.Copy, before: [String: [String]], after: [String: [String]]
    ) throws -> String {
        let from = try #require(before["superproject"]?[1])
        let to = try #require(after["superproject"]?[1])
        let files = try lab.sandbox.git(["diff", "--name-only", "--no-renames", from, to], in: copy.workspace)
            .split(separator: "\n").map(String.init).filter { !$0.hasPrefix("Modules/") && $0 != ".gitmodules" }
        return try #require(files.first, "no file differs")
    }

    @Test func anEditToAFileTheStoppedSwitchChangedIsTheUsers() throws {
        let lab = try FaultLab()
        let (calls, before, after) = try SwitchSignalFaultTests.reference(lab)
        let copy = try SwitchRunJournalTests.killedSwitch(lab, calls: calls, copy: "edit")
        let file = try Self.differingFile(lab, copy, before: before, after: after)
        let path = copy.workspace + "/" + file
        let edited = try String(contentsOfFile: path, encoding: .utf8) + "my edit\n"
        try edited.write(toFile: path, atomically: true, encoding: .utf8)

        // The superproject is kept as the user left it, named with the file; the switch that follows refuses it.
        let refused = try lab.sandbox.tenantctlProcess(["switch", "t2"], in: copy.workspace)
        #expect(refused.status == 1, "\(refused.stdout)\(refused.stderr)")
        #expect(refused.stderr.contains(file), "\(refused.stderr)")
        #expect(refused.stderr.contains("superproject: kept as it is"), "\(refused.stderr)")
        #expect(try String(contentsOfFile: path, encoding: .utf8) == edited)
        #expect(try Self.unfinishedSwitches(copy.workspace).isEmpty)
    }

    /// Case: killed after the superproject moved; the user commits in a module and edits a file; the next switch
    /// to a third tenant refuses before putting anything back, and says nothing changed only when nothing did.
    @Test func aRefusalAfterAStoppedSwitchComesBeforeAnyPutBack() throws {
        let lab = try FaultLab()
        let (calls, before, after) = try SwitchSignalFaultTests.reference(lab)
        let copy = try SwitchRunJournalTests.killedSwitch(lab, calls: calls, copy: "interleaved")
        let changed = try Self.differingFile(lab, copy, before: before, after: after)
        let module = copy.workspace + "/Modules/Order"
        try "order notes\n".write(toFile: module + "/notes.txt", atomically: true, encoding: .utf8)
        try lab.sandbox.git(["add", "notes.txt"], in: module)
        try lab.sandbox.git(["commit", "-q", "-m", "my order work"], in: module)
        let committed = try lab.sandbox.git(["rev-parse", "HEAD"], in: module)
        let file = copy.workspace + "/" + changed
        let edited = try String(contentsOfFile: file, encoding: .utf8) + "my edit\n"
        try edited.write(toFile: file, atomically: true, encoding: .utf8)
        let state = try lab.workingCopy(copy.root)

        let refused = try lab.sandbox.tenantctlProcess(["switch", "t3"], in: copy.workspace)
        #expect(refused.status == 1, "\(refused.stdout)\(refused.stderr)")
        #expect(!refused.stderr.contains("putting back"), "\(refused.stderr)")
        #expect(refused.stderr.contains(changed), "\(refused.stderr)")
        #expect(try lab.workingCopy(copy.root) == state, "something changed")
        #expect(try String(contentsOfFile: file, encoding: .utf8) == edited)
        #expect(try lab.sandbox.git(["branch", "--contains", committed, "--format=%(refname)"], in: module) != "")
    }

    /// The modules a switch changes, in the order it starts changing them (their first checkout, reset, index
    /// refresh or branch write among its git `calls` after the superproject's checkout), with the 1-based index of
    /// that call.
    static func moduleChanges(_ calls: [String]) -> [(module: String, call: Int)] {
        var found: [(module: String, call: Int)] = []
        let superproject = calls.firstIndex {
            SwitchSignalFaultTests.module(of: $0) == nil && ["switch", "reset"].contains(FaultLab.subcommand($0))
        }
        for (offset, call) in calls.enumerated() where offset > superproject ?? calls.count {
            guard let module = SwitchSignalFaultTests.module(of: call),
                ["switch", "reset", "update-index", "update-ref", "branch"].contains(FaultLab.subcommand(call)),
                !found.contains(where: { $0.module == module })
            else { continue }
            found.append((module, offset + 1))
        }
        return found
    }

    /// Killed after k of its n module checkouts landed; the user edits one landed module and commits in another.
    /// The next command keeps both, naming them, and puts back everything else the run changed; the journal of the
    /// killed run lists exactly the steps that landed. Positive control: without the user's work, everything goes
    /// back.
    @Test func aKilledSwitchKeepsTheUsersModulesAndPutsBackTheRest() throws {
        let lab = try FaultLab()
        // From t2 to t3: Infrastructure and Customer go back to the general pins, Order to t3's.
        let onT2 = lab.sandbox.tenantctl(["switch", "t2"], in: lab.template + "/workspace")
        try #require(onT2.status == 0, "\(onT2.stderr)")
        let reference = try lab.copy("reference")
        let before = try lab.workingCopy(reference.root)
        let (done, calls) = try lab.runShimmed(["switch", "t3"], in: reference)
        #expect(done.status == 0, "\(done.stderr)")
        let changes = Self.moduleChanges(calls)
        try #require(changes.count >= 3, "\(changes) \(calls)")
        // Killed as the third module starts: the first two modules' checkouts have landed.
        let (edited, committed) = (changes[0].module, changes[1].module)
        for userWorks in [true, false] {
            let copy = try lab.copy(userWorks ? "user" : "control")
            try lab.runKilled(["switch", "t3"], in: copy, at: changes[2].call)
            let run = try SwitchRunJournalTests.stoppedRun(copy.workspace)
            let landed = Set(run.entries.filter { $0.landed == true }.map(\.repository))
            #expect(landed == ["superproject", edited, committed], "\(run.entries)")
            guard userWorks else {
                let result = try lab.sandbox.tenantctlProcess(["switch", "t2"], in: copy.workspace)
                #expect(result.status == 0, "\(result.stderr)")
                #expect(try lab.workingCopy(copy.root) == before, "\(result.stderr)")
                #expect(try Self.unfinishedSwitches(copy.workspace).isEmpty)
                continue
            }
            let editedPath = copy.workspace + "/Modules/" + edited
            let file = try #require(
                try lab.sandbox.git(["ls-files"], in: editedPath).split(separator: "\n").first.map(String.init))
            let text = try String(contentsOfFile: editedPath + "/" + file, encoding: .utf8) + "my edit\n"
            try text.write(toFile: editedPath + "/" + file, atomically: true, encoding: .utf8)
            let editedState = try lab.userState(editedPath)
            let committedPath = copy.workspace + "/Modules/" + committed
            try "mine\n".write(toFile: committedPath + "/Mine.txt", atomically: true, encoding: .utf8)
            try lab.sandbox.git(["add", "Mine.txt"], in: committedPath)
            try lab.sandbox.git(["commit", "-q", "-m", "my work"], in: committedPath)
            let mine = try lab.sandbox.git(["rev-parse", "HEAD"], in: committedPath)

            let result = try lab.sandbox.tenantctlProcess(["switch", "t2"], in: copy.workspace)
            // Both are kept and named: the edited file, the commit.
            #expect(result.stderr.contains("Modules/\(edited)/\(file)"), "\(result.stderr)")
            #expect(result.stderr.contains(ObjectID.short(mine)), "\(result.stderr)")
            #expect(try String(contentsOfFile: editedPath + "/" + file, encoding: .utf8) == text)
            #expect(try lab.userState(editedPath) == editedState)
            #expect(try lab.sandbox.git(["rev-parse", "HEAD"], in: committedPath) == mine)
            // Everything else the run changed is back where it was.
            let now = try lab.workingCopy(copy.root)
            #expect(now["superproject"]?[0...2] == before["superproject"]?[0...2], "\(result.stderr)")
            for module in FaultLab.modules where module != edited && module != committed {
                #expect(now[module] == before[module], "\(module): \(result.stderr)")
            }
            // The stopped run is settled: it blocks nothing.
            #expect(try Self.unfinishedSwitches(copy.workspace).isEmpty, "\(result.stderr)")
        }
    }

    /// A module the stopped switch cloned holds an edit of the user's: the re-run refuses naming it, and the edit
    /// survives. Positive control: without the edit the re-run puts it back and switches.
    @Test func aModuleTheStoppedSwitchClonedKeepsTheUsersEdit() throws {
        let lab = try FaultLab()
        func deinitialised(_ name: String) throws -> FaultLab.Copy {
            let copy = try lab.copy(name)
            try lab.sandbox.git(["submodule", "deinit", "-q", "--force", "Modules/Order"], in: copy.workspace)
            return copy
        }
        let reference = try deinitialised("reference")
        let (done, calls) = try lab.runShimmed(["switch", "t2"], in: reference)
        #expect(done.status == 0, "\(done.stderr)")
        let after = try lab.workingCopy(reference.root)
        // Killed at the call after the clone of Order.
        let cloned = try #require(
            calls.firstIndex { FaultLab.subcommand($0) == "submodule" && $0.contains("Modules/Order") }, "\(calls)")
        for edit in [true, false] {
            let copy = try deinitialised(edit ? "edited" : "control")
            try lab.runKilled(["switch", "t2"], in: copy, at: cloned + 2)
            let order = copy.workspace + "/Modules/Order"
            try #require(FileManager.default.fileExists(atPath: order + "/.git"), "Order was not cloned")
            let tracked = try #require(
                try lab.sandbox.git(["ls-files"], in: order).split(separator: "\n").first.map(String.init))
            let path = order + "/" + tracked
            let edited = try String(contentsOfFile: path, encoding: .utf8) + "my edit\n"
            if edit { try edited.write(toFile: path, atomically: true, encoding: .utf8) }
            let rerun = try lab.sandbox.tenantctlProcess(["switch", "t2"], in: copy.workspace)
            if edit {
                #expect(rerun.status == 1, "\(rerun.stdout)\(rerun.stderr)")
                #expect(rerun.stderr.contains("Modules/Order/" + tracked), "\(rerun.stderr)")
                #expect(try String(contentsOfFile: path, encoding: .utf8) == edited)
            } else {
                #expect(rerun.status == 0, "\(rerun.stderr)")
                #expect(try lab.workingCopy(copy.root) == after)
            }
        }
    }
}

/// SIGTERM during a switch: the command stops its git processes, puts every repository back and exits 130; the
/// run blocks nothing and the next switch is a plain one.
@Suite(.tags(.slow), .notInTheFastSet) struct SwitchInterruptPutBackTests {
    @Test(arguments: [SIGTERM, SIGINT])
    func anInterruptAtTheFirstModuleCheckoutPutsEveryRepositoryBack(signal: Int32) throws {
        let lab = try FaultLab()
        let (calls, before, after) = try SwitchSignalFaultTests.reference(lab)
        let copy = try lab.copy("term")
        let run = try lab.terminate(
            ["switch", "t2"], in: copy, at: try FaultLab.firstModuleCheckout(in: calls), signal: signal)
        let result = try #require(run.wait(seconds: 60), "tenantctl did not stop")
        #expect(result.status == 130, "\(result.stderr)")
        #expect(try lab.workingCopy(copy.root) == before, "\(result.stderr)")
        #expect(try SwitchRecoveryTests.unfinishedSwitches(copy.workspace).isEmpty)
        #expect(lab.staleLocks(copy.root).isEmpty, "\(lab.staleLocks(copy.root))")
        let rerun = try lab.sandbox.tenantctlProcess(["switch", "t2"], in: copy.workspace)
        #expect(rerun.status == 0, "\(rerun.stderr)")
        #expect(!rerun.stderr.contains("putting back"), "\(rerun.stderr)")
        #expect(try lab.workingCopy(copy.root) == after)
    }
}

/// The light end-to-end case of the put-back rules, in the fast set: a switch run left unfinished just after its
/// last step (its journal marked running again, as a kill right then leaves it); the user commits on the branch it
/// created; the next switch keeps the branch with the commit and names both.
@Suite struct SwitchPutBackKeepsTheUsersCommitTests {
    @Test func aCommitOnTheStoppedSwitchsNewBranchIsKept() throws {
        let sandbox = try GitSandbox()
        let example = try sandbox.exampleCopy(in: sandbox.path("erp"), stage: .beforeUpdates)
        let switched = sandbox.tenantctl(["switch", "t2"], in: example.workspace)
        #expect(switched.status == 0, "\(switched.stderr)")
        let gitDirectory = example.workspace + "/.git"
        var run = try #require(
            try RunJournal.all(gitDirectory: gitDirectory).runs.last { $0.commandName == "switch" })
        run.state = .running
        try run.write(gitDirectory: gitDirectory)
        try sandbox.write("erp/workspace/mine.txt", "mine\n")
        try sandbox.git(["add", "mine.txt"], in: example.workspace)
        try sandbox.git(["commit", "-q", "-m", "my work on t2"], in: example.workspace)
        let mine = try sandbox.git(["rev-parse", "HEAD"], in: example.workspace)

        let result = sandbox.tenantctl(["switch", "general_dev"], in: example.workspace)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try sandbox.git(["rev-parse", "--verify", "-q", "t2"], in: example.workspace) == mine)
        #expect(result.stderr.contains("branch t2 is at \(ObjectID.short(mine))"), "\(result.stderr)")
        #expect(try sandbox.git(["symbolic-ref", "--short", "HEAD"], in: example.workspace) == "general_dev")
        let stopped = try RunJournal.read(gitDirectory: gitDirectory, runId: run.runId)
        #expect(stopped.state == .aborted, "\(stopped)")
    }

    /// The same, with an edit of the user's in a module the stopped switch had checked out: that module is kept as
    /// it is and named, the superproject and the other modules are put back, and the steps put back are marked
    /// undone in the stopped run's journal.
    @Test func anEditedModuleIsKeptAndTheRestIsPutBack() throws {
        let sandbox = try GitSandbox()
        let example = try sandbox.exampleCopy(in: sandbox.path("erp"), stage: .beforeUpdates)
        let branchBefore = try sandbox.git(["symbolic-ref", "HEAD"], in: example.workspace)
        let switched = sandbox.tenantctl(["switch", "t2"], in: example.workspace)
        #expect(switched.status == 0, "\(switched.stderr)")
        let gitDirectory = example.workspace + "/.git"
        var run = try #require(
            try RunJournal.all(gitDirectory: gitDirectory).runs.last { $0.commandName == "switch" })
        let landed = Set(run.entries.filter { $0.landed == true }.map(\.repository))
        #expect(landed.contains("superproject") && landed.contains("Customer"), "\(run.entries)")
        run.state = .running
        try run.write(gitDirectory: gitDirectory)
        let customer = example.workspace + "/Modules/Customer"
        let file = try #require(
            try sandbox.git(["ls-files"], in: customer).split(separator: "\n").first.map(String.init))
        let edited = try String(contentsOfFile: customer + "/" + file, encoding: .utf8) + "my edit\n"
        try edited.write(toFile: customer + "/" + file, atomically: true, encoding: .utf8)

        let result = sandbox.tenantctl(["switch", "general_dev"], in: example.workspace)
        #expect(result.stderr.contains("Customer: kept as it is"), "\(result.stderr)")
        #expect(result.stderr.contains("Modules/Customer/\(file)"), "\(result.stderr)")
        #expect(try String(contentsOfFile: customer + "/" + file, encoding: .utf8) == edited)
        #expect(try sandbox.git(["symbolic-ref", "HEAD"], in: example.workspace) == branchBefore)
        let stopped = try RunJournal.read(gitDirectory: gitDirectory, runId: run.runId)
        #expect(stopped.state == .aborted, "\(stopped)")
        let undone = Set(stopped.entries.filter { $0.undone == true }.map(\.repository))
        #expect(undone.contains("superproject") && !undone.contains("Customer"), "\(stopped.entries)")
    }
}
