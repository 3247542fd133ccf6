import Foundation
import TenantKit
import TenantTestSupport
import Testing

/// `runs --forget <run-id>` on a stopped switch says where each of its steps is now, reading a module's steps (its
/// HEAD, the branch the switch wrote) in that module's own checkout, not in the superproject.
@Suite struct RunsForgetSwitchTests {
    @Test func theForgetOfASwitchReadsEachModuleStepInItsModule() throws {
        let sandbox = try GitSandbox()
        let example = try sandbox.exampleCopy(in: sandbox.path("erp"), stage: .beforeUpdates)
        let switched = sandbox.tenantctl(["switch", "t2"], in: example.workspace)
        #expect(switched.status == 0, "\(switched.stderr)")
        let gitDirectory = example.workspace + "/.git"
        var run = try #require(
            try RunJournal.all(gitDirectory: gitDirectory).runs.last { $0.commandName == "switch" })
        let moduleSteps = run.entries.filter { $0.landed == true && $0.repository != "superproject" }
        try #require(moduleSteps.contains { $0.repository == "Customer" }, "\(run.entries)")
        // The switch as if killed after its last step: unfinished, every step where it left it.
        run.state = .running
        try run.write(gitDirectory: gitDirectory)

        let forget = try sandbox.tenantctlProcess(["runs", "--forget", run.runId, "--json"], in: example.workspace)
        #expect(forget.status == 0, "\(forget.stderr)")
        let parsed = try JSONSerialization.jsonObject(with: Data(forget.stdout.utf8)) as? [String: Any]
        let object = try #require(parsed, "\(forget.stdout)")
        let kept: [[String: Any]] = object["kept"] as? [[String: Any]] ?? []
        /// The kept step of `repository` and `ref`: its value now and its note.
        func keptStep(_ repository: String, _ ref: String) -> (now: String?, note: String?) {
            let found = kept.first { step in
                step["repository"] as? String == repository && step["ref"] as? String == ref
            }
            return (found?["now"] as? String, found?["note"] as? String)
        }
        for step in moduleSteps {
            let path = example.workspace + "/Modules/" + step.repository
            let now = try sandbox.git(["rev-parse", "--verify", step.ref], in: path)
            #expect(now == step.new, "\(step.repository) \(step.ref)")
            let found = keptStep(step.repository, step.ref)
            #expect(found.now == now, "\(step.repository) \(step.ref): \(forget.stdout)")
            #expect(found.note?.contains("as the run left it") == true, "\(forget.stdout)")
        }
        // Positive control: the superproject's own steps are read in the superproject, as before.
        let superHead = try sandbox.git(["rev-parse", "HEAD"], in: example.workspace)
        #expect(keptStep("superproject", "HEAD").now == superHead, "\(forget.stdout)")
        let runs = try sandbox.runs(in: example.workspace)
        #expect(runs.first { $0["runId"] as? String == run.runId }?["state"] as? String == "forgotten", "\(runs)")
    }

    /// The kept and untouched steps of `runs --forget <run-id> --json` in `workspace`, by repository and ref.
    static func forgetSteps(_ sandbox: GitSandbox, _ runId: String, in workspace: String) throws
        -> [String: [String: Any]]
    {
        let forget = try sandbox.tenantctlProcess(["runs", "--forget", runId, "--json"], in: workspace)
        #expect(forget.status == 0, "\(forget.stderr)")
        let parsed = try JSONSerialization.jsonObject(with: Data(forget.stdout.utf8)) as? [String: Any]
        let object = try #require(parsed, "\(forget.stdout)")
        var steps: [String: [String: Any]] = [:]
        for group in ["kept", "untouched"] {
            for step in object[group] as? [[String: Any]] ?? [] {
                var step = step
                step["group"] = group
                steps["\(step["repository"] as? String ?? "?") \(step["ref"] as? String ?? "?")"] = step
            }
        }
        return steps
    }

    /// Marks the last switch run of `workspace` unfinished, as if killed after its last step; returns it.
    static func stopLastSwitch(in workspace: String) throws -> RunJournal {
        let gitDirectory = workspace + "/.git"
        var run = try #require(
            try RunJournal.all(gitDirectory: gitDirectory).runs.last { $0.commandName == "switch" })
        run.state = .running
        try run.write(gitDirectory: gitDirectory)
        return run
    }

    /// A module checkout the switch moved is read where it is: at the path the run moved it to (kept, as the run
    /// left it), not as a ref of the superproject. Killed after the move and put back by hand to the old path, it
    /// reads as before the run.
    @Test(.tags(.slow), .notInTheFastSet) func theForgetOfASwitchReadsAModuleCheckoutMoveWhereTheCheckoutIs() throws {
        let sandbox = try GitSandbox()
        let app = try MovedModuleSuperproject(sandbox: sandbox)
        #expect(sandbox.tenantctl(["switch", "main"], in: app.dev).status == 0)
        let switched = sandbox.tenantctl(["switch", "release-1.0"], in: app.dev)
        #expect(switched.status == 0, "\(switched.stderr)")
        let run = try Self.stopLastSwitch(in: app.dev)
        let move = try #require(run.entries.first { $0.ref == "checkout-path" && $0.landed == true }, "\(run.entries)")
        #expect(move.new == "plugins/cap")

        let steps = try Self.forgetSteps(sandbox, run.runId, in: app.dev)
        let step = try #require(steps["Cap checkout-path"], "\(steps)")
        #expect(step["group"] as? String == "kept", "\(step)")
        #expect(step["now"] as? String == "plugins/cap", "\(step)")
        #expect((step["note"] as? String)?.contains("as the run left it") == true, "\(step)")
        #expect((step["note"] as? String)?.contains("deps/cap/src") == true, "\(step)")
        // Positive control: the module's HEAD is read in its checkout at the new path, as the run left it.
        let head = try #require(steps["Cap HEAD"], "\(steps)")
        #expect(head["now"] as? String == (try sandbox.git(["rev-parse", "HEAD"], in: app.dev + "/plugins/cap")))
    }

    /// The HEAD of a submodule modules.json does not name is read in that submodule's checkout, not in the
    /// superproject; one whose checkout is gone since is said to have none, never read as the superproject's HEAD.
    @Test(.tags(.slow), .notInTheFastSet) func theForgetOfASwitchReadsAnUnnamedSubmoduleInItsCheckout() throws {
        let lab = try SwitchStepRecoveryTests.unnamedLab()
        let copy = try lab.copy("forget")
        let sandbox = lab.sandbox
        let switched = sandbox.tenantctl(["switch", "t1"], in: copy.workspace)
        #expect(switched.status == 0, "\(switched.stderr)")
        let run = try Self.stopLastSwitch(in: copy.workspace)
        try #require(run.entries.contains { $0.repository == "submodule Vendor/B" && $0.landed == true })
        // The user took Vendor/B's checkout away since.
        try sandbox.git(["submodule", "deinit", "-q", "-f", "--", "Vendor/B"], in: copy.workspace)

        let steps = try Self.forgetSteps(sandbox, run.runId, in: copy.workspace)
        let a = try #require(steps["submodule Vendor/A HEAD"], "\(steps)")
        #expect(a["group"] as? String == "kept", "\(a)")
        #expect(a["now"] as? String == (try sandbox.git(["rev-parse", "HEAD"], in: copy.workspace + "/Vendor/A")))
        let b = try #require(steps["submodule Vendor/B HEAD"], "\(steps)")
        #expect(b["now"] == nil, "\(b)")
        #expect((b["note"] as? String)?.contains("no checkout at") == true, "\(b)")
    }

    /// A switch killed inside a module checkout move, then given up with `runs --forget`: killed after the move's
    /// `git config` (the checkout at deps/cap/src, `core.worktree` naming plugins/cap) or after its rename too (the
    /// checkout at plugins/cap, its `.git` file naming the git directory from deps/cap/src). git cannot work in the
    /// checkout. The forget leaves the checkout where it is, with its files, HEAD and the user's edit, sets the wrong
    /// pointer to where the checkout is and says so; git then works in it, status reads it, and the next switch
    /// (once the user put the edit away) takes it where main has it.
    @Test(.tags(.slow), .notInTheFastSet) func theForgetOfASwitchKilledInsideACheckoutMoveLeavesAUsableCheckout()
        throws
    {
        let sandbox = try GitSandbox()
        let reference = try MovedModuleSuperproject(sandbox: sandbox, name: "reference")
        #expect(sandbox.tenantctl(["switch", "main"], in: reference.dev).status == 0)
        let (_, write) = try reference.moveConfigWrite()
        for renamed in [false, true] {
            let name = renamed ? "renamed" : "configured"
            let app = try MovedModuleSuperproject(sandbox: sandbox, name: name)
            #expect(sandbox.tenantctl(["switch", "main"], in: app.dev).status == 0)
            try app.killInsideTheMove(write: write, renamed: renamed, label: name)
            let run = try #require(try SwitchStepRecoveryTests.unfinishedSwitch(app.dev), "\(name)")
            let cap = app.dev + (renamed ? "/plugins/cap" : "/deps/cap/src")
            try "my notes\n".write(toFile: cap + "/README", atomically: true, encoding: .utf8)

            let forget = try sandbox.tenantctlProcess(["runs", "--forget", run.runId], in: app.dev)
            #expect(forget.status == 0, "\(name): \(forget.stderr)")
            #expect(forget.stdout.contains("set right"), "\(name): \(forget.stdout)")
            #expect(
                forget.stdout.contains(renamed ? "the .git file of plugins/cap" : "names deps/cap/src again"),
                "\(name): \(forget.stdout)")
            #expect(try SwitchStepRecoveryTests.unfinishedSwitch(app.dev) == nil, "\(name)")
            // Where it was left, whole, and git works in it.
            #expect(try sandbox.git(["rev-parse", "--show-toplevel"], in: cap) == cap, "\(name)")
            #expect(try sandbox.git(["rev-parse", "HEAD"], in: cap) == app.new, "\(name)")
            #expect(try sandbox.git(["status", "--porcelain"], in: cap) == " M README", "\(name)")
            #expect(try String(contentsOfFile: cap + "/README", encoding: .utf8) == "my notes\n", "\(name)")

            let status = try sandbox.tenantctlProcess(["status"], in: app.dev)
            #expect(status.status == 0, "\(name): \(status.stderr)")
            try sandbox.git(["checkout", "-q", "--", "README"], in: cap)
            let next = try sandbox.tenantctlProcess(["switch", "main"], in: app.dev)
            #expect(next.status == 0, "\(name): \(next.stderr)")
            let moved = app.dev + "/deps/cap/src"
            #expect(try sandbox.git(["rev-parse", "--show-toplevel"], in: moved) == moved, "\(name)")
            #expect(try sandbox.git(["status", "--porcelain"], in: moved) == "", "\(name)")
            #expect(try sandbox.git(["rev-parse", "HEAD"], in: moved) == app.new, "\(name)")
        }
    }
}
