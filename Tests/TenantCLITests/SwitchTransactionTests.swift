import Foundation
import TenantKit
import TenantTestSupport
import Testing

/// switch is all-or-nothing: what git would refuse half-way is found before anything moves, and a refusal leaves
/// every repository byte-for-byte as it was (HEADs, index, status, branches, untracked and ignored files).
@Suite("switch transaction", .tags(.slow), .notInTheFastSet)
struct SwitchTransactionTests {
    /// A refusal: exit 1, each phrase in the message, every repository exactly as before.
    func expectRefusal(_ fixture: SwitchFixture, target: String, mentioning phrases: [String]) throws {
        let before = try fixture.snapshot()
        let result = fixture.sandbox.tenantctl(["switch", target], in: fixture.workspace)
        #expect(result.status == 1, "stdout: \(result.stdout)\nstderr: \(result.stderr)")
        for phrase in phrases { #expect(result.stderr.contains(phrase), "stderr lacks '\(phrase)': \(result.stderr)") }
        let after = try fixture.snapshot()
        for (repository, state) in before {
            #expect(after[repository] == state, "\(repository) changed")
        }
    }

    /// Rewrites the remote's tenant branch `branch` so that `Modules/Order` is a regular file and Order is no module
    /// of it (modules.json, .gitmodules and the tenants without Order).
    static func replaceOrderByAFile(_ fixture: SwitchFixture, on branch: String) throws {
        let sandbox = fixture.sandbox
        let build = sandbox.path("src/Superproject")
        try sandbox.git(["switch", "-q", branch], in: build)
        try sandbox.git(["rm", "-q", "Modules/Order"], in: build)
        try SwitchFixture.writeManifest(
            sandbox, modules: SwitchFixture.modules.filter { $0 != "Order" },
            tenants: [
                ("t1", ["Infrastructure", "Article", "Customer"], []),
                ("t2", ["Infrastructure", "Customer"], ["Infrastructure", "Customer"]),
                ("t3", ["Infrastructure", "Article", "Customer"], []),
            ])
        try sandbox.write("src/Superproject/Modules/Order", "Order is a file on \(branch)\n")
        try sandbox.git(["add", "-A"], in: build)
        try sandbox.git(["commit", "-q", "-m", "\(branch): Order becomes a file"], in: build)
        try sandbox.git(["push", "-q", "origin", branch], in: build)
        try sandbox.git(["switch", "-q", "general_dev"], in: build)
    }

    /// A module checkout that the target replaces by a regular file, holding an untracked and an ignored file: the
    /// pre-flight names both and nothing changes; once they are moved away the switch replaces the clean checkout,
    /// and switching back sets the module up again.
    @Test func aModuleReplacedByAFileWithUntrackedFilesIsRefusedThenSwitchesWhenClean() throws {
        let sandbox = try GitSandbox()
        let fixture = try SwitchFixture(sandbox: sandbox)
        try Self.replaceOrderByAFile(fixture, on: "t1")
        let order = fixture.module("Order")
        try "my notes\n".write(toFile: order + "/notes.txt", atomically: true, encoding: .utf8)
        let exclude = try sandbox.git(["rev-parse", "--path-format=absolute", "--git-path", "info/exclude"], in: order)
        try "*.log\n".write(toFile: exclude, atomically: true, encoding: .utf8)
        try "build output\n".write(toFile: order + "/build.log", atomically: true, encoding: .utf8)
        try expectRefusal(
            fixture, target: "t1", mentioning: ["Modules/Order/notes.txt", "Modules/Order/build.log", "replaces"])
        #expect(FileManager.default.fileExists(atPath: order + "/notes.txt"))
        #expect(FileManager.default.fileExists(atPath: order + "/build.log"))

        // Positive control: a clean checkout is replaced, and the next switch sets the module up again.
        try FileManager.default.removeItem(atPath: order + "/notes.txt")
        try FileManager.default.removeItem(atPath: order + "/build.log")
        var result = sandbox.tenantctl(["switch", "t1"], in: fixture.workspace)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try String(contentsOfFile: order, encoding: .utf8) == "Order is a file on t1\n")
        result = sandbox.tenantctl(["switch", "t2"], in: fixture.workspace)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try sandbox.git(["symbolic-ref", "--short", "HEAD"], in: order) == "general_dev")
        #expect(try sandbox.git(["rev-parse", "HEAD"], in: order) == fixture.pin("Order", on: "t2"))
        #expect(try sandbox.git(["status", "--porcelain=v2"], in: fixture.workspace) == "")
    }

    /// A local branch `t3/wip` in Order blocks creating `t3` there: found in the pre-flight, nothing changes, and
    /// the printed rename runs and lets the switch through.
    @Test func aBranchBelowTheTenantBranchNameIsRefusedInThePreflight() throws {
        let sandbox = try GitSandbox()
        let fixture = try SwitchFixture(sandbox: sandbox)
        let order = fixture.module("Order")
        try sandbox.git(["branch", "t3/wip"], in: order)
        let fix = "git -C Modules/Order branch -m t3/wip t3-wip"
        try expectRefusal(fixture, target: "t3", mentioning: ["local branch t3/wip blocks creating branch t3", fix])

        let renamed = try sandbox.run("/bin/sh", ["-c", "cd \"$1\" && \(fix)", "sh", fixture.workspace])
        #expect(renamed.status == 0, "\(renamed.stderr)")
        let result = sandbox.tenantctl(["switch", "t3"], in: fixture.workspace)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try sandbox.git(["symbolic-ref", "--short", "HEAD"], in: order) == "t3")
        #expect(try sandbox.git(["symbolic-ref", "--short", "HEAD"], in: fixture.workspace) == "t3")
    }

    /// A module directory that is a symbolic link (to another checkout of the module) is refused before anything
    /// moves and never replaced; once it is a real directory again, the switch works.
    @Test func aSymlinkedModuleDirectoryIsRefusedAndKept() throws {
        let sandbox = try GitSandbox()
        let fixture = try SwitchFixture(sandbox: sandbox)
        let elsewhere = sandbox.path("elsewhere/Infrastructure")
        try sandbox.git(["clone", "-q", "-b", "general_dev", sandbox.path("remotes/Infrastructure.git"), elsewhere])
        let infrastructure = fixture.module("Infrastructure")
        try sandbox.git(["submodule", "deinit", "-q", "--force", "Modules/Infrastructure"], in: fixture.workspace)
        try FileManager.default.removeItem(atPath: infrastructure)
        try FileManager.default.createSymbolicLink(atPath: infrastructure, withDestinationPath: elsewhere)
        // (git status of the superproject refuses a submodule path that is a symbolic link: not asked there.)
        let snapshotModules = SwitchFixture.modules.filter { $0 != "Infrastructure" }
        let before = try fixture.snapshot(modules: snapshotModules, superprojectStatus: false)
        let elsewhereHead = try sandbox.git(["rev-parse", "HEAD"], in: elsewhere)
        let result = sandbox.tenantctl(["switch", "t2"], in: fixture.workspace)
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        #expect(result.stderr.contains("Modules/Infrastructure"), "\(result.stderr)")
        #expect(result.stderr.contains("is a symbolic link (to \(elsewhere))"), "\(result.stderr)")
        #expect(result.stderr.contains("nothing was changed"), "\(result.stderr)")
        #expect(try fixture.snapshot(modules: snapshotModules, superprojectStatus: false) == before)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: infrastructure) == elsewhere)
        #expect(try sandbox.git(["rev-parse", "HEAD"], in: elsewhere) == elsewhereHead)

        // Positive control: without the link the module is set up and the switch succeeds.
        try FileManager.default.removeItem(atPath: infrastructure)
        let again = sandbox.tenantctl(["switch", "t2"], in: fixture.workspace)
        #expect(again.status == 0, "\(again.stderr)")
        #expect(try sandbox.git(["symbolic-ref", "--short", "HEAD"], in: infrastructure) == "t2")
    }

    /// `merge.verifySignatures=true` and unsigned commits: a fast-forward of the checked-out superproject branch
    /// is not a merge, so the switch moves it instead of stopping half-way.
    @Test func mergeVerifySignaturesDoesNotStopAFastForward() throws {
        let sandbox = try GitSandbox()
        let fixture = try SwitchFixture(sandbox: sandbox)
        #expect(sandbox.tenantctl(["switch", "t2"], in: fixture.workspace).status == 0)
        let tip = try fixture.pushColour("t2 blue", on: "t2")
        try sandbox.git(["config", "--global", "merge.verifySignatures", "true"])
        // Control: git itself refuses this fast-forward as a merge.
        try sandbox.git(["fetch", "-q", "origin"], in: fixture.workspace)
        let merge = try sandbox.gitResult(["merge", "--ff-only", "origin/t2"], in: fixture.workspace)
        #expect(merge.status != 0)
        let result = sandbox.tenantctl(["switch", "t2", "--json"], in: fixture.workspace)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("fast-forwarded"), "\(result.stdout)")
        #expect(try sandbox.git(["rev-parse", "HEAD"], in: fixture.workspace) == tip)
        #expect(try sandbox.git(["status", "--porcelain=v2"], in: fixture.workspace) == "")
    }

    /// A switch during an open `tenantctl resolve` names `resolve --continue` / `--abort`, never "commit or
    /// stash", and changes nothing; after `--abort` the switch works.
    @Test func aSwitchDuringAResolutionNamesContinueAndAbort() throws {
        let fixture = try ResolveFixture(wide: false)
        let started = fixture.resolve(["t2"])
        #expect(started.status == 2, "\(started.stdout)\(started.stderr)")
        let before = try fixture.workingCopy()
        let result = fixture.sandbox.tenantctl(["switch", "t1"], in: fixture.workspace)
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        #expect(result.stderr.contains("`tenantctl resolve --continue`"), "\(result.stderr)")
        #expect(result.stderr.contains("`tenantctl resolve --abort`"), "\(result.stderr)")
        #expect(!result.stderr.contains("commit or stash"), "\(result.stderr)")
        #expect(try fixture.workingCopy() == before)
        #expect(fixture.resolve(["--abort"]).status == 0)
        let switched = fixture.sandbox.tenantctl(["switch", "t1"], in: fixture.workspace)
        #expect(switched.status == 0, "\(switched.stderr)")
    }
}

/// What switch tells: commits a module branch keeps unpushed, `.gitmodules` that disagrees with modules.json, and
/// module clones under the workspace's remote name.
@Suite("switch reports", .tags(.slow), .notInTheFastSet)
struct SwitchReportTests {
    /// Order on t3 with a local commit: switching to t1 names the commit that t3 keeps unpushed (id and subject)
    /// and how to publish it; a module that leaves a branch with nothing unpushed gets no such line.
    @Test func leavingABranchWithUnpushedCommitsNamesThem() throws {
        let sandbox = try GitSandbox()
        let fixture = try SwitchFixture(sandbox: sandbox)
        #expect(sandbox.tenantctl(["switch", "t3"], in: fixture.workspace).status == 0)
        let local = try sandbox.commit(
            in: "workspace/Modules/Order", file: "Draft.swift", content: "// draft\n", message: "draft of the t3 form")
        let planned = sandbox.tenantctl(["switch", "t1", "--dry-run", "--json"], in: fixture.workspace)
        #expect(planned.status == 0, "\(planned.stderr)")
        #expect(try JSONSchemaCheck(contentsOf: SwitchReportTests.schema).violations(of: planned.stdout) == [])
        let report = try JSONDecoder().decode(SwitchReport.self, from: Data(planned.stdout.utf8))
        let entry = try #require(report.repositories.first { $0.repository == "Order" })
        #expect(entry.keptBranch == "t3" && entry.keptUnpushed == 1, "\(entry)")
        #expect(entry.keptCommits == ["\(local.prefix(7)) draft of the t3 form"])
        #expect(report.repositories.filter { $0.keptUnpushed > 0 }.count == 1)

        let result = sandbox.tenantctl(["switch", "t1"], in: fixture.workspace)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("Order: branch t3 keeps 1 commit that no remote has"), "\(result.stdout)")
        #expect(result.stdout.contains("\(local.prefix(7)) draft of the t3 form"), "\(result.stdout)")
        #expect(result.stdout.contains("git -C Modules/Order push origin t3"), "\(result.stdout)")
        #expect(!result.stdout.contains("Infrastructure: branch"), "\(result.stdout)")
        #expect(try sandbox.git(["rev-parse", "refs/heads/t3"], in: fixture.module("Order")) == local)

        // The printed command runs as printed.
        let pushed = try sandbox.run(
            "/bin/sh", ["-c", "cd \"$1\" && git -C Modules/Order push origin t3", "sh", fixture.workspace])
        #expect(pushed.status == 0, "\(pushed.stderr)")
    }

    static let schema = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("docs/schemas/switch.schema.json").path

    /// A tenant branch whose `.gitmodules` gives Order another repository's URL: switch says so, keeps Order's
    /// origin at modules.json's URL, and the next switch works.
    @Test func gitmodulesDriftIsReportedAndModulesJSONsURLIsUsed() throws {
        let sandbox = try GitSandbox()
        let fixture = try SwitchFixture(sandbox: sandbox)
        try fixture.pointGitmodules(of: "Order", to: "../Customer.git", on: "t3")
        let order = fixture.module("Order")
        let expected = try sandbox.git(["config", "remote.origin.url"], in: order)

        let result = sandbox.tenantctl(["switch", "t3"], in: fixture.workspace)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("Order: .gitmodules on t3 names ../Customer.git"), "\(result.stdout)")
        #expect(try sandbox.git(["config", "remote.origin.url"], in: order) == expected)
        #expect(try sandbox.git(["symbolic-ref", "--short", "HEAD"], in: order) == "t3")
        #expect(!result.stdout.contains("submodule sync"), "\(result.stdout)")

        // status says so too, with a warning, and JSON `gitmodulesURL`; Article's URL agrees and gets none.
        let status = sandbox.tenantctl(["status", "--json"], in: fixture.workspace)
        #expect(status.status == 0, "\(status.stderr)")
        #expect(try JSONSchemaCheck(contentsOf: Self.statusSchema).violations(of: status.stdout) == [])
        let report = try JSONDecoder().decode(StatusReport.self, from: Data(status.stdout.utf8))
        #expect(report.modules.first { $0.module == "Order" }?.gitmodulesURL == "../Customer.git")
        #expect(report.modules.filter { $0.gitmodulesURL != nil }.map(\.module) == ["Order"])
        let text = sandbox.tenantctl(["status"], in: fixture.workspace)
        #expect(
            text.stdout.contains(
                "warning: Order: .gitmodules on this branch names ../Customer.git, not modules.json's URL; "
                    + "tenantctl keeps Modules/Order's origin at modules.json's"), "\(text.stdout)")

        let next = sandbox.tenantctl(["switch", "t2"], in: fixture.workspace)
        #expect(next.status == 0, "\(next.stderr)")
        #expect(try sandbox.git(["config", "remote.origin.url"], in: order) == expected)
        // Control: on t2, whose .gitmodules agrees, status reports no drift.
        let agreeing = try JSONDecoder().decode(
            StatusReport.self, from: Data(sandbox.tenantctl(["status", "--json"], in: fixture.workspace).stdout.utf8))
        #expect(agreeing.modules.allSatisfy { $0.gitmodulesURL == nil })
    }

    static let statusSchema = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("docs/schemas/status.schema.json").path

    /// A module that is not initialised, set up by a switch to a branch whose `.gitmodules` names another
    /// repository for it: it is cloned from modules.json's URL, not the branch's.
    @Test func aModuleClonedOnADriftedBranchUsesModulesJSONsURL() throws {
        let sandbox = try GitSandbox()
        let fixture = try SwitchFixture(sandbox: sandbox)
        try fixture.pointGitmodules(of: "Order", to: "../Customer.git", on: "t3")
        let order = fixture.module("Order")
        let expected = try sandbox.git(["config", "remote.origin.url"], in: order)
        try sandbox.git(["submodule", "deinit", "-q", "--force", "Modules/Order"], in: fixture.workspace)
        let gitDirectory = try sandbox.git(
            ["rev-parse", "--path-format=absolute", "--git-path", "modules/Modules/Order"], in: fixture.workspace)
        try FileManager.default.removeItem(atPath: gitDirectory)

        let result = sandbox.tenantctl(["switch", "t3"], in: fixture.workspace)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try sandbox.git(["config", "remote.origin.url"], in: order) == expected)
        #expect(
            try sandbox.git(["config", "submodule.Modules/Order.url"], in: fixture.workspace) == expected)
        #expect(try sandbox.git(["symbolic-ref", "--short", "HEAD"], in: order) == "t3")
    }

    /// `clone.defaultRemoteName=upstream`: a module switch sets up is cloned with the remote `origin`, and later
    /// switches work.
    @Test func cloneDefaultRemoteNameDoesNotRenameTheModulesRemote() throws {
        let sandbox = try GitSandbox()
        let fixture = try SwitchFixture(sandbox: sandbox)
        try sandbox.git(["submodule", "deinit", "-q", "--force", "Modules/Article"], in: fixture.workspace)
        let gitDirectory = try sandbox.git(
            ["rev-parse", "--path-format=absolute", "--git-path", "modules/Modules/Article"], in: fixture.workspace)
        try FileManager.default.removeItem(atPath: gitDirectory)
        try sandbox.git(["config", "--global", "clone.defaultRemoteName", "upstream"])
        var result = sandbox.tenantctl(["switch", "t2"], in: fixture.workspace)
        #expect(result.status == 0, "\(result.stderr)")
        let article = fixture.module("Article")
        #expect(try sandbox.git(["remote"], in: article) == "origin")
        result = sandbox.tenantctl(["switch", "t3"], in: fixture.workspace)
        #expect(result.status == 0, "\(result.stderr)")
        result = sandbox.tenantctl(["switch", "t1"], in: fixture.workspace)
        #expect(result.status == 0, "\(result.stderr)")
    }

    /// `tenantctl example` with `clone.defaultRemoteName=upstream` builds a working example.
    @Test func exampleWorksWithCloneDefaultRemoteName() throws {
        let sandbox = try GitSandbox()
        try sandbox.git(["config", "--global", "clone.defaultRemoteName", "upstream"])
        let built = sandbox.tenantctl(["example", sandbox.path("ex")])
        #expect(built.status == 0, "\(built.stdout)\(built.stderr)")
        let workspace = sandbox.path("ex/workspace")
        let switched = sandbox.tenantctl(["switch", "t2"], in: workspace)
        #expect(switched.status == 0, "\(switched.stderr)")
        let again = sandbox.tenantctl(["switch", "t3"], in: workspace)
        #expect(again.status == 0, "\(again.stderr)")
    }
}
