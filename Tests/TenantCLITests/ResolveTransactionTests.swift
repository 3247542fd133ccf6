import Foundation
import TenantKit
import TenantTestSupport
import Testing

/// resolve as a transaction: `--abort` and `--continue` only in the worktree where the resolution started, `--abort`
/// never drops a commit it did not make, the start's pre-flight finds what a module merge would refuse, and
/// `merge.verifySignatures` does not stop resolve's merges half-way.
@Suite(.tags(.slow), .notInTheFastSet) struct ResolveTransactionTests {
    /// Runs a printed command line through the shell in `directory`, with the built tenantctl first on `PATH`.
    static func runAsPrinted(_ line: String, in directory: String, sandbox: GitSandbox) throws -> CLIResult {
        let binary = try #require(TenantctlBinary.path(), "the tenantctl executable is not built")
        let folder = (binary as NSString).deletingLastPathComponent
        let result = try sandbox.run(
            "/bin/sh", ["-c", "cd \"$1\" && PATH=\"$2:$PATH\" && " + line, "sh", directory, folder])
        return CLIResult(status: result.status, stdout: result.stdout, stderr: result.stderr)
    }

    /// The command a refusal prints after `marker` (to the end of its line).
    static func printedCommand(after marker: String, in text: String) throws -> String {
        let range = try #require(text.range(of: marker), "no `\(marker)` in: \(text)")
        return String(text[range.upperBound...].prefix { $0 != "\n" })
    }

    /// `--abort` and `--continue` from a second worktree of the superproject are refused, naming the worktree
    /// where the resolution started; neither worktree changes (the second one's uncommitted edit and untracked file
    /// included). The printed command, run as printed from the second worktree, aborts in the first.
    @Test func abortAndContinueFromAnotherWorktreeAreRefusedNamingIt() throws {
        let fixture = try ResolveFixture(wide: false)
        let started = fixture.resolve(["t2"])
        #expect(started.status == 2, "\(started.stdout)\(started.stderr)")
        let other = fixture.sandbox.path("second worktree")
        try fixture.sandbox.git(["worktree", "add", "-q", "-b", "mine", other, "general_dev"], in: fixture.workspace)
        try "my edit\n".write(toFile: "\(other)/AppName", atomically: true, encoding: .utf8)
        try "my notes\n".write(toFile: "\(other)/notes.txt", atomically: true, encoding: .utf8)
        let first = try fixture.workingCopy()
        let second = try fixture.userView(other)
        let remotes = try fixture.remotes()

        for action in ["--abort", "--continue"] {
            let refused = fixture.sandbox.tenantctl(["resolve", action], in: other)
            #expect(refused.status == 1, "\(action): \(refused.stdout)\(refused.stderr)")
            #expect(refused.stderr.contains("started in the worktree \(fixture.workspace)"), "\(refused.stderr)")
            #expect(refused.stderr.contains("nothing was changed"), "\(refused.stderr)")
            #expect(refused.stderr.contains("run it there: tenantctl -C \(fixture.workspace) resolve \(action)"))
            #expect(try fixture.workingCopy() == first, "\(action)")
            #expect(try fixture.userView(other) == second, "\(action)")
            #expect(try fixture.remotes() == remotes)
            #expect(fixture.stateExists)
        }
        // `status` from there shows the command to run where it started.
        let status = fixture.sandbox.tenantctl(["status"], in: other)
        #expect(status.stdout.contains("tenantctl -C \(fixture.workspace) resolve --continue"), "\(status.stdout)")
        #expect(status.stdout.contains("Infrastructure: conflicted (Strings.csv)"), "\(status.stdout)")
        // So does a switch there, refused while the resolution is open.
        let switched = fixture.sandbox.tenantctl(["switch", "t1"], in: other)
        #expect(switched.status == 1, "\(switched.stdout)\(switched.stderr)")
        #expect(switched.stderr.contains("`tenantctl -C \(fixture.workspace) resolve --abort`"), "\(switched.stderr)")
        #expect(try fixture.workingCopy() == first)
        // A second `resolve` from there names the worktree too.
        let again = fixture.sandbox.tenantctl(["resolve", "t3"], in: other)
        #expect(again.status == 1, "\(again.stderr)")
        #expect(again.stderr.contains("in the worktree \(fixture.workspace)"), "\(again.stderr)")

        // Positive control: the printed command, run as printed from the second worktree, aborts in the first.
        let refused = fixture.sandbox.tenantctl(["resolve", "--abort"], in: other)
        let command = try Self.printedCommand(after: "run it there: ", in: refused.stderr)
        let aborted = try Self.runAsPrinted(command, in: other, sandbox: fixture.sandbox)
        #expect(aborted.status == 0, "\(command): \(aborted.stdout)\(aborted.stderr)")
        #expect(!fixture.stateExists)
        #expect(try fixture.workingCopy() != first)
        // The second worktree's HEAD, index, status and files are as they were (the branch list is shared).
        let view = try fixture.userView(other)
        #expect(
            [view[0], view[1], view[4], view[5], view[6]] == [second[0], second[1], second[4], second[5], second[6]])
    }

    /// During the resolution the user commits in a module the resolution only checked out (Order) and on a branch of
    /// their own (Customer `feature`). `--abort` refuses, naming the Order commit, changing nothing, and never says
    /// "back where it was"; the printed commands (keep the commit on a branch, abort again) run as printed; the
    /// abort then keeps both branches, names them, and puts everything else back.
    @Test func abortNeverDropsCommitsTheResolutionDidNotMake() throws {
        let fixture = try ResolveFixture(wide: false)
        let original = try fixture.workingCopy()
        let remotes = try fixture.remotes()
        let started = fixture.resolve(["t2"])
        #expect(started.status == 2, "\(started.stdout)\(started.stderr)")
        let sandbox = fixture.sandbox
        let order = "\(fixture.workspace)/Modules/Order"
        let orderBranch = try sandbox.git(["symbolic-ref", "--short", "HEAD"], in: order)
        try "mine\n".write(toFile: "\(order)/Mine.md", atomically: true, encoding: .utf8)
        try sandbox.git(["add", "Mine.md"], in: order)
        try sandbox.git(["commit", "-q", "-m", "my order change"], in: order)
        let mine = try sandbox.git(["rev-parse", "HEAD"], in: order)
        let customer = "\(fixture.workspace)/Modules/Customer"
        try sandbox.git(["switch", "-q", "-c", "feature"], in: customer)
        try "feature\n".write(toFile: "\(customer)/Feature.md", atomically: true, encoding: .utf8)
        try sandbox.git(["add", "Feature.md"], in: customer)
        try sandbox.git(["commit", "-q", "-m", "my customer feature"], in: customer)
        let feature = try sandbox.git(["rev-parse", "HEAD"], in: customer)
        try sandbox.git(["switch", "-q", "-"], in: customer)
        let during = try fixture.workingCopy()

        let refused = fixture.resolve(["--abort"])
        #expect(refused.status == 1, "\(refused.stdout)\(refused.stderr)")
        #expect(refused.stderr.contains("Order (Modules/Order) \(orderBranch): \(mine.prefix(7)) my order change"))
        #expect(refused.stderr.contains("nothing was changed"), "\(refused.stderr)")
        #expect(!refused.stdout.contains("back where it was") && !refused.stderr.contains("back where it was"))
        #expect(!refused.stderr.contains("feature"), "\(refused.stderr)")
        #expect(try fixture.workingCopy() == during)
        #expect(try fixture.remotes() == remotes)
        #expect(fixture.stateExists)

        // The printed way out, run as printed from the superproject root.
        let marker = "keep them on a branch of their own, then abort again (from the superproject's root):\n"
        let block = try #require(refused.stderr.range(of: marker))
        let commands = refused.stderr[block.upperBound...].split(separator: "\n").prefix { $0.hasPrefix("  ") }
            .map { $0.trimmingCharacters(in: .whitespaces) }
        #expect(commands == ["git -C Modules/Order branch \(orderBranch)-kept \(mine)", "tenantctl resolve --abort"])
        for command in commands {
            let result = try Self.runAsPrinted(command, in: fixture.workspace, sandbox: sandbox)
            #expect(result.status == 0, "\(command): \(result.stdout)\(result.stderr)")
            if command.hasPrefix("tenantctl") {
                #expect(result.stdout.contains("except 2 branches kept"), "\(result.stdout)")
                #expect(result.stdout.contains("kept feature of Customer (Modules/Customer): 1 commit"))
                #expect(result.stdout.contains("kept \(orderBranch)-kept of Order (Modules/Order): 1 commit"))
            }
        }
        #expect(!fixture.stateExists)
        #expect(try sandbox.git(["rev-parse", "\(orderBranch)-kept"], in: order) == mine)
        #expect(try sandbox.git(["rev-parse", "feature"], in: customer) == feature)
        #expect(try fixture.remotes() == remotes)
        // Everything else is back as it was.
        try sandbox.git(["branch", "-q", "-D", "\(orderBranch)-kept"], in: order)
        try sandbox.git(["branch", "-q", "-D", "feature"], in: customer)
        #expect(try fixture.workingCopy() == original)
    }

    /// An untracked file in Infrastructure where the merge of its general_dev adds a file: refused before anything
    /// changes (before the superproject merge starts), naming the file; every repository byte for byte as before,
    /// the file's content too. Moved away, the resolution starts (positive control).
    @Test func anUntrackedFileAModuleMergeWouldOverwriteIsRefusedBeforeAnyMerge() throws {
        let fixture = try ResolveFixture(wide: false) { roll in
            try roll.commitOnRemote("Infrastructure", branch: "general_dev", file: "Deploy.md", content: "general\n")
        }
        let infrastructure = "\(fixture.workspace)/Modules/Infrastructure"
        let file = "\(infrastructure)/Deploy.md"
        try "my deploy notes\n".write(toFile: file, atomically: true, encoding: .utf8)
        let before = try fixture.workingCopy()
        let remotes = try fixture.remotes()

        let refused = fixture.resolve(["t2"])
        #expect(refused.status == 1, "\(refused.stdout)\(refused.stderr)")
        #expect(refused.stderr.contains("- Modules/Infrastructure/Deploy.md"), "\(refused.stderr)")
        #expect(refused.stderr.contains("nothing was changed"), "\(refused.stderr)")
        #expect(!refused.stderr.contains("half-way"), "\(refused.stderr)")
        #expect(try fixture.workingCopy() == before)
        #expect(try String(contentsOfFile: file, encoding: .utf8) == "my deploy notes\n")
        #expect(try fixture.remotes() == remotes)
        #expect(!fixture.stateExists)

        try FileManager.default.moveItem(atPath: file, toPath: fixture.sandbox.path("Deploy.md.mine"))
        let started = fixture.resolve(["t2"])
        #expect(started.status == 2, "\(started.stdout)\(started.stderr)")
        #expect(try String(contentsOfFile: file, encoding: .utf8) == "general\n")
    }

    /// `merge.verifySignatures=true` and the unsigned commits of the example: resolve's merges (the superproject's,
    /// each module's fast-forward to its remote tip and merge of general_dev) are roll's merges and go through,
    /// as roll's do; the control shows git itself refusing such a merge.
    @Test func mergeVerifySignaturesDoesNotStopTheResolutionHalfWay() throws {
        let fixture = try ResolveFixture()
        try fixture.sandbox.git(["config", "--global", "merge.verifySignatures", "true"])
        // Control: git refuses to merge these unsigned commits by itself (in a clone of Infrastructure's remote).
        let clone = fixture.sandbox.path("infrastructure-control")
        try fixture.sandbox.git(["clone", "-q", "--branch", "t2", fixture.roll.remote("Infrastructure"), clone])
        let control = try fixture.sandbox.gitResult(
            ["merge", "--no-commit", "--no-ff", "origin/general_dev"], in: clone)
        #expect(control.status != 0)
        #expect(control.stderr.contains("GPG signature"), "\(control.stderr)")

        let started = fixture.resolve(["t2"])
        #expect(started.status == 2, "\(started.stdout)\(started.stderr)")
        #expect(!started.stderr.contains("half-way"), "\(started.stderr)")
        try fixture.resolveFiles()
        let finished = fixture.resolve(["--continue"])
        #expect(finished.status == 0, "\(finished.stdout)\(finished.stderr)")
        #expect(fixture.sandbox.tenantctl(["audit", "--check"], in: fixture.workspace).status == 0)
    }
}
