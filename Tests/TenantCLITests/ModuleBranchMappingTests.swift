import Foundation
import TenantKit
import TenantTestSupport
import Testing

/// A release-line superproject shaped like obs-studio, built with plain git: `App` on `master` over `obs-websocket`
/// and `obs-browser` on `master`; the tenants are release branches. `release/31.0` pins obs-websocket on the module's
/// own branch `release/5.5.6` (a fix there), not on a branch named after the tenant. `init` ran on `master` and the
/// files were committed and pushed there only. `dev` is a developer's `git clone --recurse-submodules`.
struct ReleaseLineModuleBranches {
    let sandbox: GitSandbox
    /// `remotes/<name>.git`.
    let remotes: String
    /// The clone init ran in (on `master`).
    let work: String
    /// The developer's clone (on `master`).
    let dev: String
    /// init's output.
    let initialised: CLIResult
    /// obs-websocket's fix on `release/5.5.6`, pinned by `release/31.0`.
    let fix: String
    /// obs-websocket's `master` tip, pinned by `master`.
    let websocketMaster: String

    /// `alsoAt`: another branch of obs-websocket at the fix (init cannot tell which one the tenant follows then).
    /// `conflicting`: `master` and `release/5.5.6` change the same line of obs-websocket's README.
    init(sandbox: GitSandbox, alsoAt: String? = nil, conflicting: Bool = false) throws {
        self.sandbox = sandbox
        remotes = sandbox.path("remotes")
        let websocket = try sandbox.seedRepository("obs-websocket", remotes: remotes)
        try sandbox.git(["push", "-q", "origin", "master"], in: websocket)
        try sandbox.git(["switch", "-q", "-c", "release/5.5.6"], in: websocket)
        fix = try sandbox.commit(
            in: "seed-obs-websocket", file: conflicting ? "README" : "Fix.txt", content: "5.5.6 fix\n",
            message: "5.5.6: fix")
        try sandbox.git(["push", "-q", "origin", "release/5.5.6"], in: websocket)
        if let alsoAt {
            try sandbox.git(["push", "-q", "origin", "release/5.5.6:refs/heads/\(alsoAt)"], in: websocket)
        }
        try sandbox.git(["switch", "-q", "master"], in: websocket)
        websocketMaster = try sandbox.commit(
            in: "seed-obs-websocket", file: "README", content: "obs-websocket 2\n", message: "obs-websocket 2")
        try sandbox.git(["push", "-q", "origin", "master"], in: websocket)
        let browser = try sandbox.seedRepository("obs-browser", remotes: remotes)
        try sandbox.git(["push", "-q", "origin", "master"], in: browser)

        try sandbox.git(["init", "-q", "--bare", "-b", "master", "\(remotes)/App.git"])
        work = sandbox.path("app")
        try sandbox.git(["clone", "-q", "\(remotes)/App.git", work])
        try sandbox.git(["submodule", "add", "-q", "../obs-websocket.git", "plugins/obs-websocket"], in: work)
        try sandbox.git(["submodule", "add", "-q", "../obs-browser.git", "plugins/obs-browser"], in: work)
        try sandbox.git(["commit", "-q", "-m", "App with obs-websocket and obs-browser"], in: work)
        try sandbox.git(["switch", "-q", "-c", "release/31.0"], in: work)
        try sandbox.git(["update-index", "--cacheinfo", "160000,\(fix),plugins/obs-websocket"], in: work)
        try sandbox.git(["commit", "-q", "-m", "31.0: obs-websocket 5.5.6"], in: work)
        try sandbox.git(["switch", "-q", "master"], in: work)
        try sandbox.git(["push", "-q", "origin", "master", "release/31.0"], in: work)

        initialised = sandbox.tenantctl(["init"], in: work)
        guard initialised.status == 0 else { throw SandboxError(description: "init: \(initialised.stderr)") }
        try sandbox.git(["add", "modules.json", "Tenants"], in: work)
        try sandbox.git(["commit", "-q", "-m", "Describe modules and tenants for tenantctl"], in: work)
        try sandbox.git(["push", "-q", "origin", "master"], in: work)

        dev = sandbox.path("dev")
        try sandbox.git(["clone", "-q", "--recurse-submodules", "\(remotes)/App.git", dev])
    }

    /// A path in the developer's clone.
    func path(_ relative: String) -> String { dev + "/" + relative }

    /// obs-websocket's remote.
    var websocketRemote: String { remotes + "/obs-websocket.git" }

    /// The branches of obs-websocket's remote, read with plain git.
    func websocketBranches() throws -> [String: String] { try sandbox.branches(websocketRemote) }

    /// obs-websocket's pin on `branch` of the superproject's remote.
    func pin(on branch: String) throws -> String? {
        try sandbox.gitlinks(on: branch, in: remotes + "/App.git")["plugins/obs-websocket"]
    }

    /// The tenant file of release/31.0 as `master` on the remote has it.
    func tenantFile() throws -> String {
        try sandbox.git(["show", "master:Tenants/release-31.0.json"], in: remotes + "/App.git")
    }
}

/// A tenant follows a module branch not named after it: `"branches"` in its file, proposed by init, adopted by
/// `customize --branch`, and honoured by verify, audit, roll, switch, status, pin and resolve.
@Suite("module branches not named after the tenant")
struct ModuleBranchMappingTests {
    /// init maps obs-websocket to release/5.5.6 for release/31.0 (its pin is on that branch only) and says why;
    /// verify is clean and audit shows the module customised on that branch.
    @Test func initProposesTheMappingAndVerifyAndAuditHonourIt() throws {
        let sandbox = try GitSandbox()
        let app = try ReleaseLineModuleBranches(sandbox: sandbox)
        #expect(
            app.initialised.stdout.contains("release/31.0: obs-websocket follows release/5.5.6 (its pin "),
            "\(app.initialised.stdout)")
        #expect(try app.tenantFile().contains(#""branches": { "obs-websocket": "release/5.5.6" }"#))

        let verified = sandbox.tenantctl(["verify"], in: app.dev)
        #expect(verified.status == 0, "\(verified.stdout)\(verified.stderr)")
        #expect(!verified.stdout.contains("undeclared-customisation"), "\(verified.stdout)")

        let audit = sandbox.tenantctl(["audit", "--json"], in: app.dev)
        #expect(audit.status == 0, "\(audit.stderr)")
        let cell = try Self.cell(audit.stdout, tenant: "release-31.0", module: "obs-websocket")
        #expect(cell?["customised"] as? Bool == true, "\(String(describing: cell))")
        #expect(cell?["branch"] as? String == "release/5.5.6", "\(String(describing: cell))")
    }

    /// The control: the same project without the mapping (what init wrote before) is an undeclared customisation,
    /// and roll's fix for it is `customize --branch` with the branch that has the pin.
    @Test(.tags(.slow), .notInTheFastSet) func withoutTheMappingRollOffersToAdoptTheBranch() throws {
        let sandbox = try GitSandbox()
        let app = try ReleaseLineModuleBranches(sandbox: sandbox)
        try sandbox.git(["switch", "-q", "master"], in: app.work)
        let file = try sandbox.read("app/Tenants/release-31.0.json")
        try sandbox.write(
            "app/Tenants/release-31.0.json",
            file.replacingOccurrences(of: ",\n  \"branches\": { \"obs-websocket\": \"release/5.5.6\" }", with: ""))
        try sandbox.git(["commit", "-q", "-am", "drop the mapping"], in: app.work)
        try sandbox.git(["push", "-q", "origin", "master"], in: app.work)
        let unmapped = sandbox.tenantctl(["verify"], in: app.dev)
        #expect(unmapped.status != 0)
        #expect(unmapped.stdout.contains("undeclared-customisation"), "\(unmapped.stdout)")
        let blocked = sandbox.tenantctl(["roll", "--dry-run"], in: app.dev)
        #expect(
            blocked.stdout.contains("tenantctl customize release-31.0 obs-websocket --branch release/5.5.6"),
            "\(blocked.stdout)")
    }

    /// roll merges master into obs-websocket's release/5.5.6 (creating no release/31.0 branch there) and pins the
    /// merge on release/31.0; verify stays clean.
    @Test(.tags(.slow), .notInTheFastSet) func rollMergesTheGeneralBranchIntoTheMappedBranch() throws {
        let sandbox = try GitSandbox()
        let app = try ReleaseLineModuleBranches(sandbox: sandbox)
        let dryRun = sandbox.tenantctl(["roll", "--dry-run"], in: app.dev)
        #expect(dryRun.status == 0, "\(dryRun.stdout)\(dryRun.stderr)")
        #expect(!dryRun.stdout.contains("blocked: release-31.0"), "\(dryRun.stdout)")

        let rolled = sandbox.tenantctl(["roll"], in: app.dev)
        #expect(rolled.status == 0, "\(rolled.stdout)\(rolled.stderr)")
        let branches = try app.websocketBranches()
        #expect(branches["release/31.0"] == nil, "\(branches)")
        let merged = try #require(branches["release/5.5.6"])
        #expect(merged != app.fix)
        let ancestry = ["merge-base", "--is-ancestor"]
        #expect(try sandbox.gitResult(ancestry + [app.websocketMaster, merged], in: app.websocketRemote).status == 0)
        #expect(try sandbox.gitResult(ancestry + [app.fix, merged], in: app.websocketRemote).status == 0)
        #expect(try app.pin(on: "release/31.0") == merged)

        let verified = sandbox.tenantctl(["verify"], in: app.dev)
        #expect(verified.status == 0, "\(verified.stdout)\(verified.stderr)")
    }

    /// switch checks obs-websocket out on a local release/5.5.6 tracking origin/release/5.5.6 (not on master);
    /// status expects that branch; pin --push publishes a new commit of it and records it on release/31.0.
    @Test(.tags(.slow), .notInTheFastSet) func switchStatusAndPinFollowTheMappedBranch() throws {
        let sandbox = try GitSandbox()
        let app = try ReleaseLineModuleBranches(sandbox: sandbox)
        let module = app.path("plugins/obs-websocket")

        let switched = sandbox.tenantctl(["switch", "release-31.0"], in: app.dev)
        #expect(switched.status == 0, "\(switched.stdout)\(switched.stderr)")
        #expect(try sandbox.git(["symbolic-ref", "--short", "HEAD"], in: module) == "release/5.5.6")
        #expect(try sandbox.git(["rev-parse", "HEAD"], in: module) == app.fix)
        #expect(
            try sandbox.git(["rev-parse", "--abbrev-ref", "release/5.5.6@{upstream}"], in: module)
                == "origin/release/5.5.6")
        #expect(
            try sandbox.gitResult(["rev-parse", "--verify", "-q", "refs/heads/release/31.0"], in: module).status != 0)

        let status = sandbox.tenantctl(["status", "--json"], in: app.dev)
        #expect(status.status == 0, "\(status.stderr)")
        let report = try JSONDecoder().decode(StatusReport.self, from: Data(status.stdout.utf8))
        let websocket = report.modules.first { $0.module == "obs-websocket" }
        #expect(websocket?.expectedBranch == "release/5.5.6", "\(report.modules)")
        #expect(websocket?.relation == .atPin, "\(report.modules)")

        let next = try sandbox.commit(
            in: "dev/plugins/obs-websocket", file: "Fix2.txt", content: "2\n", message: "fix 2")
        let pinned = sandbox.tenantctl(["pin", "obs-websocket", "--push"], in: app.dev)
        #expect(pinned.status == 0, "\(pinned.stdout)\(pinned.stderr)")
        #expect(try app.pin(on: "release/31.0") == next)
        let branches = try app.websocketBranches()
        #expect(branches["release/5.5.6"] == next, "\(branches)")
        #expect(branches["release/31.0"] == nil, "\(branches)")
    }

    /// A roll whose merge into release/5.5.6 conflicts is resolved there: resolve merges master into the mapped
    /// branch, and --continue publishes that branch and pins it (no release/31.0 branch in the module).
    @Test(.tags(.slow), .notInTheFastSet) func resolveMergesIntoTheMappedBranch() throws {
        let sandbox = try GitSandbox()
        let app = try ReleaseLineModuleBranches(sandbox: sandbox, conflicting: true)
        let rolled = sandbox.tenantctl(["roll"], in: app.dev)
        #expect(rolled.stdout.contains("tenantctl resolve release-31.0"), "\(rolled.stdout)\(rolled.stderr)")

        let started = sandbox.tenantctl(["resolve", "release-31.0"], in: app.dev)
        #expect(started.status != 0 || started.stdout.contains("--continue"), "\(started.stdout)\(started.stderr)")
        let module = app.path("plugins/obs-websocket")
        #expect(try sandbox.git(["symbolic-ref", "--short", "HEAD"], in: module) == "release/5.5.6")
        try sandbox.write("dev/plugins/obs-websocket/README", "both\n")
        try sandbox.git(["add", "README"], in: module)
        let finished = sandbox.tenantctl(["resolve", "--continue"], in: app.dev)
        #expect(finished.status == 0, "\(finished.stdout)\(finished.stderr)")

        let branches = try app.websocketBranches()
        #expect(branches["release/31.0"] == nil, "\(branches)")
        let merged = try #require(branches["release/5.5.6"])
        #expect(try app.pin(on: "release/31.0") == merged)
        let ancestry = ["merge-base", "--is-ancestor", app.websocketMaster, merged]
        #expect(try sandbox.gitResult(ancestry, in: app.websocketRemote).status == 0)
    }

    /// Where the pin is the head of two branches init maps nothing and says so; `customize --branch` adopts the one
    /// the tenant follows, creating nothing in the module; a branch the module lacks is refused, changing nothing.
    @Test(.tags(.slow), .notInTheFastSet) func customizeBranchAdoptsAnExistingModuleBranch() throws {
        let sandbox = try GitSandbox()
        let app = try ReleaseLineModuleBranches(sandbox: sandbox, alsoAt: "release/5.5.x")
        #expect(app.initialised.stderr.contains("not mapped: release/31.0: obs-websocket pin"), "\(app.initialised)")
        #expect(try !app.tenantFile().contains("branches"))
        let before = try app.websocketBranches()
        let superBefore = try sandbox.branches(app.remotes + "/App.git")

        let missing = sandbox.tenantctl(
            ["customize", "release-31.0", "obs-websocket", "--branch", "release/9.9"], in: app.dev)
        #expect(missing.status != 0)
        #expect(missing.stderr.contains("has no branch release/9.9"), "\(missing.stderr)")
        #expect(try app.websocketBranches() == before)
        #expect(try sandbox.branches(app.remotes + "/App.git") == superBefore)

        let adopted = sandbox.tenantctl(
            ["customize", "release-31.0", "obs-websocket", "--branch", "release/5.5.6"], in: app.dev)
        #expect(adopted.status == 0, "\(adopted.stdout)\(adopted.stderr)")
        #expect(try app.websocketBranches() == before)
        #expect(try app.tenantFile().contains(#""branches": { "obs-websocket": "release/5.5.6" }"#))
        let onTenant = try sandbox.git(
            ["show", "release/31.0:Tenants/release-31.0.json"], in: app.remotes + "/App.git")
        #expect(onTenant.contains(#""obs-websocket": "release/5.5.6""#))
        let verified = sandbox.tenantctl(["verify"], in: app.dev)
        #expect(verified.status == 0, "\(verified.stdout)\(verified.stderr)")

        let again = sandbox.tenantctl(
            ["customize", "release-31.0", "obs-websocket", "--branch", "release/5.5.x"], in: app.dev)
        #expect(again.status != 0)
        #expect(again.stderr.contains("already customised, on branch release/5.5.6"), "\(again.stderr)")

        // The undo gives back the mapping only: here the tenant's pin is not on master, so it refuses and the
        // module's branch stays.
        let undo = sandbox.tenantctl(["uncustomize", "release-31.0", "obs-websocket"], in: app.dev)
        #expect(undo.status != 0)
        #expect(undo.stderr.contains("the tenant's pin has 1 commit not on master"), "\(undo.stderr)")
        #expect(try app.websocketBranches() == before)
    }

    /// The audit cell of `tenant` and `module` in `audit --json` output.
    static func cell(_ json: String, tenant: String, module: String) throws -> [String: Any]? {
        let root = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any]
        let tenants = root?["tenants"] as? [[String: Any]] ?? []
        let modules = tenants.first { $0["id"] as? String == tenant }?["modules"] as? [[String: Any]] ?? []
        return modules.first { $0["module"] as? String == module }
    }
}
