import Foundation
import TenantKit
import TenantTestSupport
import Testing

/// A superproject adopted with `tenantctl init` the day after, built with plain git: `App` on `main` over modules
/// on `master`; `Core` has a nested submodule `Lib`; release lines are the tenants. `release/1.0` pins a backport on
/// Core's own `release/1.0` branch; `release/0.9` pins a UI commit that was never pushed to UI's remote. `init`
/// wrote `modules.json` and `Tenants/` on `main` only: the release lines have none. `dev` is a developer's fresh
/// `git clone --recurse-submodules` of the superproject.
struct AdoptedReleaseLines {
    let sandbox: GitSandbox
    /// `remotes/<Name>.git`.
    let remotes: String
    /// The developer's clone (on `main`).
    let dev: String
    /// Core's backport on its `release/1.0` branch, pinned by `release/1.0`.
    let backport: String
    /// Lib's commit Core records.
    let lib: String
    /// UI's commit on `master`.
    let ui: String
    /// The UI commit `release/0.9` pins, which UI's remote does not have.
    let unpushed: String

    init(sandbox: GitSandbox) throws {
        self.sandbox = sandbox
        remotes = sandbox.path("remotes")
        let libSeed = try sandbox.seedRepository("Lib", remotes: remotes)
        try sandbox.git(["push", "-q", "origin", "master"], in: libSeed)
        lib = try sandbox.git(["rev-parse", "HEAD"], in: libSeed)
        let coreSeed = try sandbox.seedRepository("Core", remotes: remotes)
        try sandbox.git(["submodule", "add", "-q", "../Lib.git", "deps/lib"], in: coreSeed)
        try sandbox.git(["commit", "-q", "-m", "Core uses Lib"], in: coreSeed)
        try sandbox.git(["push", "-q", "origin", "master"], in: coreSeed)
        try sandbox.git(["switch", "-q", "-c", "release/1.0"], in: coreSeed)
        try sandbox.write("seed-Core/Fix.txt", "fix\n")
        try sandbox.git(["add", "Fix.txt"], in: coreSeed)
        try sandbox.git(["commit", "-q", "-m", "backport a fix to 1.0"], in: coreSeed)
        try sandbox.git(["push", "-q", "origin", "release/1.0"], in: coreSeed)
        backport = try sandbox.git(["rev-parse", "HEAD"], in: coreSeed)
        let uiSeed = try sandbox.seedRepository("UI", remotes: remotes)
        try sandbox.git(["push", "-q", "origin", "master"], in: uiSeed)
        ui = try sandbox.git(["rev-parse", "HEAD"], in: uiSeed)
        try sandbox.write("seed-UI/Hotfix.txt", "hotfix\n")
        try sandbox.git(["add", "Hotfix.txt"], in: uiSeed)
        try sandbox.git(["commit", "-q", "-m", "0.9 hotfix, never pushed"], in: uiSeed)
        unpushed = try sandbox.git(["rev-parse", "HEAD"], in: uiSeed)

        try sandbox.git(["init", "-q", "--bare", "-b", "main", "\(remotes)/App.git"])
        let work = sandbox.path("app")
        try sandbox.git(["clone", "-q", "\(remotes)/App.git", work])
        try sandbox.git(["submodule", "add", "-q", "../Core.git", "Modules/Core"], in: work)
        try sandbox.git(["submodule", "add", "-q", "../UI.git", "Modules/UI"], in: work)
        try sandbox.git(["commit", "-q", "-m", "App with Core and UI"], in: work)
        try sandbox.git(["switch", "-q", "-c", "release/1.0"], in: work)
        try sandbox.git(["update-index", "--cacheinfo", "160000,\(backport),Modules/Core"], in: work)
        try sandbox.git(["commit", "-q", "-m", "1.0: Core's backport"], in: work)
        try sandbox.git(["switch", "-q", "-c", "release/0.9", "main"], in: work)
        try sandbox.git(["update-index", "--cacheinfo", "160000,\(unpushed),Modules/UI"], in: work)
        try sandbox.git(["commit", "-q", "-m", "0.9: UI hotfix"], in: work)
        try sandbox.git(["switch", "-q", "main"], in: work)
        try sandbox.git(["push", "-q", "origin", "main", "release/1.0", "release/0.9"], in: work)

        // Adoption: init on main, the files committed and pushed there only.
        let adopted = sandbox.tenantctl(["init"], in: work)
        guard adopted.status == 0 else { throw SandboxError(description: "init: \(adopted.stderr)") }
        try sandbox.git(["add", "modules.json", "Tenants"], in: work)
        try sandbox.git(["commit", "-q", "-m", "Describe modules and tenants for tenantctl"], in: work)
        try sandbox.git(["push", "-q", "origin", "main"], in: work)

        dev = sandbox.path("dev")
        try sandbox.git(["clone", "-q", "--recurse-submodules", "\(remotes)/App.git", dev])
    }

    /// A path in the developer's clone.
    func path(_ relative: String) -> String { dev + "/" + relative }

    /// The branch checked out in a repository of the developer's clone.
    func branch(_ relative: String) throws -> String {
        try sandbox.git(["symbolic-ref", "--short", "HEAD"], in: relative.isEmpty ? dev : path(relative))
    }

    /// HEAD of a repository of the developer's clone.
    func head(_ relative: String) throws -> String {
        try sandbox.git(["rev-parse", "HEAD"], in: relative.isEmpty ? dev : path(relative))
    }
}

/// Tenant branches of an adopted superproject before their first roll: no `modules.json` or `Tenants/` of their own.
@Suite("adopted tenant branches", .tags(.slow), .notInTheFastSet)
struct AdoptedTenantBranchTests {
    /// switch to a release line plans from main's files and the line's own gitlinks: Core on its release branch at
    /// the backport with Lib at the commit Core records, UI on master; status reads the tenant; pin records a new
    /// Core commit on the release line (and writes no project files there); switching back and forth works.
    @Test func switchStatusAndPinWorkOnAReleaseLineWithoutModulesJSON() throws {
        let sandbox = try GitSandbox()
        let app = try AdoptedReleaseLines(sandbox: sandbox)
        #expect(try sandbox.git(["ls-tree", "origin/release/1.0", "--", "modules.json"], in: app.dev).isEmpty)

        let switched = sandbox.tenantctl(["switch", "release-1.0"], in: app.dev)
        #expect(switched.status == 0, "\(switched.stderr)")
        #expect(try app.branch("") == "release/1.0")
        #expect(try app.branch("Modules/Core") == "release/1.0")
        #expect(try app.head("Modules/Core") == app.backport)
        #expect(try app.head("Modules/Core/deps/lib") == app.lib)
        #expect(try app.branch("Modules/UI") == "master")
        #expect(try app.head("Modules/UI") == app.ui)

        let status = sandbox.tenantctl(["status", "--json"], in: app.dev)
        #expect(status.status == 0, "\(status.stderr)")
        let report = try JSONDecoder().decode(StatusReport.self, from: Data(status.stdout.utf8))
        #expect(report.tenant == "release-1.0")
        #expect(report.modules.map(\.module) == ["Core", "UI"])
        #expect(report.modules.allSatisfy { $0.relation == .atPin }, "\(report.modules)")
        #expect(report.modules.first { $0.module == "Core" }?.expectedBranch == "release/1.0")

        let fix = try sandbox.commit(in: "dev/Modules/Core", file: "Fix2.txt", content: "fix 2\n", message: "fix 2")
        try sandbox.git(["push", "-q", "origin", "release/1.0"], in: app.path("Modules/Core"))
        let pinned = sandbox.tenantctl(["pin", "Core"], in: app.dev)
        #expect(pinned.status == 0, "\(pinned.stderr)")
        #expect(try sandbox.gitlinks(on: "release/1.0", in: app.dev)["Modules/Core"] == fix)
        #expect(
            try sandbox.git(["ls-tree", "--name-only", "HEAD"], in: app.dev).split(separator: "\n").sorted() == [
                ".gitmodules", "Modules",
            ])

        // audit from the release line's checkout reads main's files (the general branch names itself there).
        let audit = sandbox.tenantctl(["audit", "--json"], in: app.dev)
        #expect(audit.status == 0, "\(audit.stderr)")
        #expect(audit.stdout.contains(#""generalBranch" : "main""#), "\(audit.stdout.prefix(300))")

        for target in ["main", "release-1.0", "main"] {
            let result = sandbox.tenantctl(["switch", target], in: app.dev)
            #expect(result.status == 0, "\(target): \(result.stderr)")
        }
        #expect(try app.branch("Modules/Core") == "master")
    }

    /// `tenantctl.allowLocalRemotes` in the superproject's own config counts on a release line's checkout too
    /// (no modules.json there to find the superproject by); without it local remotes are refused (the control).
    @Test func theLocalRemotesSettingIsReadOnAReleaseLine() throws {
        let sandbox = try GitSandbox()
        let app = try AdoptedReleaseLines(sandbox: sandbox)
        #expect(sandbox.tenantctl(["switch", "release-1.0"], in: app.dev).status == 0)
        let strict = ["TENANTCTL_ALLOW_LOCAL_REMOTES": "0"]
        let refused = sandbox.tenantctl(["switch", "main", "--dry-run"], in: app.dev, environment: strict)
        #expect(refused.status != 0, "\(refused.stdout)")
        #expect(refused.stderr.contains("local"), "\(refused.stderr)")
        try sandbox.git(["config", "tenantctl.allowLocalRemotes", "true"], in: app.dev)
        let allowed = sandbox.tenantctl(["switch", "main", "--dry-run"], in: app.dev, environment: strict)
        #expect(allowed.status == 0, "\(allowed.stderr)")
    }

    /// A release line pinning a UI commit its remote never got: switch refuses naming UI and the commit, before
    /// changing anything; once the commit is pushed, the same switch works (the control).
    @Test func aPinMissingFromTheModulesRemoteIsRefusedBeforeAnyChange() throws {
        let sandbox = try GitSandbox()
        let app = try AdoptedReleaseLines(sandbox: sandbox)
        #expect(sandbox.tenantctl(["switch", "main"], in: app.dev).status == 0)
        let before = try snapshot(app)

        let refused = sandbox.tenantctl(["switch", "release-0.9"], in: app.dev)
        #expect(refused.status != 0)
        #expect(refused.stderr.contains("UI"), "\(refused.stderr)")
        #expect(refused.stderr.contains(String(app.unpushed.prefix(7))), "\(refused.stderr)")
        #expect(!refused.stderr.contains("modules.json"), "\(refused.stderr)")
        #expect(try snapshot(app) == before)

        try sandbox.git(["push", "-q", "origin", "master:hotfix-0.9"], in: sandbox.path("seed-UI"))
        let switched = sandbox.tenantctl(["switch", "release-0.9"], in: app.dev)
        #expect(switched.status == 0, "\(switched.stderr)")
        #expect(try app.head("Modules/UI") == app.unpushed)
        #expect(try app.branch("") == "release/0.9")
    }

    /// Status, HEAD, index, refs and local config of the superproject and both modules.
    func snapshot(_ app: AdoptedReleaseLines) throws -> [String: String] {
        try SwitchFixture.snapshot(
            sandbox: app.sandbox,
            repositories: [
                ("superproject", app.dev), ("Core", app.path("Modules/Core")), ("UI", app.path("Modules/UI")),
            ])
    }
}

/// A superproject that moved a module: `main` has Cap at `deps/cap/src`, the older release line `release/1.0`
/// pins it at `plugins/cap` (same submodule name, same URL: `git mv`). Adopted with `init` on `main`.
struct MovedModuleSuperproject {
    let sandbox: GitSandbox
    /// The developer's clone (on `main`).
    let dev: String
    /// Cap's commit `release/1.0` pins, and the one `main` pins.
    let old: String
    let new: String

    init(sandbox: GitSandbox, name: String = "moved") throws {
        self.sandbox = sandbox
        let remotes = sandbox.path("\(name)/remotes")
        let seed = try sandbox.seedRepository("Cap", remotes: remotes, seed: "\(name)/seed-Cap")
        try sandbox.git(["push", "-q", "origin", "master"], in: seed)
        old = try sandbox.git(["rev-parse", "HEAD"], in: seed)
        try sandbox.git(["init", "-q", "--bare", "-b", "main", "\(remotes)/App.git"])
        let work = sandbox.path("\(name)/app")
        try sandbox.git(["clone", "-q", "\(remotes)/App.git", work])
        try sandbox.git(["submodule", "add", "-q", "../Cap.git", "plugins/cap"], in: work)
        try sandbox.git(["commit", "-q", "-m", "App with Cap"], in: work)
        try sandbox.git(["branch", "release/1.0"], in: work)
        new = try sandbox.commit(in: "\(name)/seed-Cap", file: "Two.txt", content: "2\n", message: "Cap 2")
        try sandbox.git(["push", "-q", "origin", "master"], in: seed)
        try sandbox.git(["-C", "plugins/cap", "fetch", "-q", "origin"], in: work)
        try sandbox.git(["-C", "plugins/cap", "checkout", "-q", new], in: work)
        try sandbox.git(["add", "plugins/cap"], in: work)
        try sandbox.git(["commit", "-q", "-m", "Cap 2"], in: work)
        try FileManager.default.createDirectory(atPath: work + "/deps/cap", withIntermediateDirectories: true)
        try sandbox.git(["mv", "plugins/cap", "deps/cap/src"], in: work)
        try sandbox.git(["commit", "-q", "-m", "move Cap to deps/cap/src"], in: work)
        try sandbox.git(["push", "-q", "origin", "main", "release/1.0"], in: work)
        let adopted = sandbox.tenantctl(["init"], in: work)
        guard adopted.status == 0 else { throw SandboxError(description: "init: \(adopted.stderr)") }
        try sandbox.git(["add", "modules.json", "Tenants"], in: work)
        try sandbox.git(["commit", "-q", "-m", "Describe modules and tenants for tenantctl"], in: work)
        try sandbox.git(["push", "-q", "origin", "main"], in: work)
        dev = sandbox.path("\(name)/dev")
        try sandbox.git(["clone", "-q", "--recurse-submodules", "\(remotes)/App.git", dev])
    }

    /// The git calls of an uninterrupted `switch release-1.0` in `dev`, with the 0-based index of the move's
    /// `rev-parse --absolute-git-dir` (then its two `config` calls) and of the module's own first step after it.
    func switchToTheReleaseLine() throws -> (calls: [String], move: Int, step: Int) {
        let name = ((dev as NSString).deletingLastPathComponent as NSString).lastPathComponent
        let logged = try GitShim(in: sandbox, name: "shim-\(name)")
        let run = try sandbox.tenantctlProcess(["switch", "release-1.0", "--git", logged.path], in: dev)
        try #require(run.status == 0, "\(run.stderr)")
        let calls = try logged.calls()
        let move = try #require(calls.lastIndex { $0.contains("--absolute-git-dir") && $0.contains("deps/cap/src") })
        let step = try #require(calls.indices.first { $0 > move + 2 && calls[$0].contains("/plugins/cap") })
        return (calls, move, step)
    }

    /// What a switch that failed or was put back must leave: the superproject's and Cap's snapshot
    /// (`SwitchFixture.snapshot`). The upstream of a branch switch creates is configured before the branch and stays
    /// when it is deleted again (docs/GUARANTEES.md); everything else is compared.
    func snapshot() throws -> [String: String] {
        try SwitchFixture.snapshot(
            sandbox: sandbox, repositories: [("superproject", dev), ("Cap", dev + "/deps/cap/src")]
        )
        .mapValues {
            $0.split(separator: "\n", omittingEmptySubsequences: false)
                .filter { !$0.hasPrefix("branch.release/1.0.") }.joined(separator: "\n")
        }
    }
}

@Suite("moved module paths", .tags(.slow), .notInTheFastSet)
struct MovedModulePathTests {
    /// A fresh clone of the release line has Cap at the old path: status finds it there (at its pin), not
    /// "not initialised" at main's path.
    @Test func statusFindsTheModuleWhereTheReleaseLineHasIt() throws {
        let sandbox = try GitSandbox()
        let app = try MovedModuleSuperproject(sandbox: sandbox)
        let line = sandbox.path("line")
        try sandbox.git(
            ["clone", "-q", "--recurse-submodules", "-b", "release/1.0", sandbox.path("moved/remotes/App.git"), line])
        let status = sandbox.tenantctl(["status", "--json"], in: line)
        #expect(status.status == 0, "\(status.stderr)")
        let report = try JSONDecoder().decode(StatusReport.self, from: Data(status.stdout.utf8))
        #expect(report.tenant == "release-1.0")
        let cap = try #require(report.modules.first)
        #expect(cap.path == "plugins/cap")
        #expect(cap.pin == app.old)
        #expect(cap.relation == .atPin, "\(cap)")

        // pin records a new Cap commit at the release line's path.
        try sandbox.git(["switch", "-q", "-C", "master"], in: line + "/plugins/cap")
        let fix = try sandbox.commit(in: "line/plugins/cap", file: "Fix.txt", content: "fix\n", message: "fix for 1.0")
        try sandbox.git(["push", "-q", "origin", "master:fix-1.0"], in: line + "/plugins/cap")
        let pinned = sandbox.tenantctl(["pin"], in: line)
        #expect(pinned.status == 0, "\(pinned.stderr)")
        let gitlinks = try sandbox.gitlinks(on: "HEAD", in: line)
        #expect(gitlinks == ["plugins/cap": fix], "\(gitlinks)")
    }

    /// switch to the release line moves Cap's checkout to where that branch has it, on its branch at the pin;
    /// switching back puts it at main's path again.
    @Test func switchChecksTheModuleOutWhereTheBranchHasIt() throws {
        let sandbox = try GitSandbox()
        let app = try MovedModuleSuperproject(sandbox: sandbox)
        let planned = sandbox.tenantctl(["switch", "release-1.0", "--dry-run"], in: app.dev)
        #expect(planned.stdout.contains("will move its checkout from deps/cap/src to plugins/cap"), "\(planned.stdout)")
        let switched = sandbox.tenantctl(["switch", "release-1.0"], in: app.dev)
        #expect(switched.status == 0, "\(switched.stderr)")
        #expect(
            switched.stdout.contains("moved its checkout from deps/cap/src to plugins/cap, where release/1.0 has it"),
            "\(switched.stdout)")
        #expect(try sandbox.git(["rev-parse", "HEAD"], in: app.dev + "/plugins/cap") == app.old)
        #expect(try sandbox.git(["symbolic-ref", "--short", "HEAD"], in: app.dev + "/plugins/cap") == "master")
        #expect(
            try sandbox.git(["rev-parse", "--show-toplevel"], in: app.dev + "/plugins/cap") == app.dev + "/plugins/cap")
        #expect(!FileManager.default.fileExists(atPath: app.dev + "/deps/cap/src/README"))
        #expect(try sandbox.git(["status", "--porcelain"], in: app.dev).isEmpty)
        let status = try JSONDecoder().decode(
            StatusReport.self, from: Data(sandbox.tenantctl(["status", "--json"], in: app.dev).stdout.utf8))
        #expect(status.modules.map(\.path) == ["plugins/cap"])
        #expect(status.modules.first?.relation == .atPin, "\(status.modules)")

        let back = sandbox.tenantctl(["switch", "main"], in: app.dev)
        #expect(back.status == 0, "\(back.stderr)")
        #expect(try sandbox.git(["rev-parse", "HEAD"], in: app.dev + "/deps/cap/src") == app.new)
        #expect(try sandbox.git(["symbolic-ref", "--short", "HEAD"], in: app.dev + "/deps/cap/src") == "master")
        #expect(!FileManager.default.fileExists(atPath: app.dev + "/plugins/cap/README"))
        #expect(try sandbox.git(["status", "--porcelain"], in: app.dev).isEmpty)
        let again = sandbox.tenantctl(["switch", "release-1.0"], in: app.dev)
        #expect(again.status == 0, "\(again.stderr)")
    }

    /// A git call that fails after the checkout was moved (the move's own calls, the module's branch step, the
    /// last call): the module's checkout is back at main's path with its branch and files, the superproject back
    /// on main, no journal left; the re-run switches.
    @Test func aSwitchFailingAfterTheMoveMovesTheCheckoutBack() throws {
        let sandbox = try GitSandbox()
        let reference = try MovedModuleSuperproject(sandbox: sandbox, name: "reference")
        // 0-based: the move's `rev-parse --absolute-git-dir`, its two `config` calls, then the module's own step.
        let (calls, move, step) = try reference.switchToTheReleaseLine()
        let indices = Set([move + 1, move + 2, move + 3, step + 1, calls.count])
        for index in indices.sorted() {
            let app = try MovedModuleSuperproject(sandbox: sandbox, name: "fail-\(index)")
            let before = try app.snapshot()
            let shim = try GitShim(in: sandbox, name: "shim-fail-\(index)")
            let failed = try sandbox.tenantctlProcess(
                ["switch", "release-1.0", "--git", shim.path], in: app.dev,
                environment: ["SHIM_FAIL_AT": "\(index)", "SHIM_FAIL_STATUS": "128"])
            let label = "failure at call \(index): \(calls[index - 1])"
            #expect(failed.status == 1, "\(label): \(failed.stderr)")
            #expect(failed.stderr.contains("back where it was"), "\(label): \(failed.stderr)")
            #expect(try app.snapshot() == before, "\(label)")
            #expect(!FileManager.default.fileExists(atPath: app.dev + "/plugins/cap/README"), "\(label)")
            #expect(try !SwitchSignalFaultTests.unfinishedSwitch(app.dev), "\(label)")
            let rerun = sandbox.tenantctl(["switch", "release-1.0"], in: app.dev)
            #expect(rerun.status == 0, "\(label): re-run: \(rerun.stderr)")
            #expect(try sandbox.git(["rev-parse", "HEAD"], in: app.dev + "/plugins/cap") == app.old, "\(label)")
        }
    }

    /// A switch killed after the checkout was moved leaves its journal; the next switch (here back to main) moves
    /// the checkout back and puts everything else back first, then the switch to the release line works.
    @Test func aSwitchKilledAfterTheMoveIsPutBackByTheNextSwitch() throws {
        let sandbox = try GitSandbox()
        let reference = try MovedModuleSuperproject(sandbox: sandbox, name: "reference")
        #expect(sandbox.tenantctl(["switch", "main"], in: reference.dev).status == 0)
        let (calls, _, step) = try reference.switchToTheReleaseLine()
        for index in [step + 1, calls.count] {
            let app = try MovedModuleSuperproject(sandbox: sandbox, name: "kill-\(index)")
            // Modules on their branches first: what the switch back to main ends on.
            #expect(sandbox.tenantctl(["switch", "main"], in: app.dev).status == 0)
            let before = try app.snapshot()
            let shim = try GitShim(in: sandbox, name: "shim-kill-\(index)")
            let killed = try sandbox.tenantctlProcess(
                ["switch", "release-1.0", "--git", shim.path], in: app.dev, environment: ["SHIM_KILL_AT": "\(index)"])
            let label = "kill at call \(index): \(calls[index - 1])"
            #expect(killed.status == -SIGKILL, "\(label): \(killed.stderr)")
            #expect(try SwitchSignalFaultTests.unfinishedSwitch(app.dev, changed: true), "\(label)")
            let back = sandbox.tenantctl(["switch", "main"], in: app.dev)
            #expect(back.status == 0, "\(label): \(back.stderr)")
            #expect(try app.snapshot() == before, "\(label)")
            let again = sandbox.tenantctl(["switch", "release-1.0"], in: app.dev)
            #expect(again.status == 0, "\(label): \(again.stderr)")
            #expect(try sandbox.git(["rev-parse", "HEAD"], in: app.dev + "/plugins/cap") == app.old, "\(label)")
        }
    }
}
