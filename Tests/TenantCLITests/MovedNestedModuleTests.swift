import Foundation
import TenantKit
import TenantTestSupport
import Testing

/// An obs-studio-shaped superproject: the module libdshowcapture holds a nested submodule of its own
/// (`external/capture-device-support`), and its path moved between the release lines: `master` has it at
/// `deps/libdshowcapture/src`, the older `release/30.0` at `releasePath` (`plugins/win-dshow/libdshowcapture` as on
/// obs, same depth; or `plugins/dshow`, one level less, so that the nested `.git` file leads nowhere either). Same
/// submodule name on both (`git mv`). Adopted with `init` on `master`; `dev` is a clone with every submodule, the
/// nested one included, initialised (its git directory inside the module's, under the superproject's `.git/modules`).
struct MovedNestedModuleSuperproject {
    static let master = "deps/libdshowcapture/src"
    static let nested = "external/capture-device-support"

    let sandbox: GitSandbox
    /// The developer's clone (on `master`).
    let dev: String
    /// Where `release/30.0` has the module.
    let releasePath: String
    /// The nested submodule's commit both module commits record.
    let nestedCommit: String

    init(sandbox: GitSandbox, name: String = "obs", releasePath: String = "plugins/win-dshow/libdshowcapture") throws {
        self.sandbox = sandbox
        self.releasePath = releasePath
        let remotes = sandbox.path("\(name)/remotes")
        let device = try sandbox.seedRepository("capture-device-support", remotes: remotes, seed: "\(name)/seed-cds")
        try sandbox.git(["push", "-q", "origin", "master"], in: device)
        nestedCommit = try sandbox.git(["rev-parse", "HEAD"], in: device)
        let module = try sandbox.seedRepository("libdshowcapture", remotes: remotes, seed: "\(name)/seed-lds")
        try sandbox.git(["submodule", "add", "-q", "../capture-device-support.git", Self.nested], in: module)
        try sandbox.git(["commit", "-q", "-m", "vendor capture-device-support"], in: module)
        try sandbox.git(["push", "-q", "origin", "master"], in: module)
        try sandbox.git(["init", "-q", "--bare", "-b", "master", "\(remotes)/obs-studio.git"])
        let work = sandbox.path("\(name)/work")
        try sandbox.git(["clone", "-q", "\(remotes)/obs-studio.git", work])
        try sandbox.git(["submodule", "add", "-q", "../libdshowcapture.git", releasePath], in: work)
        try sandbox.git(["commit", "-q", "-m", "obs with libdshowcapture"], in: work)
        try sandbox.git(["branch", "release/30.0"], in: work)
        try sandbox.commit(in: "\(name)/seed-lds", file: "Two.txt", content: "2\n", message: "libdshowcapture 2")
        try sandbox.git(["push", "-q", "origin", "master"], in: module)
        try sandbox.git(["-C", releasePath, "pull", "-q", "origin", "master"], in: work)
        try sandbox.git(["add", releasePath], in: work)
        try sandbox.git(["commit", "-q", "-m", "libdshowcapture 2"], in: work)
        try FileManager.default.createDirectory(
            atPath: work + "/deps/libdshowcapture", withIntermediateDirectories: true)
        try sandbox.git(["mv", releasePath, Self.master], in: work)
        try sandbox.git(["commit", "-q", "-m", "move libdshowcapture to deps"], in: work)
        try sandbox.git(["push", "-q", "origin", "master", "release/30.0"], in: work)
        let adopted = sandbox.tenantctl(["init"], in: work)
        guard adopted.status == 0 else { throw SandboxError(description: "init: \(adopted.stderr)") }
        try sandbox.git(["add", "modules.json", "Tenants"], in: work)
        try sandbox.git(["commit", "-q", "-m", "Describe modules and tenants for tenantctl"], in: work)
        try sandbox.git(["push", "-q", "origin", "master"], in: work)
        dev = sandbox.path("\(name)/dev")
        try sandbox.git(["clone", "-q", "--recurse-submodules", "\(remotes)/obs-studio.git", dev])
    }

    /// The superproject's, the module's and the nested checkout's snapshot (`SwitchFixture.snapshot`), the module at
    /// `path`; the upstream of a branch a switch creates stays when it is deleted again (docs/GUARANTEES.md).
    func snapshot(modulePath: String = Self.master) throws -> [String: String] {
        try SwitchFixture.snapshot(
            sandbox: sandbox,
            repositories: [
                ("superproject", dev), ("module", dev + "/" + modulePath),
                ("nested", dev + "/" + modulePath + "/" + Self.nested),
            ]
        )
        .mapValues {
            $0.split(separator: "\n", omittingEmptySubsequences: false)
                .filter { !$0.hasPrefix("branch.release/30.0.") }.joined(separator: "\n")
        }
    }

    /// Expects the module's checkout at `path` with its nested checkout whole: git works in both, finds the nested
    /// one's top level where it is, at the commit the module records; nothing is left at `gone`; plain git works in
    /// every repository.
    func expectCheckedOut(at path: String, notAt gone: String, _ label: String) throws {
        let nested = dev + "/" + path + "/" + Self.nested
        #expect(try sandbox.git(["rev-parse", "--show-toplevel"], in: nested) == nested, "\(label)")
        #expect(try sandbox.git(["rev-parse", "HEAD"], in: nested) == nestedCommit, "\(label)")
        #expect(
            try sandbox.git(["rev-parse", "--show-toplevel"], in: dev + "/" + path) == dev + "/" + path, "\(label)")
        #expect(!FileManager.default.fileExists(atPath: dev + "/" + gone + "/README"), "\(label)")
        #expect(PlainGitAfterSwitch.failures(in: dev, sandbox: sandbox) == [], "\(label)")
        #expect(try sandbox.git(["status", "--porcelain"], in: dev).isEmpty, "\(label)")
    }
}

@Suite("moved module holding a nested submodule", .tags(.slow), .notInTheFastSet)
struct MovedNestedModuleTests {
    /// The switch report's entry of libdshowcapture, from `--json`: its `path`, `movedFrom` and `nestedMoved`.
    static func entry(_ output: String) throws -> (path: String?, movedFrom: String?, nestedMoved: [String]?) {
        let report = try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any]
        let entry = try #require(
            (report?["repositories"] as? [[String: Any]])?.first { $0["repository"] as? String == "libdshowcapture" },
            "\(output)")
        return (entry["path"] as? String, entry["movedFrom"] as? String, entry["nestedMoved"] as? [String])
    }

    /// switch to the release line and back, with and without `--no-recursive`, at obs's paths (same depth) and at a
    /// shallower one: the dry run says the checkout moves with its nested checkout, the switch does exactly that
    /// (exit 0, the nested checkout's links pointed at the new place), and plain git works in every repository
    /// after each switch; `status` and `switch -` work on the result.
    @Test(
        arguments: [
            (true, "plugins/win-dshow/libdshowcapture"), (false, "plugins/win-dshow/libdshowcapture"),
            (true, "plugins/dshow"), (false, "plugins/dshow"),
        ])
    func switchMovesTheNestedCheckoutBothWays(recursive: Bool, releasePath: String) throws {
        let sandbox = try GitSandbox()
        let app = try MovedNestedModuleSuperproject(sandbox: sandbox, releasePath: releasePath)
        let options = recursive ? [] : ["--no-recursive"]
        let master = MovedNestedModuleSuperproject.master
        for (target, from, to) in [("release-30.0", master, releasePath), ("master", releasePath, master)] {
            let label = "\(target), recursive: \(recursive), \(releasePath)"
            let planned = sandbox.tenantctl(["switch", target, "--dry-run"] + options, in: app.dev)
            #expect(planned.status == 0, "\(label): \(planned.stderr)")
            #expect(
                planned.stdout.contains(
                    "will move its checkout from \(from) to \(to), where \(target == "master" ? "master" : "release/30.0") has it, "
                        + "with its nested checkout \(MovedNestedModuleSuperproject.nested)"),
                "\(label): \(planned.stdout)")
            let plannedJSON = sandbox.tenantctl(["switch", target, "--dry-run", "--json"] + options, in: app.dev)
            let predicted = try Self.entry(plannedJSON.stdout)
            #expect(predicted.nestedMoved == [MovedNestedModuleSuperproject.nested], "\(label)")

            let switched = sandbox.tenantctl(["switch", target, "--json"] + options, in: app.dev)
            #expect(switched.status == 0, "\(label): \(switched.stderr)")
            let done = try Self.entry(switched.stdout)
            #expect(done.movedFrom == from && done.path == to, "\(label)")
            #expect(done.nestedMoved == predicted.nestedMoved, "\(label): the dry run predicted what happened")
            try app.expectCheckedOut(at: to, notAt: from, label)
            let status = sandbox.tenantctl(["status"], in: app.dev)
            #expect(status.status == 0, "\(label): \(status.stderr)")
        }
        let previous = sandbox.tenantctl(["switch", "-"] + options, in: app.dev)
        #expect(previous.status == 0, "\(previous.stderr)")
        try app.expectCheckedOut(at: releasePath, notAt: master, "switch -")
    }

    /// A git call failing at or after the nested checkout's links are pointed at the new place (each of the move's
    /// calls for it, the module's own step after it, the last call): the switch stops, everything is back where it
    /// was (the module's checkout and its nested one at master's path, links and all), plain git works everywhere,
    /// and the re-run switches.
    @Test func aSwitchFailingAfterTheMoveMovesTheNestedCheckoutBack() throws {
        let sandbox = try GitSandbox()
        let reference = try MovedNestedModuleSuperproject(sandbox: sandbox, name: "reference")
        let logged = try GitShim(in: sandbox, name: "shim-reference")
        let run = try sandbox.tenantctlProcess(["switch", "release-30.0", "--git", logged.path], in: reference.dev)
        try #require(run.status == 0, "\(run.stderr)")
        let calls = try logged.calls()
        // 1-based: the move's calls for the nested checkout (its core.worktree read and written), then the next one.
        let nestedCalls = calls.indices.filter {
            calls[$0].contains("core.worktree") && calls[$0].contains("capture-device-support")
        }.map { $0 + 1 }
        try #require(nestedCalls.count >= 2, "\(calls)")
        let indices = Set(nestedCalls + [(nestedCalls.max() ?? 0) + 1, calls.count])
        for index in indices.sorted() {
            let app = try MovedNestedModuleSuperproject(sandbox: sandbox, name: "fail-\(index)")
            let before = try app.snapshot()
            let shim = try GitShim(in: sandbox, name: "shim-fail-\(index)")
            let failed = try sandbox.tenantctlProcess(
                ["switch", "release-30.0", "--git", shim.path], in: app.dev,
                environment: ["SHIM_FAIL_AT": "\(index)", "SHIM_FAIL_STATUS": "128"])
            let label = "failure at call \(index): \(calls[index - 1])"
            #expect(failed.status == 1, "\(label): \(failed.stderr)")
            #expect(failed.stderr.contains("back where it was"), "\(label): \(failed.stderr)")
            #expect(try app.snapshot() == before, "\(label)")
            #expect(PlainGitAfterSwitch.failures(in: app.dev, sandbox: sandbox) == [], "\(label)")
            let rerun = sandbox.tenantctl(["switch", "release-30.0"], in: app.dev)
            #expect(rerun.status == 0, "\(label): re-run: \(rerun.stderr)")
            try app.expectCheckedOut(at: app.releasePath, notAt: MovedNestedModuleSuperproject.master, label)
        }
    }

    /// A switch killed between the nested checkout's two links (its `core.worktree` written, its `.git` file not:
    /// at the shallower path that file leads nowhere), or right after the move: the next switch (back to master)
    /// sets the nested links right, puts everything back, and plain git works everywhere; `runs --forget` instead
    /// leaves the checkouts where they are with their links set right and says so, and plain git works too.
    @Test(arguments: ["plugins/win-dshow/libdshowcapture", "plugins/dshow"])
    func aSwitchKilledInsideTheNestedMoveIsSetRight(releasePath: String) throws {
        let sandbox = try GitSandbox()
        let reference = try MovedNestedModuleSuperproject(
            sandbox: sandbox, name: "reference", releasePath: releasePath)
        // As each run below starts: the module on its branch (the calls of the switch then are the same).
        #expect(sandbox.tenantctl(["switch", "master"], in: reference.dev).status == 0)
        let logged = try GitShim(in: sandbox, name: "shim-reference")
        let run = try sandbox.tenantctlProcess(["switch", "release-30.0", "--git", logged.path], in: reference.dev)
        try #require(run.status == 0, "\(run.stderr)")
        let calls = try logged.calls()
        let write = try #require(
            calls.indices.last {
                calls[$0].contains("core.worktree") && calls[$0].contains("capture-device-support")
                    && !calls[$0].contains(" --get ")
            }, "\(calls)")
        // SHIM_KILL_AFTER: the nested core.worktree written, its .git file not (the module's own moved already).
        let kills = [
            ("SHIM_KILL_AFTER", write + 1, "switch"), ("SHIM_KILL_AFTER", write + 1, "forget"),
            ("SHIM_KILL_AT", write + 2, "switch"),
        ]
        for (variable, index, wayOut) in kills {
            let label = "\(releasePath), \(variable)=\(index) (\(calls[index - 1])), then \(wayOut)"
            let app = try MovedNestedModuleSuperproject(
                sandbox: sandbox, name: "kill-\(index)-\(wayOut)", releasePath: releasePath)
            #expect(sandbox.tenantctl(["switch", "master"], in: app.dev).status == 0)
            let before = try app.snapshot()
            let shim = try GitShim(in: sandbox, name: "shim-kill-\(index)-\(wayOut)")
            let killed = try sandbox.tenantctlProcess(
                ["switch", "release-30.0", "--git", shim.path], in: app.dev, environment: [variable: "\(index)"])
            #expect(killed.status == -SIGKILL, "\(label): \(killed.stderr)")
            if wayOut == "forget" {
                let stopped = try #require(try SwitchStepRecoveryTests.unfinishedSwitch(app.dev), "\(label)")
                let forget = try sandbox.tenantctlProcess(["runs", "--forget", stopped.runId], in: app.dev)
                #expect(forget.status == 0, "\(label): \(forget.stderr)")
                // At the shallower path the nested .git file led nowhere: the forget says it set it right.
                #expect(
                    (releasePath == "plugins/dshow") == forget.stdout.contains("nested checkout at"),
                    "\(label): \(forget.stdout)")
                #expect(PlainGitAfterSwitch.failures(in: app.dev, sandbox: sandbox) == [], "\(label)")
                let nested = app.dev + "/" + releasePath + "/" + MovedNestedModuleSuperproject.nested
                #expect(try sandbox.git(["rev-parse", "--show-toplevel"], in: nested) == nested, "\(label)")
                let status = try sandbox.tenantctlProcess(["status"], in: app.dev)
                #expect(status.status == 0, "\(label): \(status.stderr)")
            } else {
                let back = sandbox.tenantctl(["switch", "master"], in: app.dev)
                #expect(back.status == 0, "\(label): \(back.stderr)")
                #expect(try app.snapshot() == before, "\(label)")
                #expect(PlainGitAfterSwitch.failures(in: app.dev, sandbox: sandbox) == [], "\(label)")
            }
            let again = sandbox.tenantctl(["switch", "release-30.0"], in: app.dev)
            #expect(again.status == 0, "\(label): \(again.stderr)")
            try app.expectCheckedOut(at: app.releasePath, notAt: MovedNestedModuleSuperproject.master, label)
        }
    }
}
