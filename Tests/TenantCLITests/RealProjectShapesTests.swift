import Foundation
import TenantKit
import TenantTestSupport
import Testing

/// Shapes real superprojects have and the example did not: a general-branch pin bumped with plain git and not
/// pushed, gitlinks `modules.json` does not name, a pin missing on the remote of a module not cloned yet, a module
/// path that moved before the first roll.
@Suite(.tags(.slow), .notInTheFastSet) struct RealProjectShapesTests {
    /// A developer bumps Article on general_dev with plain git and does not push the module commit: roll blocks
    /// general_dev as it blocks a tenant (missing-commit, the command that pushes it), the dry run says the same, and
    /// the pin is never moved back; once pushed, the next roll keeps it.
    @Test(.tags(.slow), .notInTheFastSet) func anUnpushedGeneralBranchPinBlocksGeneralInsteadOfMovingBack() throws {
        let fixture = try RollFixture()
        let clone = try fixture.clone("Article", branch: "general_dev")
        let unpushed = try fixture.commit(in: clone, file: "Bump.swift", content: "// not pushed\n")
        try fixture.setPins("general_dev", ["Article": unpushed])
        let before = try fixture.remoteBranches()
        let fix = "git -C Modules/Article push origin \(unpushed):refs/heads/general_dev"

        func general(_ result: CLIResult) throws -> [String: Any] {
            let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
            return try #require(object?["general"] as? [String: Any], "\(result.stdout)\(result.stderr)")
        }
        let dry = fixture.roll(["--dry-run", "--json"])
        #expect(dry.status == 2, "\(dry.stdout)\(dry.stderr)")
        let planned = try general(dry)
        #expect(planned["status"] as? String == "blocked", "\(planned)")
        #expect((planned["pins"] as? [Any])?.isEmpty == true, "\(planned)")
        let plannedReasons = RollFixture.reasons(planned)
        #expect(plannedReasons.map { $0["code"] } == ["missing-commit"], "\(plannedReasons)")
        #expect(plannedReasons.first?["module"] == "Article")
        #expect(plannedReasons.first?["fix"] == fix)

        let result = fixture.roll(["--json"])
        #expect(result.status == 2, "\(result.stdout)\(result.stderr)")
        let rolled = try general(result)
        #expect(rolled["status"] as? String == "blocked", "\(rolled)")
        #expect(RollFixture.reasons(rolled).map { $0["fix"] } == [fix])
        #expect(try fixture.pins("general_dev")["Modules/Article"] == unpushed, "the bump is never moved back")
        #expect(try fixture.remoteBranches()["Superproject"]?["general_dev"] == before["Superproject"]?["general_dev"])
        // The tenants roll as before: a customised one is not held back by general_dev's unpushed bump.
        let tenants = try RollFixture.tenants(result)
        #expect(tenants.values.allSatisfy { $0["status"] as? String != "blocked" }, "\(tenants)")

        // The table names general_dev blocked, counts it and prints the fix; the fix runs as printed.
        let table = fixture.roll()
        #expect(table.status == 2)
        #expect(table.stdout.contains("general_dev: \(fix)"), "\(table.stdout)")
        #expect(table.stdout.contains("1 blocked"), "\(table.stdout)")
        // The fix runs in the module clone that has the commit (here a plain clone, not the workspace's checkout).
        try fixture.sandbox.git(["push", "-q", "origin", "\(unpushed):refs/heads/general_dev"], in: clone)
        let after = fixture.roll(["--json"])
        #expect(after.status == 0, "\(after.stdout)\(after.stderr)")
        #expect(try fixture.pins("general_dev")["Modules/Article"] == unpushed)
        #expect(try fixture.pins("t3")["Modules/Article"] == unpushed)
    }

    /// A tenant branch pins a submodule at a path modules.json does not name (a repository added with plain git;
    /// a renamed one looks the same): switch checks it out at its pin as `git submodule update --init` would and
    /// reports it, and audit and verify report it too (instead of calling it .gitmodules drift).
    @Test(.tags(.slow), .notInTheFastSet) func aSubmoduleModulesJsonDoesNotNameIsCheckedOutAndReported() throws {
        let fixture = try SwitchCloneFixture()
        let sandbox = fixture.sandbox
        let seed = try sandbox.seedRepository("Extra", remotes: fixture.example.remotes)
        try sandbox.git(["push", "-q", "origin", "master"], in: seed)
        let pin = try sandbox.git(["rev-parse", "HEAD"], in: seed)
        let clone = sandbox.path("t1-clone")
        try sandbox.git(["clone", "-q", "-b", "t1", fixture.remote("Superproject"), clone])
        try sandbox.git(["submodule", "add", "-q", "../Extra.git", "Vendor/Extra"], in: clone)
        try sandbox.git(["commit", "-q", "-m", "add Extra with plain git"], in: clone)
        // Then t1 pins Extra at a commit its remote does not have: refused before any change, nothing cloned.
        let unpushed = try sandbox.commit(in: "seed-Extra", file: "Local.txt", content: "not pushed\n")
        try sandbox.git(["update-index", "--cacheinfo", "160000,\(unpushed),Vendor/Extra"], in: clone)
        try sandbox.git(["commit", "-q", "-m", "Extra at a commit not pushed"], in: clone)
        try sandbox.git(["push", "-q", "origin", "t1"], in: clone)
        let before = try fixture.snapshot()
        let refused = fixture.tenantctl(["switch", "t1"])
        #expect(refused.status == 1, "\(refused.stdout)\(refused.stderr)")
        #expect(
            refused.stderr.contains("pins the submodule at Vendor/Extra at \(unpushed), which is on no branch or tag"),
            "\(refused.stderr)")
        #expect(try fixture.snapshot() == before)
        #expect(!FileManager.default.fileExists(atPath: fixture.workspace + "/.git/modules/Vendor/Extra"))
        try sandbox.git(["push", "-q", "origin", "master"], in: seed)
        #expect(pin != unpushed)
        let pushedPin = unpushed

        func unnamed(_ result: CLIResult) throws -> [[String: Any]] {
            let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
            return try #require(object?["unnamed"] as? [[String: Any]], "\(result.stdout)\(result.stderr)")
        }
        let dry = fixture.tenantctl(["switch", "t1", "--dry-run", "--json"])
        #expect(dry.status == 0, "\(dry.stderr)")
        let planned = try unnamed(dry)
        #expect(planned.map { $0["path"] as? String } == ["Vendor/Extra"])
        #expect(planned.first?["change"] as? String == "clone")
        let text = fixture.tenantctl(["switch", "t1", "--dry-run"])
        #expect(text.stdout.contains("Vendor/Extra: a submodule modules.json does not name"), "\(text.stdout)")

        let result = fixture.tenantctl(["switch", "t1", "--json"])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        let done = try unnamed(result)
        #expect(done.first?["change"] as? String == "cloned", "\(done)")
        #expect(done.first?["pin"] as? String == pushedPin)
        #expect(try sandbox.git(["rev-parse", "HEAD"], in: fixture.workspace + "/Vendor/Extra") == pushedPin)
        // As plain git sees it: no submodule of the branch is left uninitialised or off its pin.
        let status = try sandbox.git(["submodule", "status"], in: fixture.workspace)
        #expect(!status.split(separator: "\n").contains { $0.hasPrefix("-") || $0.hasPrefix("+") }, "\(status)")
        // status shows it where it stands, in its JSON, its table and (once off its pin) its short view.
        let shown = try #require(
            try JSONSerialization.jsonObject(with: Data(fixture.tenantctl(["status", "--json"]).stdout.utf8))
                as? [String: Any])
        let listed = try #require(shown["unnamed"] as? [[String: Any]], "\(shown)")
        #expect(listed.map { $0["path"] as? String } == ["Vendor/Extra"], "\(listed)")
        #expect(listed.first?["pin"] as? String == pushedPin && listed.first?["head"] as? String == pushedPin)
        #expect(listed.first?["relation"] as? String == "at-pin", "\(listed)")
        let table = fixture.tenantctl(["status"])
        #expect(
            table.stdout.contains("Vendor/Extra: a submodule modules.json does not name (")
                && table.stdout.contains(
                    "), at its pin \(ObjectID.short(pushedPin))"),
            "\(table.stdout)")
        try sandbox.git(["checkout", "-q", "--detach", pin], in: fixture.workspace + "/Vendor/Extra")
        let short = fixture.tenantctl(["status", "--short"])
        #expect(short.stdout.contains("<  Vendor/Extra [not in modules.json]"), "\(short.stdout)")
        #expect(fixture.tenantctl(["status"]).stdout.contains("behind 1 of its pin"))
        #expect(fixture.tenantctl(["switch", "t1"]).status == 0)
        // Switching again changes nothing.
        let again = fixture.tenantctl(["switch", "t1", "--json"])
        #expect(try unnamed(again).first?["change"] as? String == "unchanged")

        // audit and verify name it in t1's row, not as drift.
        let audit = fixture.tenantctl(["audit", "--json"])
        let report = try #require(try JSONSerialization.jsonObject(with: Data(audit.stdout.utf8)) as? [String: Any])
        let t1 = try #require((report["tenants"] as? [[String: Any]])?.first { $0["id"] as? String == "t1" })
        #expect(RollFixture.codes(t1["superproject"] as? [String: Any]).contains("unnamed-submodule"), "\(t1)")
        let others = (report["tenants"] as? [[String: Any]] ?? []).filter { $0["id"] as? String != "t1" }
        #expect(
            others.allSatisfy { !RollFixture.codes($0["superproject"] as? [String: Any]).contains("unnamed-submodule") }
        )
        let verify = fixture.tenantctl(["verify", "--json"])
        #expect(verify.status == 2)
        let findings = try #require(
            (try JSONSerialization.jsonObject(with: Data(verify.stdout.utf8)) as? [String: Any])?["findings"]
                as? [[String: Any]])
        let unnamedFindings = findings.filter { $0["code"] as? String == "unnamed-submodule" }
        #expect(unnamedFindings.map { $0["tenant"] as? String } == ["t1"], "\(findings)")
        let unnamedMessage = unnamedFindings.first?["message"] as? String
        #expect(unnamedMessage?.contains("Vendor/Extra") == true, "\(findings)")
        #expect(
            !findings.contains {
                $0["code"] as? String == "gitmodules-drift" && $0["branch"] as? String == "t1"
            }, "\(findings)")
        // What to do about it is said in words, with a command that runs as printed: no `<name> --url <url>`.
        let verifyText = fixture.tenantctl(["verify"])
        let next = try #require(
            VerifyNextStepTests.nextLines(verifyText.stdout).first { $0.hasPrefix("next (unnamed-submodule): ") },
            "\(verifyText.stdout)")
        #expect(VerifyNextStepTests.placeholders(next).isEmpty, "\(next)")
        for command in VerifyNextStepTests.commands(next) {
            let ran = try ResolveTransactionTests.runAsPrinted(command, in: fixture.workspace, sandbox: fixture.sandbox)
            #expect(ran.status == 0, "\(command): \(ran.stdout)\(ran.stderr)")
        }
    }

    /// t3 pins Order at a commit its remote does not have, and Order is not cloned yet (a plain clone): switch
    /// refuses before cloning anything, naming the module and the commit; the dry run says the same. Once the
    /// commit is pushed, the same switch clones every module.
    @Test(.tags(.slow), .notInTheFastSet) func aPinMissingOnTheRemoteOfAModuleToCloneIsRefusedBeforeAnyChange()
        throws
    {
        let fixture = try SwitchCloneFixture(recurse: false)
        let sandbox = fixture.sandbox
        let order = sandbox.path("order-clone")
        try sandbox.git(["clone", "-q", "-b", "t3", fixture.remote("Order"), order])
        let unpushed = try sandbox.commit(in: "order-clone", file: "Local.swift", content: "// not pushed\n")
        let clone = sandbox.path("t3-clone")
        try sandbox.git(["clone", "-q", "-b", "t3", fixture.remote("Superproject"), clone])
        try sandbox.git(["update-index", "--cacheinfo", "160000,\(unpushed),Modules/Order"], in: clone)
        try sandbox.git(["commit", "-q", "-m", "pin Order by hand"], in: clone)
        try sandbox.git(["push", "-q", "origin", "t3"], in: clone)
        let modules = fixture.workspace + "/.git/modules"
        func cloned() -> [String] { (try? FileManager.default.contentsOfDirectory(atPath: modules)) ?? [] }

        let before = try fixture.snapshot()
        let dry = fixture.tenantctl(["switch", "t3", "--dry-run"])
        #expect(dry.status == 1, "\(dry.stdout)\(dry.stderr)")
        #expect(dry.stderr.contains("Order (Modules/Order)") && dry.stderr.contains(unpushed), "\(dry.stderr)")
        let result = fixture.tenantctl(["switch", "t3"])
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        #expect(result.stderr.contains("Order (Modules/Order)"), "\(result.stderr)")
        #expect(result.stderr.contains("pins Order at \(unpushed), which is on no branch or tag"), "\(result.stderr)")
        #expect(result.stderr.contains("nothing was changed"))
        #expect(!result.stderr.contains("cloning"), "nothing was cloned: \(result.stderr)")
        #expect(try fixture.snapshot() == before)
        #expect(cloned().isEmpty, "no module clone left behind: \(cloned())")

        try sandbox.git(["push", "-q", "origin", "HEAD:refs/heads/t3"], in: order)
        let after = fixture.tenantctl(["switch", "t3"])
        #expect(after.status == 0, "\(after.stdout)\(after.stderr)")
        #expect(try sandbox.git(["rev-parse", "HEAD"], in: fixture.module("Order")) == unpushed)
        #expect(Set(cloned()) == Set(SwitchCloneFixture.modules))
    }

    /// Article's new general_dev commit pins a nested submodule at a commit its remote does not have: the switch
    /// that clones Article cannot update its nested submodules, puts everything back, and names `--no-recursive`;
    /// that switch works as printed.
    @Test(.tags(.slow), .notInTheFastSet) func aNestedSubmoduleThatCannotBeUpdatedNamesNoRecursive() throws {
        let fixture = try SwitchCloneFixture(recurse: false)
        let sandbox = fixture.sandbox
        let nested = try sandbox.seedRepository("Nested", remotes: fixture.example.remotes)
        try sandbox.git(["push", "-q", "origin", "master"], in: nested)
        let unpushed = try sandbox.commit(in: "seed-Nested", file: "Local.txt", content: "not pushed\n")
        let article = sandbox.path("article-clone")
        try sandbox.git(["clone", "-q", "-b", "general_dev", fixture.remote("Article"), article])
        try sandbox.git(["submodule", "add", "-q", "../Nested.git", "nested"], in: article)
        try sandbox.git(["update-index", "--cacheinfo", "160000,\(unpushed),nested"], in: article)
        try sandbox.git(["commit", "-q", "-m", "nested at a commit its remote lacks"], in: article)
        try sandbox.git(["push", "-q", "origin", "general_dev"], in: article)
        let articleTip = try sandbox.git(["rev-parse", "HEAD"], in: article)
        let superproject = sandbox.path("general-clone")
        try sandbox.git(["clone", "-q", "-b", "general_dev", fixture.remote("Superproject"), superproject])
        try sandbox.git(["update-index", "--cacheinfo", "160000,\(articleTip),Modules/Article"], in: superproject)
        try sandbox.git(["commit", "-q", "-m", "pin Article"], in: superproject)
        try sandbox.git(["push", "-q", "origin", "general_dev"], in: superproject)

        let result = fixture.tenantctl(["switch", "general_dev"])
        #expect(result.status != 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stderr.contains("nested submodules of Article"), "\(result.stderr)")
        #expect(result.stderr.contains("tenantctl switch general_dev --no-recursive"), "\(result.stderr)")
        let without = fixture.tenantctl(["switch", "general_dev", "--no-recursive"])
        #expect(without.status == 0, "\(without.stdout)\(without.stderr)")
        #expect(try sandbox.git(["rev-parse", "HEAD"], in: fixture.module("Article")) == articleTip)
    }

    /// A module path that moved on a tenant branch is information roll acts on: verify exits 0 (`ok`), audit
    /// --check passes, both still name it. A real finding still fails both (the positive control).
    @Test func aMovedModulePathInformsButFailsNeitherVerifyNorTheAuditGate() throws {
        let sandbox = try GitSandbox()
        let app = try PublishedSuperproject(sandbox: sandbox)
        // master pins libdshowcapture at its tip: no cell is behind.
        try sandbox.git(
            [
                "update-index", "--cacheinfo",
                "160000,\(try app.tip("libdshowcapture")),\(PublishedSuperproject.newPath)",
            ],
            in: app.work)
        try sandbox.git(["commit", "-q", "-m", "libdshowcapture at its tip"], in: app.work)
        try sandbox.git(["submodule", "update", "-q", "--init"], in: app.work)
        try app.adopt()
        // The release line leaves; customer/x, branched from master with every file, moves `other` itself.
        let file = try sandbox.read("app/Tenants/release-30.0.json")
        try sandbox.write(
            "app/Tenants/customer-x.json",
            file.replacingOccurrences(of: "release-30.0", with: "customer-x").replacingOccurrences(
                of: "release/30.0", with: "customer/x"))
        try sandbox.git(["rm", "-q", "--cached", "--", "Tenants/release-30.0.json"], in: app.work)
        try FileManager.default.removeItem(atPath: app.work + "/Tenants/release-30.0.json")
        try sandbox.git(["add", "-f", "--", "Tenants/customer-x.json"], in: app.work)
        try sandbox.git(["commit", "-q", "-m", "customer/x is the tenant"], in: app.work)
        try sandbox.git(["push", "-q", "origin", "master"], in: app.work)
        try app.moveOtherOnCustomerX()

        let verify = sandbox.tenantctl(["verify", "--json"], in: app.work)
        let report = try app.json(verify.stdout)
        let codes = (report["findings"] as? [[String: Any]] ?? []).compactMap { $0["code"] as? String }
        #expect(codes == ["moved-path"], "\(verify.stdout)\(verify.stderr)")
        #expect(verify.status == 0, "\(verify.stdout)\(verify.stderr)")
        #expect(report["ok"] as? Bool == true)
        let text = sandbox.tenantctl(["verify"], in: app.work)
        #expect(text.status == 0)
        #expect(text.stdout.contains("moved-path"), "\(text.stdout)")
        // Information is not marked as a failure, and each kind comes with what to do about it.
        let moved = text.stdout.split(separator: "\n").filter { $0.contains("[moved-path") }
        #expect(moved.count == 1 && moved.allSatisfy { !$0.hasPrefix("✗") }, "\(text.stdout)")
        #expect(text.stdout.contains("next (moved-path): nothing to fix"), "\(text.stdout)")
        let gate = sandbox.tenantctl(["audit", "--check"], in: app.work)
        #expect(gate.status == 0, "\(gate.stdout)\(gate.stderr)")
        #expect(gate.stdout.contains("moved-path") || gate.stdout.contains("!"), "\(gate.stdout)")

        // Positive control: customer/x declares `other` customised without a branch of its own (missing-branch),
        // and is behind master by that commit: both gates fail.
        let tenant = try sandbox.read("app/Tenants/customer-x.json")
        try sandbox.write(
            "app/Tenants/customer-x.json",
            tenant.replacingOccurrences(of: "\"customised\": []", with: "\"customised\": [\"other\"]"))
        try sandbox.git(["add", "-f", "--", "Tenants/customer-x.json"], in: app.work)
        try sandbox.git(["commit", "-q", "-m", "customer/x customises other"], in: app.work)
        try sandbox.git(["push", "-q", "origin", "master"], in: app.work)
        #expect(sandbox.tenantctl(["verify"], in: app.work).status == 2)
        #expect(sandbox.tenantctl(["audit", "--check"], in: app.work).status == 2)
    }
}
