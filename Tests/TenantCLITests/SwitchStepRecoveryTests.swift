import Foundation
import TenantExample
import TenantKit
import TenantTestSupport
import Testing

/// The changes of a switch beyond the modules' own checkouts are steps of its journal too: the checkout of
/// submodules `modules.json` does not name, of the nested submodules its recursive update initialises, and a module
/// checkout moved to where the target branch has it. A
/// switch killed (SIGKILL) or interrupted (SIGTERM) after such a step landed is put back exactly as far as nothing
/// changed since: a repository the user changed is kept and named, the rest goes back. Every command runs as a
/// process of the built tenantctl.
@Suite(.tags(.slow), .notInTheFastSet) struct SwitchStepRecoveryTests {
    /// The example with `t1` pinning two submodules `modules.json` does not name (`Vendor/A`, `Vendor/B`, both
    /// clones of a repository `Extra` added with plain git); the workspace stays on general_dev, where neither
    /// exists.
    static func unnamedLab() throws -> FaultLab {
        let lab = try FaultLab()
        let sandbox = lab.sandbox
        let remotes = lab.template + "/remotes"
        let seed = try sandbox.seedRepository("Extra", remotes: remotes, seed: "seed-Extra")
        try sandbox.git(["push", "-q", "origin", "master"], in: seed)
        let clone = sandbox.path("t1-clone")
        try sandbox.git(["clone", "-q", "-b", "t1", remotes + "/Superproject.git", clone])
        for path in ["Vendor/A", "Vendor/B"] {
            try sandbox.git(["submodule", "add", "-q", "../Extra.git", path], in: clone)
        }
        try sandbox.git(["commit", "-q", "-m", "add Extra twice with plain git"], in: clone)
        try sandbox.git(["push", "-q", "origin", "t1"], in: clone)
        return lab
    }

    /// The 1-based index of the clone of the unnamed submodule at `path` among a switch's git `calls`.
    static func unnamedClone(_ path: String, in calls: [String]) throws -> Int {
        try #require(
            calls.firstIndex { $0.contains(" submodule ") && $0.contains(" update ") && $0.hasSuffix("-- \(path)") },
            "\(calls)") + 1
    }

    /// The unfinished switch run of a workspace, if any.
    static func unfinishedSwitch(_ workspace: String) throws -> RunJournal? {
        try RunJournal.unfinished(gitDirectory: workspace + "/.git").first { $0.commandName == "switch" }
    }

    /// Whether the submodule at `path` of `workspace` is a checkout of its own.
    static func checkedOut(_ workspace: String, _ path: String) -> Bool {
        FileManager.default.fileExists(atPath: workspace + "/" + path + "/.git")
    }

    /// Killed as the second unnamed submodule is cloned: the first one's clone landed and is a step of the journal.
    /// The next switch deinitialises it again (positive control), or, when the user edited a file in it, keeps it and
    /// names it, and puts the rest back.
    @Test func aKilledSwitchPutsBackTheSubmodulesModulesJsonDoesNotName() throws {
        let lab = try Self.unnamedLab()
        let reference = try lab.copy("reference")
        let before = try lab.workingCopy(reference.root)
        let (done, calls) = try lab.runShimmed(["switch", "t1"], in: reference)
        try #require(done.status == 0, "\(done.stderr)")
        try #require(
            Self.checkedOut(reference.workspace, "Vendor/A") && Self.checkedOut(reference.workspace, "Vendor/B"))
        let killAt = try Self.unnamedClone("Vendor/B", in: calls)
        #expect(try Self.unnamedClone("Vendor/A", in: calls) < killAt)

        for userEdits in [false, true] {
            let copy = try lab.copy(userEdits ? "edited" : "control")
            try lab.runKilled(["switch", "t1"], in: copy, at: killAt)
            #expect(Self.checkedOut(copy.workspace, "Vendor/A"))
            // The clone that landed is a step of the journal.
            let killed = try #require(try Self.unfinishedSwitch(copy.workspace))
            #expect(
                killed.entries.contains { $0.repository == "submodule Vendor/A" && $0.landed == true },
                "\(killed.entries)")
            let readme = copy.workspace + "/Vendor/A/README"
            if userEdits { try "my notes\n".write(toFile: readme, atomically: true, encoding: .utf8) }

            let next = lab.sandbox.tenantctl(["switch", "general_dev"], in: copy.workspace)
            #expect(next.status == 0, "\(next.stdout)\(next.stderr)")
            #expect(try Self.unfinishedSwitch(copy.workspace) == nil)
            if userEdits {
                // Kept and named, the edit untouched.
                #expect(next.stderr.contains("submodule Vendor/A: kept"), "\(next.stderr)")
                #expect(next.stderr.contains("Vendor/A/README"), "\(next.stderr)")
                #expect(try String(contentsOfFile: readme, encoding: .utf8) == "my notes\n")
                #expect(try lab.userState(copy.workspace)[0] == "refs/heads/general_dev\n")
            } else {
                // Everything as before the killed run: the clone deinitialised again.
                #expect(next.stderr.contains("submodule Vendor/A"), "\(next.stderr)")
                #expect(!Self.checkedOut(copy.workspace, "Vendor/A"))
                #expect(try lab.workingCopy(copy.root) == before, "\(next.stderr)")
                let journal = try RunJournal.read(gitDirectory: copy.workspace + "/.git", runId: killed.runId)
                #expect(
                    journal.entries.filter { $0.repository == "submodule Vendor/A" }.allSatisfy { $0.undone == true },
                    "\(journal.entries)")
            }
            // The switch to t1 works afterwards.
            let again = lab.sandbox.tenantctl(["switch", "t1"], in: copy.workspace)
            #expect(again.status == 0 || userEdits, "\(again.stderr)")
        }
    }

    /// SIGTERM as the second unnamed submodule is cloned: the first one's clone is put back before the exit.
    @Test func anInterruptedSwitchPutsBackTheSubmodulesModulesJsonDoesNotName() throws {
        let lab = try Self.unnamedLab()
        let reference = try lab.copy("reference")
        let before = try lab.workingCopy(reference.root)
        let (done, calls) = try lab.runShimmed(["switch", "t1"], in: reference)
        try #require(done.status == 0, "\(done.stderr)")
        let index = try Self.unnamedClone("Vendor/B", in: calls)

        let copy = try lab.copy("term")
        let run = try lab.terminate(["switch", "t1"], in: copy, at: index)
        let result = try #require(run.wait(seconds: 60), "tenantctl did not stop")
        #expect(result.status == 130, "\(result.stderr)")
        #expect(!Self.checkedOut(copy.workspace, "Vendor/A"), "\(result.stderr)")
        #expect(try lab.workingCopy(copy.root) == before, "\(result.stderr)")
        #expect(try Self.unfinishedSwitch(copy.workspace) == nil)
        let rerun = lab.sandbox.tenantctl(["switch", "t1"], in: copy.workspace)
        #expect(rerun.status == 0, "\(rerun.stderr)")
        #expect(Self.checkedOut(copy.workspace, "Vendor/A") && Self.checkedOut(copy.workspace, "Vendor/B"))
    }

    /// Killed once a module's checkout was moved to where the target branch has it (before its own checkout): the
    /// move is a step of the journal. The next switch moves it back and marks the step taken back (positive
    /// control), or, when the user edited a file in the moved checkout, keeps it where it is and names it.
    @Test func aKilledSwitchRecordsAndPutsBackAModuleCheckoutMove() throws {
        let sandbox = try GitSandbox()
        let reference = try MovedModuleSuperproject(sandbox: sandbox, name: "reference")
        #expect(sandbox.tenantctl(["switch", "main"], in: reference.dev).status == 0)
        let (calls, _, step) = try reference.switchToTheReleaseLine()
        for userEdits in [false, true] {
            let app = try MovedModuleSuperproject(sandbox: sandbox, name: userEdits ? "edited" : "control")
            #expect(sandbox.tenantctl(["switch", "main"], in: app.dev).status == 0)
            let before = try app.snapshot()
            let shim = try GitShim(in: sandbox, name: "shim-\(userEdits)")
            let killed = try sandbox.tenantctlProcess(
                ["switch", "release-1.0", "--git", shim.path], in: app.dev, environment: ["SHIM_KILL_AT": "\(step + 1)"]
            )
            let label = "kill at call \(step + 1): \(calls[step])"
            #expect(killed.status == -SIGKILL, "\(label): \(killed.stderr)")
            #expect(Self.checkedOut(app.dev, "plugins/cap"), "\(label)")
            let run = try #require(try Self.unfinishedSwitch(app.dev), "\(label)")
            let move = run.entries.first { entry in
                entry.repository == "Cap" && entry.landed == true && entry.old == "deps/cap/src"
            }
            #expect(move?.new == "plugins/cap", "\(label): \(run.entries)")
            let readme = app.dev + "/plugins/cap/README"
            if userEdits { try "my notes\n".write(toFile: readme, atomically: true, encoding: .utf8) }

            let back = sandbox.tenantctl(["switch", "main"], in: app.dev)
            if userEdits {
                #expect(back.stderr.contains("Cap: kept"), "\(label): \(back.stderr)")
                #expect(back.stderr.contains("plugins/cap/README"), "\(label): \(back.stderr)")
                #expect(try String(contentsOfFile: readme, encoding: .utf8) == "my notes\n", "\(label)")
            } else {
                #expect(back.status == 0, "\(label): \(back.stderr)")
                #expect(try app.snapshot() == before, "\(label)")
                let journal = try RunJournal.read(gitDirectory: app.dev + "/.git", runId: run.runId)
                #expect(
                    journal.entries.filter { $0.repository == "Cap" && $0.landed == true }.allSatisfy {
                        $0.undone == true
                    }, "\(label): \(journal.entries)")
                #expect(try Self.unfinishedSwitch(app.dev) == nil, "\(label)")
            }
        }
    }
    /// Article's nested submodule `Vendor/Lib` is not initialised; the switch to t2 initialises it and is killed
    /// right after. The nested checkout is a repository of the run: the next switch
    /// deinitialises it again (positive control), or, when the user edited a file in it, keeps it and names it.
    @Test func aKilledSwitchPutsBackTheNestedSubmodulesItInitialised() throws {
        // The calls of the same switch uninterrupted: the index of Article's nested update.
        let referenceSandbox = try GitSandbox(function: "nested-reference")
        let reference = try SwitchFixture(sandbox: referenceSandbox, nested: true)
        try #require(referenceSandbox.tenantctl(["switch", "general_dev"], in: reference.workspace).status == 0)
        try referenceSandbox.git(
            ["submodule", "deinit", "-q", "-f", "--", "Vendor/Lib"], in: reference.module("Article"))
        let logged = try GitShim(in: referenceSandbox, name: "shim-reference")
        let done = try referenceSandbox.tenantctlProcess(
            ["switch", "t2", "--git", logged.path], in: reference.workspace)
        try #require(done.status == 0, "\(done.stderr)")
        let calls = try logged.calls()
        let update =
            try #require(
                calls.firstIndex { $0.contains("/Modules/Article ") && $0.contains(" update --init --recursive") },
                "\(calls)") + 1

        for userEdits in [false, true] {
            let sandbox = try GitSandbox(function: "nested-\(userEdits)")
            let fixture = try SwitchFixture(sandbox: sandbox, nested: true)
            // Everything on its branch first, as the switch back below (without nested submodules) leaves it.
            try #require(sandbox.tenantctl(["switch", "general_dev"], in: fixture.workspace).status == 0)
            let article = fixture.module("Article")
            try sandbox.git(["submodule", "deinit", "-q", "-f", "--", "Vendor/Lib"], in: article)
            let before = try fixture.snapshot()
            let shim = try GitShim(in: sandbox, name: "shim-kill")
            let stopped = try sandbox.tenantctlProcess(
                ["switch", "t2", "--git", shim.path], in: fixture.workspace,
                environment: ["SHIM_KILL_AFTER": "\(update)"])
            #expect(stopped.status == -SIGKILL, "\(stopped.stderr)")
            #expect(Self.checkedOut(article, "Vendor/Lib"))
            let file = article + "/Vendor/Lib/Lib.c"
            if userEdits { try "/* mine */\n".write(toFile: file, atomically: true, encoding: .utf8) }

            // The next switch leaves nested submodules alone: what it puts back is all that changes.
            let next = sandbox.tenantctl(["switch", "general_dev", "--no-recursive"], in: fixture.workspace)
            #expect(try Self.unfinishedSwitch(fixture.workspace) == nil, "\(next.stderr)")
            #expect(next.stderr.contains("submodule Modules/Article/Vendor/Lib"), "\(next.stderr)")
            if userEdits {
                #expect(next.stderr.contains("submodule Modules/Article/Vendor/Lib: kept"), "\(next.stderr)")
                #expect(next.stderr.contains("Modules/Article/Vendor/Lib/Lib.c"), "\(next.stderr)")
                #expect(try String(contentsOfFile: file, encoding: .utf8) == "/* mine */\n")
            } else {
                #expect(next.status == 0, "\(next.stderr)")
                #expect(!Self.checkedOut(article, "Vendor/Lib"), "\(next.stderr)")
                // Article as before: its nested submodule not initialised, its status, refs and config unchanged (the
                // other repositories keep what the fetch brought and the upstream of the branch the switch created).
                let after = try fixture.snapshot()
                #expect(after["Article"] == before["Article"], "\(next.stderr)")
            }
        }
    }
}
