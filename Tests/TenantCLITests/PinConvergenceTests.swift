import Foundation
import TenantKit
import TenantTestSupport
import Testing

/// `pin --push` stopped half-way (killed, a failed push) and after a roll moved the remote tenant branch: the re-run
/// publishes the pin, and never leaves the local branch diverged from its remote.
@Suite(.tags(.slow), .notInTheFastSet) struct PinConvergenceTests {
    /// Runs a `git …` command as tenantctl printed it, from `directory`: its words (quotes kept together, as a
    /// shell splits them) as git's argument vector, no shell.
    static func runPrinted(_ command: String, in directory: String, lab: FaultLab) throws -> (
        status: Int32, stdout: String, stderr: String
    ) {
        let words = DocsRunTests.words(command)
        try #require(words.first == "git", "not a git command: \(command)")
        return try lab.sandbox.gitResult(Array(words.dropFirst()), in: directory)
    }

    /// The template is on t2 with a new local commit in Customer (customised by t2; the example's roll leaves it).
    static func commitInCustomer(_ lab: FaultLab) throws {
        let switched = lab.sandbox.tenantctl(["switch", "t2"], in: lab.template + "/workspace")
        try #require(switched.status == 0, "\(switched.stderr)")
        let customer = lab.template + "/workspace/Modules/Customer"
        try "// fix\n".write(toFile: customer + "/Fix.swift", atomically: false, encoding: .utf8)
        try lab.sandbox.git(["add", "--", "Fix.swift"], in: customer)
        try lab.sandbox.git(["commit", "-q", "-m", "t2 fix"], in: customer)
    }

    /// A copy named `name` of a lab whose template has Customer's fix (``commitInCustomer``), rolled: its remote
    /// superproject and the tip roll left on t2. `before` runs in the copy first (a local commit).
    static func rolledCopy(_ lab: FaultLab, _ name: String, before: (FaultLab.Copy) throws -> Void = { _ in }) throws
        -> (copy: FaultLab.Copy, superRemote: String, rolled: String)
    {
        try commitInCustomer(lab)
        let copy = try lab.copy(name)
        try before(copy)
        let roll = lab.sandbox.tenantctl(["roll"], in: copy.workspace, environment: FaultLab.dates)
        #expect(roll.status == 0, "\(roll.stderr)")
        let superRemote = copy.remotes + "/Superproject.git"
        return (copy, superRemote, try lab.sandbox.git(["rev-parse", "refs/heads/t2"], in: superRemote))
    }

    /// Expects the pin commit at `commit` to pin what roll pinned at `rolled` for Infrastructure (the module the
    /// pin leaves), then runs the switch the pin's output names and expects a clean superproject.
    static func expectTheRollsPinsKeptAndTheSwitchBringsTheModulesUp(
        _ lab: FaultLab, _ copy: FaultLab.Copy, commit: String, in repository: String, rolled: String,
        superRemote: String, pinOutput: String, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        #expect(
            try lab.sandbox.git(["rev-parse", "\(commit):Modules/Infrastructure"], in: repository)
                == lab.sandbox.git(["rev-parse", "\(rolled):Modules/Infrastructure"], in: superRemote),
            sourceLocation: sourceLocation)
        let fix = "tenantctl switch t2"
        #expect(pinOutput.contains(fix), "\(pinOutput)", sourceLocation: sourceLocation)
        let switched = lab.sandbox.tenantctl(
            fix.split(separator: " ").dropFirst().map(String.init), in: copy.workspace, environment: FaultLab.dates)
        #expect(switched.status == 0, "\(switched.stderr)", sourceLocation: sourceLocation)
        #expect(
            try lab.sandbox.git(["status", "--porcelain"], in: copy.workspace) == "", sourceLocation: sourceLocation)
    }

    static func pinRun(function: String = #function) throws -> LifecycleKillLab {
        try LifecycleKillLab(
            ["pin", "--push"], setUp: commitInCustomer, setUpKey: "a commit in Customer", function: function)
    }

    @Test func killedBetweenStagingAndCommitThenReRunPublishes() throws {
        let run = try Self.pinRun()
        let commit = try #require(run.calls.indices.last { FaultLab.subcommand(run.calls[$0]) == "commit" })
        #expect(FaultLab.subcommand(run.calls[commit - 1]) == "update-index")
        let copy = try run.killed(at: commit + 1)
        let staged = try run.lab.sandbox.git(["diff", "--cached", "--name-only"], in: copy.workspace)
        #expect(staged == "Modules/Customer")
        let rerun = run.lab.sandbox.tenantctl(run.arguments, in: copy.workspace, environment: FaultLab.dates)
        #expect(rerun.status == 0, "\(rerun.stderr)")
        #expect(try run.lab.remoteRefs(copy.root) == run.remotesAfter)
        #expect(try run.lab.workingCopy(copy.root) == run.workingCopyAfter)
        // Positive control: a staged change of the user's own is still refused.
        let other = try run.killed(at: commit + 1, copy: "user-staged")
        try "{}\n".write(toFile: other.workspace + "/extra.json", atomically: true, encoding: .utf8)
        try run.lab.sandbox.git(["add", "extra.json"], in: other.workspace)
        let refused = run.lab.sandbox.tenantctl(run.arguments, in: other.workspace, environment: FaultLab.dates)
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("extra.json"), "\(refused.stderr)")
    }

    @Test(arguments: SweepShard.all(2))
    func killedAtEveryGitCallConverges(_ shard: SweepShard) throws {
        let run = try Self.pinRun()
        let unconverged = try run.sweep(alsoFirst: FaultLab.pinSteps, shard: shard)
        #expect(unconverged.isEmpty, "\(unconverged.joined(separator: "\n"))")
    }

    /// The same after a roll moved t2 on the remote: every kill, including the ones around the move of the local
    /// branch to the remote tip, is finished by the re-run.
    @Test(arguments: SweepShard.all(2))
    func killedAtEveryGitCallAfterARollConverges(_ shard: SweepShard) throws {
        let run = try LifecycleKillLab(
            ["pin", "--push"],
            setUp: { lab in
                try Self.commitInCustomer(lab)
                let roll = lab.sandbox.tenantctl(
                    ["roll"], in: lab.template + "/workspace", environment: FaultLab.dates)
                try #require(roll.status == 0, "\(roll.stderr)")
            }, setUpKey: "a commit in Customer, rolled")
        #expect(run.calls.contains { FaultLab.subcommand($0) == "reset" })
        let unconverged = try run.sweep(alsoFirst: FaultLab.pinSteps, shard: shard)
        #expect(unconverged.isEmpty, "\(unconverged.joined(separator: "\n"))")
    }

    @Test(arguments: SweepShard.all(2))
    func failingAtEveryGitCallConverges(_ shard: SweepShard) throws {
        let run = try Self.pinRun()
        let unconverged = try run.sweep(alsoFirst: FaultLab.pinSteps, failing: true, shard: shard)
        #expect(unconverged.isEmpty, "\(unconverged.joined(separator: "\n"))")
    }

    /// A pin committed without --push, then a roll: nothing is left to pin, and the printed commands publish the
    /// local pin commit merged with the roll (never a command that pins the rolled modules back).
    @Test func aDivergedBranchWithNothingToPinIsRefusedWithCommandsThatRun() throws {
        let lab = try FaultLab()
        try Self.commitInCustomer(lab)
        let copy = try lab.copy("diverged")
        try lab.sandbox.git(["push", "-q", "origin", "t2"], in: copy.workspace + "/Modules/Customer")
        let pinned = lab.sandbox.tenantctl(["pin", "Customer"], in: copy.workspace, environment: FaultLab.dates)
        #expect(pinned.status == 0, "\(pinned.stderr)")
        let roll = lab.sandbox.tenantctl(["roll"], in: copy.workspace, environment: FaultLab.dates)
        #expect(roll.status == 0, "\(roll.stderr)")
        let superRemote = copy.remotes + "/Superproject.git"
        let rolledInfrastructure = try lab.sandbox.git(["rev-parse", "t2:Modules/Infrastructure"], in: superRemote)
        let refused = lab.sandbox.tenantctl(["pin", "--push"], in: copy.workspace, environment: FaultLab.dates)
        #expect(refused.status == 1, "\(refused.stdout)\(refused.stderr)")
        let commands = refused.stderr.components(separatedBy: "`").filter { $0.hasPrefix("git ") }
        try #require(commands.count == 2, "\(refused.stderr)")
        #expect(commands[1] == "git push origin t2")
        for command in commands {
            let ran = try Self.runPrinted(command, in: copy.workspace, lab: lab)
            #expect(ran.status == 0, "\(command): \(ran.stderr)")
        }
        let tip = try lab.sandbox.git(["rev-parse", "refs/heads/t2"], in: superRemote)
        #expect(try lab.sandbox.git(["rev-parse", "HEAD"], in: copy.workspace) == tip)
        #expect(
            try lab.sandbox.git(["rev-parse", "t2:Modules/Infrastructure"], in: superRemote) == rolledInfrastructure)
    }

    @Test func aLocalCommitPinningAnUnpushedModuleCommitIsNotPublished() throws {
        let lab = try FaultLab()
        try Self.commitInCustomer(lab)
        let copy = try lab.copy("manual")
        try lab.sandbox.git(["add", "Modules/Customer"], in: copy.workspace)
        try lab.sandbox.git(["commit", "-q", "-m", "pin Customer by hand"], in: copy.workspace)
        let before = try lab.remoteRefs(copy.root)
        let refused = lab.sandbox.tenantctl(["pin", "--push"], in: copy.workspace, environment: FaultLab.dates)
        #expect(refused.status == 1, "\(refused.stdout)\(refused.stderr)")
        #expect(refused.stderr.contains("which is not on the module's remote"), "\(refused.stderr)")
        #expect(try lab.remoteRefs(copy.root) == before)
        // Positive control: once the module commit is pushed, the commit is published.
        try lab.sandbox.git(["push", "-q", "origin", "t2"], in: copy.workspace + "/Modules/Customer")
        let published = lab.sandbox.tenantctl(["pin", "--push"], in: copy.workspace, environment: FaultLab.dates)
        #expect(published.status == 0, "\(published.stderr)")
        #expect(published.stdout.contains("published t2"), "\(published.stdout)")
        #expect(
            try lab.sandbox.git(["rev-parse", "refs/heads/t2"], in: copy.remotes + "/Superproject.git")
                == lab.sandbox.git(["rev-parse", "HEAD"], in: copy.workspace))
    }

    @Test func aFailedSuperprojectPushIsPublishedByTheReRun() throws {
        let run = try Self.pinRun()
        let push = try #require(run.pushes(superproject: true).last)
        let (copy, failed) = try run.failed(at: push)
        #expect(failed.stderr.contains("tenantctl pin --push"), "\(failed.stderr)")
        #expect(try run.lab.remoteRefs(copy.root) != run.remotesAfter)
        // The module branch landed and the pin did not: the run stays unfinished, and another writing command
        // refuses, naming the re-run, until the re-run publishes the pin.
        let runs = try run.lab.sandbox.runs(in: copy.workspace)
        #expect(runs.last(command: "pin")?["state"] as? String == "unfinished", "\(runs)")
        let blocked = run.lab.sandbox.tenantctl(["tag", "M1"], in: copy.workspace, environment: FaultLab.dates)
        #expect(blocked.status == 1, "\(blocked.stdout)\(blocked.stderr)")
        #expect(blocked.stderr.contains("finish it by running it again: tenantctl pin --push"), "\(blocked.stderr)")
        #expect(blocked.stderr.contains("Customer"), "\(blocked.stderr)")
        let rerun = run.lab.sandbox.tenantctl(run.arguments, in: copy.workspace, environment: FaultLab.dates)
        #expect(rerun.status == 0, "\(rerun.stderr)")
        #expect(rerun.stdout.contains("published"), "\(rerun.stdout)")
        #expect(try run.lab.remoteRefs(copy.root) == run.remotesAfter)
        #expect(try run.lab.workingCopy(copy.root) == run.workingCopyAfter)
        // Positive control: with everything published, the next run has nothing to do, and tag is not blocked.
        let again = run.lab.sandbox.tenantctl(run.arguments, in: copy.workspace, environment: FaultLab.dates)
        #expect(again.status == 0)
        #expect(again.stdout.contains("nothing to pin"), "\(again.stdout)")
        let tagged = run.lab.sandbox.tenantctl(["tag", "M1"], in: copy.workspace, environment: FaultLab.dates)
        #expect(tagged.status == 0, "\(tagged.stderr)")
    }

    /// A pin whose first push (the module's) fails changed nothing: its run ends failed and blocks nothing.
    @Test func aPinThatFailedBeforeAnyPushLandedBlocksNothing() throws {
        let run = try Self.pinRun()
        // pin pushes every repository to its `origin`: the module's push comes first, the superproject's last.
        let pushes = run.pushes(superproject: true)
        let push = try #require(pushes.first)
        #expect(pushes.count == 2, "\(run.calls)")
        let (copy, _) = try run.failed(at: push)
        let runs = try run.lab.sandbox.runs(in: copy.workspace)
        #expect(runs.last(command: "pin")?["state"] as? String == "failed", "\(runs)")
        let tagged = run.lab.sandbox.tenantctl(["tag", "M1"], in: copy.workspace, environment: FaultLab.dates)
        #expect(tagged.status == 0, "\(tagged.stdout)\(tagged.stderr)")
    }

    @Test func afterARollThePinLandsOnTheNewTipAndTheSwitchItNamesBringsTheModulesUp() throws {
        let lab = try FaultLab()
        let (copy, superRemote, rolled) = try Self.rolledCopy(lab, "rolled")
        let customer = try lab.sandbox.git(["rev-parse", "HEAD"], in: copy.workspace + "/Modules/Customer")
        let pin = lab.sandbox.tenantctl(["pin", "--push"], in: copy.workspace, environment: FaultLab.dates)
        #expect(pin.status == 0, "\(pin.stderr)")
        let tip = try lab.sandbox.git(["rev-parse", "refs/heads/t2"], in: superRemote)
        #expect(try lab.sandbox.git(["rev-parse", "HEAD"], in: copy.workspace) == tip)
        #expect(try lab.sandbox.git(["rev-parse", "\(tip)^"], in: superRemote) == rolled)
        #expect(try lab.sandbox.git(["rev-parse", "\(tip):Modules/Customer"], in: superRemote) == customer)
        #expect(pin.stdout.contains("landed on"), "\(pin.stdout)")
        try Self.expectTheRollsPinsKeptAndTheSwitchBringsTheModulesUp(
            lab, copy, commit: tip, in: superRemote, rolled: rolled, superRemote: superRemote, pinOutput: pin.stdout)
    }

    /// A plain pin (no --push) after a roll moved the remote tenant branch: the pin commit is written on the
    /// fetched tip, as `pin --push` does, so the local branch ends one commit ahead of its remote, never diverged,
    /// and `git push` publishes it as a fast-forward.
    @Test func aPlainPinAfterARollCommitsOnTheFetchedTipNotOnTheStaleBranch() throws {
        let lab = try FaultLab()
        let (copy, superRemote, rolled) = try Self.rolledCopy(lab, "rolled")
        try lab.sandbox.git(["push", "-q", "origin", "t2"], in: copy.workspace + "/Modules/Customer")
        let stale = try lab.sandbox.git(["rev-parse", "HEAD"], in: copy.workspace)
        #expect(stale != rolled)  // the roll moved the remote branch past the local one
        let customer = try lab.sandbox.git(["rev-parse", "HEAD"], in: copy.workspace + "/Modules/Customer")
        let pin = lab.sandbox.tenantctl(["pin"], in: copy.workspace, environment: FaultLab.dates)
        #expect(pin.status == 0, "\(pin.stderr)")
        #expect(pin.stdout.contains("landed on"), "\(pin.stdout)")
        #expect(try lab.sandbox.git(["rev-parse", "HEAD^"], in: copy.workspace) == rolled)
        #expect(try lab.sandbox.git(["rev-parse", "HEAD:Modules/Customer"], in: copy.workspace) == customer)
        // Nothing was pushed; publishing it is a fast-forward.
        #expect(try lab.sandbox.git(["rev-parse", "refs/heads/t2"], in: superRemote) == rolled)
        let pushed = try lab.sandbox.gitResult(["push", "origin", "t2"], in: copy.workspace)
        #expect(pushed.status == 0, "\(pushed.stderr)")
        // The modules the roll moved are named, and the switch it names brings them up.
        try Self.expectTheRollsPinsKeptAndTheSwitchBringsTheModulesUp(
            lab, copy, commit: "HEAD", in: copy.workspace, rolled: rolled, superRemote: superRemote,
            pinOutput: pin.stdout)
    }

    /// A plain pin on a branch that has commits of its own after a roll moved the remote one refuses before any
    /// change, with commands that run as printed: the pull, then the same plain pin.
    @Test func aPlainPinOnADivergedBranchIsRefusedWithCommandsThatRun() throws {
        let lab = try FaultLab()
        let (copy, _, _) = try Self.rolledCopy(lab, "diverged") { copy in
            try "local\n".write(toFile: copy.workspace + "/Notes.txt", atomically: true, encoding: .utf8)
            try lab.sandbox.git(["add", "Notes.txt"], in: copy.workspace)
            try lab.sandbox.git(["commit", "-q", "-m", "local notes"], in: copy.workspace)
        }
        try lab.sandbox.git(["push", "-q", "origin", "t2"], in: copy.workspace + "/Modules/Customer")
        let head = try lab.sandbox.git(["rev-parse", "HEAD"], in: copy.workspace)
        let refused = lab.sandbox.tenantctl(["pin"], in: copy.workspace, environment: FaultLab.dates)
        #expect(refused.status == 1, "\(refused.stdout)\(refused.stderr)")
        #expect(refused.stderr.contains("diverged"), "\(refused.stderr)")
        #expect(try lab.sandbox.git(["rev-parse", "HEAD"], in: copy.workspace) == head)
        let commands = refused.stderr.components(separatedBy: "`").filter {
            $0.hasPrefix("git pull") || $0.hasPrefix("tenantctl pin")
        }
        try #require(commands.count == 2, "\(refused.stderr)")
        #expect(commands[1] == "tenantctl pin Customer")
        let pulled = try Self.runPrinted(commands[0], in: copy.workspace, lab: lab)
        #expect(pulled.status == 0, "\(commands[0]): \(pulled.stderr)")
        let pin = lab.sandbox.tenantctl(
            commands[1].split(separator: " ").dropFirst().map(String.init), in: copy.workspace,
            environment: FaultLab.dates)
        #expect(pin.status == 0, "\(pin.stderr)")
        let tip = try lab.sandbox.git(["rev-parse", "refs/heads/t2"], in: copy.remotes + "/Superproject.git")
        #expect(try lab.sandbox.git(["merge-base", "--is-ancestor", tip, "HEAD"], in: copy.workspace) == "")
        #expect(try lab.sandbox.git(["rev-parse", "HEAD:Notes.txt"], in: copy.workspace).count == 40)
    }

    @Test func afterARollThatMovedTheSamePinItRefusesBeforeAnyPushWithACommandThatRuns() throws {
        let lab = try FaultLab()
        let copy = try lab.copy("rolled")
        let switched = lab.sandbox.tenantctl(["switch", "t2"], in: copy.workspace)
        try #require(switched.status == 0, "\(switched.stderr)")
        try lab.sandbox.commit(
            in: "rolled/workspace/Modules/Infrastructure", file: "Fix.swift", content: "// fix\n", message: "fix")
        let roll = lab.sandbox.tenantctl(["roll"], in: copy.workspace, environment: FaultLab.dates)
        #expect(roll.status == 0, "\(roll.stderr)")
        let before = try lab.remoteRefs(copy.root)
        let refused = lab.sandbox.tenantctl(["pin", "--push"], in: copy.workspace, environment: FaultLab.dates)
        #expect(refused.status == 1, "\(refused.stdout)\(refused.stderr)")
        #expect(try lab.remoteRefs(copy.root) == before)
        let command = try #require(
            refused.stderr.components(separatedBy: "`").first { $0.hasPrefix("git -C Modules/Infrastructure merge") },
            "\(refused.stderr)")
        let merged = try Self.runPrinted(command, in: copy.workspace, lab: lab)
        #expect(merged.status == 0, "\(command): \(merged.stderr)")
        let pin = lab.sandbox.tenantctl(["pin", "--push"], in: copy.workspace, environment: FaultLab.dates)
        #expect(pin.status == 0, "\(pin.stderr)")
        let tip = try lab.sandbox.git(["rev-parse", "refs/heads/t2"], in: copy.remotes + "/Superproject.git")
        #expect(try lab.sandbox.git(["rev-parse", "HEAD"], in: copy.workspace) == tip)
    }

    @Test func aDivergedBranchIsRefusedBeforeAnyPushWithCommandsThatRun() throws {
        let lab = try FaultLab()
        try Self.commitInCustomer(lab)
        let copy = try lab.copy("diverged")
        try "local\n".write(toFile: copy.workspace + "/Notes.txt", atomically: true, encoding: .utf8)
        try lab.sandbox.git(["add", "Notes.txt"], in: copy.workspace)
        try lab.sandbox.git(["commit", "-q", "-m", "local notes"], in: copy.workspace)
        let roll = lab.sandbox.tenantctl(["roll"], in: copy.workspace, environment: FaultLab.dates)
        #expect(roll.status == 0, "\(roll.stderr)")
        let before = try lab.remoteRefs(copy.root)
        let refused = lab.sandbox.tenantctl(["pin", "--push"], in: copy.workspace, environment: FaultLab.dates)
        #expect(refused.status == 1, "\(refused.stdout)\(refused.stderr)")
        #expect(refused.stderr.contains("diverged"), "\(refused.stderr)")
        #expect(try lab.remoteRefs(copy.root) == before)
        let commands = refused.stderr.components(separatedBy: "`").filter {
            $0.hasPrefix("git pull") || $0.hasPrefix("tenantctl pin")
        }
        try #require(commands.count == 2, "\(refused.stderr)")
        let pulled = try Self.runPrinted(commands[0], in: copy.workspace, lab: lab)
        #expect(pulled.status == 0, "\(commands[0]): \(pulled.stderr)")
        let customer = try lab.sandbox.git(["rev-parse", "HEAD"], in: copy.workspace + "/Modules/Customer")
        let pin = lab.sandbox.tenantctl(
            commands[1].split(separator: " ").dropFirst().map(String.init), in: copy.workspace,
            environment: FaultLab.dates)
        #expect(pin.status == 0, "\(pin.stderr)")
        let superRemote = copy.remotes + "/Superproject.git"
        let tip = try lab.sandbox.git(["rev-parse", "refs/heads/t2"], in: superRemote)
        #expect(try lab.sandbox.git(["rev-parse", "HEAD"], in: copy.workspace) == tip)
        #expect(try lab.sandbox.git(["rev-parse", "\(tip):Modules/Customer"], in: superRemote) == customer)
        #expect(try lab.sandbox.git(["rev-parse", "\(tip):Notes.txt"], in: superRemote).count == 40)
    }
}
