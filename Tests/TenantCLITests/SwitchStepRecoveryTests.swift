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

    /// The nested fixture with Article's nested submodule `Vendor/Lib` moving between the tenants: general_dev pins
    /// Article at its commit that records Lib's first commit, t2 at one that records Lib's second (pushed to Lib's
    /// remote and fetched into the workspace's Lib checkout, so that git itself could move it there). The workspace
    /// is on general_dev, Article fetched, and the user's git config says `submodule.recurse=true` (a checkout in
    /// Article would move `Vendor/Lib` too, unless told not to). Returns the fixture and Lib's two commits.
    static func nestedMoveFixture(_ sandbox: GitSandbox) throws -> (
        fixture: SwitchFixture, first: String, second: String
    ) {
        let fixture = try SwitchFixture(sandbox: sandbox, nested: true)
        try #require(sandbox.tenantctl(["switch", "general_dev"], in: fixture.workspace).status == 0)
        let lib = fixture.module("Article") + "/Vendor/Lib"
        let first = try sandbox.git(["rev-parse", "HEAD"], in: lib)
        let libWork = sandbox.path("lib-work")
        try sandbox.git(["clone", "-q", sandbox.path("remotes/Lib.git"), libWork])
        try "/* lib 2 */\n".write(toFile: libWork + "/Lib.c", atomically: true, encoding: .utf8)
        try sandbox.git(["commit", "-q", "-am", "Lib 2"], in: libWork)
        try sandbox.git(["push", "-q", "origin", "HEAD"], in: libWork)
        let second = try sandbox.git(["rev-parse", "HEAD"], in: libWork)
        let articleWork = sandbox.path("article-work")
        try sandbox.git(["clone", "-q", "-b", "general_dev", sandbox.path("remotes/Article.git"), articleWork])
        try sandbox.git(["update-index", "--cacheinfo", "160000,\(second),Vendor/Lib"], in: articleWork)
        try sandbox.git(["commit", "-q", "-m", "Article: Lib 2"], in: articleWork)
        try sandbox.git(["push", "-q", "origin", "general_dev"], in: articleWork)
        let article = try sandbox.git(["rev-parse", "HEAD"], in: articleWork)
        let build = sandbox.path(SwitchFixture.build)
        try sandbox.git(["switch", "-q", "t2"], in: build)
        try sandbox.git(["pull", "-q", "--ff-only", "origin", "t2"], in: build)
        try sandbox.git(["update-index", "--cacheinfo", "160000,\(article),Modules/Article"], in: build)
        try sandbox.git(["commit", "-q", "-m", "t2: Article with Lib 2"], in: build)
        try sandbox.git(["push", "-q", "origin", "t2"], in: build)
        try sandbox.git(["switch", "-q", "general_dev"], in: build)
        try sandbox.git(["fetch", "-q", "origin"], in: fixture.module("Article"))
        try sandbox.git(["fetch", "-q", "origin"], in: lib)
        try sandbox.git(["config", "--global", "submodule.recurse", "true"])
        return (fixture, first, second)
    }

    /// What the user sees of a checkout: its branch, HEAD, local branches and `status` (submodules included: a
    /// nested submodule at another commit than its module records shows).
    static func seen(_ sandbox: GitSandbox, _ directory: String) throws -> [String] {
        [
            try sandbox.gitResult(["symbolic-ref", "-q", "HEAD"], in: directory).stdout,
            try sandbox.git(["rev-parse", "HEAD"], in: directory),
            try sandbox.git(["for-each-ref", "--format=%(refname) %(objectname)", "refs/heads/"], in: directory),
            try sandbox.git(["status", "--porcelain=v2", "--untracked-files=all"], in: directory),
        ]
    }

    /// switch to t2 moves Article to its commit that records Lib's second commit, with `submodule.recurse=true` in the
    /// user's config. Killed right after Article's own checkout, or right after its nested update: each nested
    /// submodule that moved is a step of the run, so the next switch puts Lib back at its first commit with Article
    /// (positive controls, nothing of the user's); when the user edited a file in Lib after the kill, Lib is kept as
    /// it is and named, the edit untouched.
    @Test func aKilledSwitchPutsBackTheNestedSubmodulesAModuleCheckoutMoved() throws {
        let referenceSandbox = try GitSandbox(function: "nested-move-reference")
        let reference = try Self.nestedMoveFixture(referenceSandbox)
        let logged = try GitShim(in: referenceSandbox, name: "shim-reference")
        let done = try referenceSandbox.tenantctlProcess(
            ["switch", "t2", "--git", logged.path], in: reference.fixture.workspace)
        try #require(done.status == 0, "\(done.stderr)")
        let lib = "Modules/Article/Vendor/Lib"
        #expect(
            try referenceSandbox.git(["rev-parse", "HEAD"], in: reference.fixture.workspace + "/" + lib)
                == reference.second)
        let calls = try logged.calls()
        let checkout =
            try #require(
                calls.firstIndex { $0.contains("/Modules/Article ") && $0.contains(" reset --quiet --keep") },
                "\(calls)")
            + 1
        let update = calls.firstIndex { $0.contains("/Modules/Article ") && $0.contains(" update --init --recursive") }
        #expect(update != nil, "Article's nested submodule is moved by its recursive update, not by its checkout")

        for (after, userEdits) in [("checkout", false), ("update", false), ("update", true)] {
            let label = "killed after Article's \(after)\(userEdits ? ", Lib edited" : "")"
            let sandbox = try GitSandbox(function: "nested-move-\(after)-\(userEdits)")
            let (fixture, first, second) = try Self.nestedMoveFixture(sandbox)
            let article = fixture.module("Article")
            let before = try Self.seen(sandbox, article)
            let killAfter = after == "checkout" ? checkout : (update ?? calls.count) + 1
            let shim = try GitShim(in: sandbox, name: "shim-kill")
            let stopped = try sandbox.tenantctlProcess(
                ["switch", "t2", "--git", shim.path], in: fixture.workspace,
                environment: ["SHIM_KILL_AFTER": "\(killAfter)"])
            #expect(stopped.status == -SIGKILL, "\(label): \(stopped.stderr)")
            let file = fixture.workspace + "/" + lib + "/Lib.c"
            if userEdits { try "/* mine */\n".write(toFile: file, atomically: true, encoding: .utf8) }

            // The next switch leaves nested submodules alone: what it puts back is all that changes.
            let next = try sandbox.tenantctlProcess(
                ["switch", "general_dev", "--no-recursive"], in: fixture.workspace)
            #expect(try Self.unfinishedSwitch(fixture.workspace) == nil, "\(label): \(next.stderr)")
            let head = try sandbox.git(["rev-parse", "HEAD"], in: fixture.workspace + "/" + lib)
            if userEdits {
                #expect(next.stderr.contains("submodule \(lib): kept"), "\(label): \(next.stderr)")
                #expect(next.stderr.contains("\(lib)/Lib.c"), "\(label): \(next.stderr)")
                #expect(try String(contentsOfFile: file, encoding: .utf8) == "/* mine */\n", "\(label)")
                #expect(head == second, "\(label): \(next.stderr)")
            } else {
                #expect(next.status == 0, "\(label): \(next.stderr)")
                #expect(head == first, "\(label): \(next.stderr)")
                #expect(try Self.seen(sandbox, article) == before, "\(label): \(next.stderr)")
                #expect(
                    try sandbox.git(["status", "--porcelain"], in: fixture.workspace + "/" + lib) == "",
                    "\(label)")
            }
        }
    }

    /// Killed between the two halves of a module checkout move: the git directory's `core.worktree` already names the
    /// new path, the directory is still at the old one (no git call comes between them: the kill comes as the
    /// `git config` that wrote it ends). The next switch back points `core.worktree` at the checkout again and puts
    /// everything back as before; the printed re-run does the same, then finishes the switch. Either way the
    /// checkout, its branch and its files are there and git works in it.
    @Test func aSwitchKilledHalfWayThroughACheckoutMoveLosesNothing() throws {
        let sandbox = try GitSandbox()
        let reference = try MovedModuleSuperproject(sandbox: sandbox, name: "reference")
        #expect(sandbox.tenantctl(["switch", "main"], in: reference.dev).status == 0)
        let (calls, move, _) = try reference.switchToTheReleaseLine()
        let write = try #require(
            calls.indices.first {
                $0 > move && calls[$0].contains(" core.worktree ") && !calls[$0].contains(" --get ")
            },
            "\(calls)")
        for next in [["switch", "main"], ["switch", "release-1.0"]] {
            let name = next[1] == "main" ? "back" : "rerun"
            let app = try MovedModuleSuperproject(sandbox: sandbox, name: name)
            #expect(sandbox.tenantctl(["switch", "main"], in: app.dev).status == 0)
            let before = try app.snapshot()
            let shim = try GitShim(in: sandbox, name: "shim-\(name)")
            let killed = try sandbox.tenantctlProcess(
                ["switch", "release-1.0", "--git", shim.path], in: app.dev,
                environment: ["SHIM_KILL_AFTER": "\(write + 1)"])
            let label = "\(name), killed after call \(write + 1): \(calls[write])"
            #expect(killed.status == -SIGKILL, "\(label): \(killed.stderr)")
            // Half-way: the checkout still at the old path, nothing at the new one.
            #expect(Self.checkedOut(app.dev, "deps/cap/src") && !Self.checkedOut(app.dev, "plugins/cap"), "\(label)")

            let result = try sandbox.tenantctlProcess(next, in: app.dev)
            #expect(result.status == 0, "\(label): \(result.stderr)")
            #expect(try Self.unfinishedSwitch(app.dev) == nil, "\(label): \(result.stderr)")
            if name == "back" {
                #expect(try app.snapshot() == before, "\(label): \(result.stderr)")
            } else {
                let cap = app.dev + "/plugins/cap"
                #expect(Self.checkedOut(app.dev, "plugins/cap"), "\(label): \(result.stderr)")
                #expect(try sandbox.git(["rev-parse", "HEAD"], in: cap) == app.old, "\(label)")
                #expect(try sandbox.git(["status", "--porcelain"], in: cap) == "", "\(label)")
                #expect(try sandbox.git(["rev-parse", "--show-toplevel"], in: cap) == cap, "\(label)")
            }
        }
    }

    /// Killed between the second and the third step of a module checkout move: the directory is already at the new
    /// path, its `.git` file still names the git directory from the old one, so git finds no repository there (no git
    /// call comes between the two: the state is the kill after the `git config`, then the rename by hand). The next
    /// switch back writes the `.git` file for where the checkout is, says so, and puts everything back as before; the
    /// printed re-run does the same, then finishes the switch; with a file the user edited in the moved checkout, the
    /// checkout is kept where it is, whole and usable, the edit untouched and named.
    @Test func aSwitchKilledBetweenACheckoutMovesRenameAndItsGitFileLosesNothing() throws {
        let sandbox = try GitSandbox()
        let reference = try MovedModuleSuperproject(sandbox: sandbox, name: "reference")
        #expect(sandbox.tenantctl(["switch", "main"], in: reference.dev).status == 0)
        let (calls, write) = try reference.moveConfigWrite()
        for name in ["back", "rerun", "edited"] {
            let app = try MovedModuleSuperproject(sandbox: sandbox, name: name)
            #expect(sandbox.tenantctl(["switch", "main"], in: app.dev).status == 0)
            let before = try app.snapshot()
            let label = "\(name), killed after call \(write + 1) (\(calls[write])), then renamed"
            try app.killInsideTheMove(write: write, renamed: true, label: name)
            let cap = app.dev + "/plugins/cap"
            if name == "edited" { try "my notes\n".write(toFile: cap + "/README", atomically: true, encoding: .utf8) }

            let next = ["switch", name == "rerun" ? "release-1.0" : "main"]
            let result = try sandbox.tenantctlProcess(next, in: app.dev)
            #expect(result.stderr.contains("had stopped half-way"), "\(label): \(result.stderr)")
            switch name {
            case "back":
                #expect(result.status == 0, "\(label): \(result.stderr)")
                #expect(try Self.unfinishedSwitch(app.dev) == nil, "\(label): \(result.stderr)")
                #expect(try app.snapshot() == before, "\(label): \(result.stderr)")
                #expect(!FileManager.default.fileExists(atPath: cap + "/README"), "\(label)")
            case "rerun":
                #expect(result.status == 0, "\(label): \(result.stderr)")
                #expect(try Self.unfinishedSwitch(app.dev) == nil, "\(label): \(result.stderr)")
                #expect(Self.checkedOut(app.dev, "plugins/cap"), "\(label): \(result.stderr)")
                #expect(try sandbox.git(["rev-parse", "HEAD"], in: cap) == app.old, "\(label)")
                #expect(try sandbox.git(["status", "--porcelain"], in: cap) == "", "\(label)")
                #expect(try sandbox.git(["rev-parse", "--show-toplevel"], in: cap) == cap, "\(label)")
            default:
                // The user's edit: kept where it is, named, and git works in the checkout.
                #expect(result.stderr.contains("Cap: kept"), "\(label): \(result.stderr)")
                #expect(result.stderr.contains("plugins/cap/README"), "\(label): \(result.stderr)")
                #expect(try String(contentsOfFile: cap + "/README", encoding: .utf8) == "my notes\n", "\(label)")
                #expect(try sandbox.git(["rev-parse", "--show-toplevel"], in: cap) == cap, "\(label)")
                #expect(try sandbox.git(["status", "--porcelain"], in: cap) == " M README", "\(label)")
                #expect(try sandbox.git(["rev-parse", "HEAD"], in: cap) == app.new, "\(label)")
            }
        }
    }
}
