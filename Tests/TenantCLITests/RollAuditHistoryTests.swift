import Foundation
import TenantKit
import TenantTestSupport
import Testing

/// Plain-git edits of the example's remotes that real histories produce.
extension RollFixture {
    /// A fresh clone of a remote on `branch`.
    func clone(_ repository: String, branch: String) throws -> String {
        let clone = sandbox.path("clone-\(repository)-\(UUID().uuidString.prefix(6))")
        try sandbox.git(["clone", "-q", "-b", branch, remote(repository), clone])
        return clone
    }

    /// Commits a file in a clone; returns the commit.
    @discardableResult
    func commit(in clone: String, file: String, content: String, message: String = "change") throws -> String {
        let path = "\(clone)/\(file)"
        try FileManager.default.createDirectory(
            atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try content.write(toFile: path, atomically: true, encoding: .utf8)
        try sandbox.git(["add", "--", file], in: clone)
        try sandbox.git(["commit", "-q", "-m", message], in: clone)
        return try sandbox.git(["rev-parse", "HEAD"], in: clone)
    }

    /// Sets gitlinks on a superproject branch of the remote (module → commit) in one pushed commit.
    func setPins(_ branch: String, _ pins: [String: String]) throws {
        let clone = try clone("Superproject", branch: branch)
        for (module, commit) in pins.sorted(by: { $0.key < $1.key }) {
            try sandbox.git(["update-index", "--cacheinfo", "160000,\(commit),Modules/\(module)"], in: clone)
        }
        try sandbox.git(["commit", "-q", "-m", "pin by hand"], in: clone)
        try sandbox.git(["push", "-q", "origin", branch], in: clone)
    }

    /// Writes files on the superproject's general_dev of the remote in one pushed commit.
    func editGeneral(_ files: [String: String]) throws {
        let clone = try clone("Superproject", branch: "general_dev")
        for (file, content) in files.sorted(by: { $0.key < $1.key }) {
            try content.write(toFile: "\(clone)/\(file)", atomically: true, encoding: .utf8)
            try sandbox.git(["add", "--", file], in: clone)
        }
        try sandbox.git(["commit", "-q", "-m", "edit on general_dev"], in: clone)
        try sandbox.git(["push", "-q", "origin", "general_dev"], in: clone)
    }

    /// The tenant entries of a `roll --json` report, by id.
    static func tenants(_ result: CLIResult) throws -> [String: [String: Any]] {
        let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8))
        let report = try #require(object as? [String: Any], "\(result.stdout)\n\(result.stderr)")
        var byID: [String: [String: Any]] = [:]
        for tenant in try #require(report["tenants"] as? [[String: Any]]) {
            byID[try #require(tenant["id"] as? String)] = tenant
        }
        return byID
    }

    static func reasons(_ tenant: [String: Any]?) -> [[String: String]] {
        (tenant?["reasons"] as? [[String: Any]] ?? []).map { reason in
            reason.compactMapValues { $0 as? String }
        }
    }

    /// Runs `tenantctl audit --json` and returns the status and the report.
    func audit(_ extra: [String] = [], in directory: String? = nil) throws -> (status: Int32, json: [String: Any]) {
        let result = sandbox.tenantctl(["audit", "--json"] + extra, in: directory ?? workspace)
        let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8))
        return (result.status, try #require(object as? [String: Any], "\(result.stdout)\n\(result.stderr)"))
    }

    /// tenant id → module → module entry of an audit report.
    static func cells(_ json: [String: Any]) -> [String: [String: [String: Any]]] {
        var result: [String: [String: [String: Any]]] = [:]
        for tenant in json["tenants"] as? [[String: Any]] ?? [] {
            guard let id = tenant["id"] as? String else { continue }
            for module in tenant["modules"] as? [[String: Any]] ?? [] {
                if let name = module["module"] as? String { result[id, default: [:]][name] = module }
            }
        }
        return result
    }

    static func has(_ entry: [String: Any]?, _ code: String) -> Bool { codes(entry).contains(code) }

    static func codes(_ entry: [String: Any]?) -> [String] {
        (entry?["findings"] as? [[String: Any]] ?? []).compactMap { $0["code"] as? String }
    }

    /// Every finding code anywhere in an audit report (top level, superproject and module cells).
    static func allCodes(_ json: [String: Any]) -> [String] {
        var codes = Self.codes(json)
        for tenant in json["tenants"] as? [[String: Any]] ?? [] {
            codes += Self.codes(tenant)
            codes += Self.codes(tenant["superproject"] as? [String: Any])
            for module in tenant["modules"] as? [[String: Any]] ?? [] { codes += Self.codes(module) }
        }
        return codes
    }
}

/// Roll blocks a tenant instead of dropping or spreading a customisation.
@Suite(.tags(.slow), .notInTheFastSet) struct RollBlockedTests {
    /// t2 pins an unpushed Customer commit; roll never moves the pin back.
    @Test func aPinTheModuleRemoteDoesNotHaveBlocksTheTenant() throws {
        let fixture = try RollFixture()
        let clone = try fixture.clone("Customer", branch: "t2")
        let unpushed = try fixture.commit(in: clone, file: "Local.swift", content: "// not pushed\n")
        try fixture.setPins("t2", ["Customer": unpushed])
        let before = try fixture.remoteBranches()

        let result = fixture.roll(["--json"])
        #expect(result.status == 2, "\(result.stderr)")
        let tenants = try RollFixture.tenants(result)
        #expect(tenants["t2"]?["status"] as? String == "blocked")
        let reasons = RollFixture.reasons(tenants["t2"])
        #expect(reasons.contains { $0["code"] == "missing-commit" && $0["module"] == "Customer" }, "\(reasons)")
        #expect(
            reasons.contains { $0["fix"] == "git -C Modules/Customer push origin \(unpushed):refs/heads/t2" },
            "\(reasons)")
        #expect(tenants["t1"]?["status"] as? String == "rolled")
        #expect(tenants["t3"]?["status"] as? String == "rolled")
        let after = try fixture.remoteBranches()
        #expect(after["Superproject"]?["t2"] == before["Superproject"]?["t2"])
        #expect(after["Infrastructure"]?["t2"] == before["Infrastructure"]?["t2"])
        #expect(try fixture.pins("t2")["Modules/Customer"] == unpushed)

        let table = fixture.roll()
        #expect(table.status == 2)
        #expect(table.stdout.contains("blocked"), "\(table.stdout)")
        #expect(
            table.stdout.contains("git -C Modules/Customer push origin \(unpushed):refs/heads/t2"), "\(table.stdout)")
        // The printed fix runs where the commit is, without a local branch t2 (the clone is on a detached copy).
        try fixture.sandbox.git(["checkout", "-q", "--detach"], in: clone)
        try fixture.sandbox.git(["branch", "-D", "t2"], in: clone)
        try fixture.sandbox.git(["push", "-q", "origin", "\(unpushed):refs/heads/t2"], in: clone)
        #expect(fixture.roll().status == 0, "after the fix t2 rolls")
    }

    /// t1 pins its own Article commit without declaring it.
    @Test func anUndeclaredCustomisationBlocksTheTenantAndNamesTheCustomizeCommand() throws {
        let fixture = try RollFixture()
        let clone = try fixture.clone("Article", branch: "general_dev")
        try fixture.sandbox.git(["checkout", "-q", "-b", "t1"], in: clone)
        let own = try fixture.commit(in: clone, file: "T1.swift", content: "// t1 only\n")
        try fixture.sandbox.git(["push", "-q", "origin", "t1"], in: clone)
        try fixture.setPins("t1", ["Article": own])
        let before = try fixture.remoteBranches()

        let result = fixture.roll(["--json"])
        #expect(result.status == 2, "\(result.stderr)")
        let tenants = try RollFixture.tenants(result)
        #expect(tenants["t1"]?["status"] as? String == "blocked")
        let reasons = RollFixture.reasons(tenants["t1"])
        #expect(
            reasons.contains {
                $0["code"] == "undeclared-customisation" && $0["module"] == "Article"
                    && $0["fix"] == "tenantctl customize t1 Article --from \(own.prefix(7))"
            }, "\(reasons)")
        #expect(try fixture.remoteBranches()["Superproject"]?["t1"] == before["Superproject"]?["t1"])
        #expect(try fixture.pins("t1")["Modules/Article"] == own)
        #expect(tenants["t2"]?["status"] as? String == "rolled")

        let audit = try fixture.audit()
        #expect(RollFixture.has(RollFixture.cells(audit.json)["t1"]?["Article"], "undeclared-customisation"))
        // The printed fix runs as printed, and then t1 rolls.
        let fix = fixture.sandbox.tenantctl(
            ["customize", "t1", "Article", "--from", String(own.prefix(7))], in: fixture.workspace)
        #expect(fix.status == 0, "\(fix.stdout)\(fix.stderr)")
        #expect(fixture.roll().status == 0, "after the fix t1 rolls")
    }

    /// t3's Order branch merged back into Order's general_dev.
    @Test func aTenantBranchMergedBackBlocksTheModuleForTheOthersUnlessAccepted() throws {
        let fixture = try RollFixture()
        let mergedTip = try fixture.sandbox.mergeBack("t3", of: fixture.remote("Order")).merge
        let before = try fixture.remoteBranches()

        let audit = try fixture.audit(["--check"])
        #expect(audit.status == 2)
        #expect(RollFixture.has(RollFixture.cells(audit.json)["t3"]?["Order"], "tenant-merged-back"))

        let result = fixture.roll(["--json"])
        #expect(result.status == 2, "\(result.stderr)")
        let tenants = try RollFixture.tenants(result)
        for tenant in ["t1", "t2"] {
            #expect(tenants[tenant]?["status"] as? String == "blocked", "\(tenant)")
            let reasons = RollFixture.reasons(tenants[tenant])
            #expect(
                reasons.contains {
                    $0["code"] == "tenant-merged-back" && $0["module"] == "Order"
                        && ($0["fix"] ?? "").contains("--accept-merged-back Order")
                }, "\(reasons)")
        }
        let after = try fixture.remoteBranches()
        #expect(after["Superproject"]?["t1"] == before["Superproject"]?["t1"])
        #expect(after["Superproject"]?["t2"] == before["Superproject"]?["t2"])
        #expect(try fixture.pins("general_dev")["Modules/Order"] != mergedTip)
        #expect(try fixture.pins("t1")["Modules/Order"] != mergedTip)

        let accepted = fixture.roll(["--accept-merged-back", "Order"])
        #expect(accepted.status == 0, "\(accepted.stdout)\n\(accepted.stderr)")
        #expect(try fixture.pins("t1")["Modules/Order"] == mergedTip)
        #expect(try fixture.pins("general_dev")["Modules/Order"] == mergedTip)
    }

    /// A typo in t2's tenant file blocks t2 only.
    @Test func anInvalidTenantFileBlocksThatTenantOnly() throws {
        let fixture = try RollFixture()
        try fixture.editGeneral([
            "Tenants/t2.json":
                #"{ "id": "t2", "modules": ["Infrastructure", "Article", "Custmer"], "customised": ["Infrastructure"] }"#
                + "\n"
        ])
        let before = try fixture.remoteBranches()
        let result = fixture.roll(["--json"])
        #expect(result.status == 2, "\(result.stderr)")
        let tenants = try RollFixture.tenants(result)
        #expect(tenants["t2"]?["status"] as? String == "blocked")
        let reasons = RollFixture.reasons(tenants["t2"])
        #expect(
            reasons.contains { $0["code"] == "invalid-tenant-file" && ($0["message"] ?? "").contains("Custmer") },
            "\(reasons)")
        #expect(tenants["t1"]?["status"] as? String == "rolled")
        #expect(tenants["t3"]?["status"] as? String == "rolled")
        #expect(try fixture.remoteBranches()["Superproject"]?["t2"] == before["Superproject"]?["t2"])
        #expect(try fixture.pins("t3") == fixture.expectedPins("t3", customised: ["Order"]))

        let audit = try fixture.audit()
        let t2 = (audit.json["tenants"] as? [[String: Any]] ?? []).first { $0["id"] as? String == "t2" }
        #expect(RollFixture.has(t2?["superproject"] as? [String: Any], "invalid-tenant-file"))
        #expect(RollFixture.cells(audit.json)["t1"]?.count == 4)

        let verify = fixture.sandbox.tenantctl(["verify", "--json"], in: fixture.workspace)
        #expect(verify.status == 2, "\(verify.stderr)")
        #expect(verify.stdout.contains("invalid-tenant-file"), "\(verify.stdout)")
    }

    /// Customer's remote cannot be reached.
    @Test func anUnreachableModuleRemoteIsReportedPerModule() throws {
        let fixture = try RollFixture()
        // Fetch once so the mirrors exist, then take Customer's remote away.
        #expect(fixture.sandbox.tenantctl(["audit"], in: fixture.workspace).status == 0)
        try FileManager.default.moveItem(
            atPath: fixture.remote("Customer"), toPath: fixture.remote("Customer") + ".gone")

        let audit = try fixture.audit()
        #expect(audit.status == 1)
        let cells = RollFixture.cells(audit.json)
        #expect(RollFixture.has(cells["t1"]?["Customer"], "unreachable-remote"))
        #expect(cells["t1"]?["Customer"]?["behind"] is NSNull)
        #expect(cells["t1"]?["Article"]?["behind"] as? Int == 1)
        #expect(RollFixture.has(audit.json, "unreachable-remote"))
        let table = fixture.sandbox.tenantctl(["audit"], in: fixture.workspace)
        #expect(table.status == 1)
        #expect(table.stdout.contains("?"), "\(table.stdout)")

        let superproject = fixture.remote("Superproject")
        let t2Before = try fixture.sandbox.git(["rev-parse", "t2"], in: superproject)
        let pinsBefore = try fixture.pins("t1")
        let result = fixture.roll(["--json"])
        #expect(result.status == 2, "\(result.stderr)")
        let tenants = try RollFixture.tenants(result)
        #expect(tenants["t2"]?["status"] as? String == "blocked")
        #expect(RollFixture.reasons(tenants["t2"]).contains { $0["code"] == "unreachable-remote" })
        #expect(tenants["t1"]?["status"] as? String == "rolled")
        #expect(try fixture.pins("t1")["Modules/Customer"] == pinsBefore["Modules/Customer"])
        #expect(try fixture.sandbox.git(["rev-parse", "t2"], in: superproject) == t2Before)
        #expect(try fixture.pins("t1")["Modules/Article"] != pinsBefore["Modules/Article"])
    }

    /// An unreachable module that no tenant customises blocks nobody, but the roll is not complete: the report says
    /// which module kept its pins and why (exit 2), and a re-run once the remote answers moves them.
    @Test func anUnreachableModuleNobodyCustomisesMakesTheRollIncomplete() throws {
        let fixture = try RollFixture()
        #expect(fixture.sandbox.tenantctl(["audit"], in: fixture.workspace).status == 0)
        try FileManager.default.moveItem(
            atPath: fixture.remote("Article"), toPath: fixture.remote("Article") + ".gone")
        let pinsBefore = try fixture.pins("t1")
        let result = fixture.roll(["--json"])
        #expect(result.status == 2, "\(result.stdout)\(result.stderr)")
        let report = try JSONDecoder().decode(RollReport.self, from: Data(result.stdout.utf8))
        #expect(report.unreachable.keys.sorted() == ["Article"])
        #expect(report.totals.blocked == 0)
        #expect(try fixture.pins("t1")["Modules/Article"] == pinsBefore["Modules/Article"])
        #expect(try fixture.pins("t1")["Modules/Infrastructure"] != pinsBefore["Modules/Infrastructure"])
        let table = fixture.roll()
        #expect(table.status == 2)
        #expect(table.stdout.contains("Article could not be fetched"), "\(table.stdout)")

        try FileManager.default.moveItem(
            atPath: fixture.remote("Article") + ".gone", toPath: fixture.remote("Article"))
        let again = fixture.roll()
        #expect(again.status == 0, "\(again.stdout)\(again.stderr)")
        #expect(try fixture.pins("t1")["Modules/Article"] != pinsBefore["Modules/Article"])
    }

    /// A conflicted tenant names `tenantctl resolve`, and lists no merges that were not applied.
    @Test func aConflictedTenantNamesResolveAndListsNoDiscardedMerges() throws {
        let fixture = try RollFixture()
        let file = "Sources/Infrastructure/StartScreenViewController.swift"
        try fixture.commitOnRemote("Infrastructure", branch: "t2", file: file, content: "// t2's own start screen\n")
        try fixture.commitOnRemote("Customer", branch: "general_dev", file: "Notes.md", content: "general note\n")
        let result = fixture.roll(["--json"])
        #expect(result.status == 2, "\(result.stderr)")
        let t2 = try RollFixture.tenants(result)["t2"]
        #expect(t2?["status"] as? String == "conflict")
        #expect(t2?["next"] as? String == "tenantctl resolve t2")
        let merges = t2?["merges"] as? [[String: Any]] ?? []
        #expect(!merges.contains { $0["status"] as? String == "merged" }, "\(merges)")

        let table = fixture.roll(["--dry-run"])
        let row = table.stdout.split(separator: "\n").first { $0.hasPrefix("t2") }.map(String.init) ?? ""
        #expect(!row.contains("merged"), "\(row)")
        #expect(table.stdout.contains("tenantctl resolve t2"), "\(table.stdout)")
    }

    /// A tenant whose roll changes only superproject files says so.
    @Test func aRollOfFilesOnlySaysSo() throws {
        let fixture = try RollFixture()
        #expect(fixture.roll().status == 0)
        try fixture.editGeneral(["Notes.md": "a general note\n"])
        let result = fixture.roll()
        #expect(result.status == 0, "\(result.stderr)")
        let row = result.stdout.split(separator: "\n").first { $0.hasPrefix("t1") }.map(String.init) ?? ""
        #expect(row.contains("rolled") && row.contains("files only"), "\(result.stdout)")
    }
}

/// Audit and roll on real histories.
@Suite(.tags(.slow), .notInTheFastSet) struct AuditRealHistoryTests {
    /// A customisation that only moves a module's own submodule lists it in changedFiles.
    @Test func nestedGitlinksOfAModuleAreChangedFiles() throws {
        let fixture = try RollFixture()
        let clone = try fixture.clone("Order", branch: "t3")
        let vendored = try #require(try fixture.remoteBranches()["Infrastructure"]?["general_dev"])
        try fixture.sandbox.git(["update-index", "--add", "--cacheinfo", "160000,\(vendored),Vendor/Lib"], in: clone)
        try fixture.sandbox.git(["commit", "-q", "-m", "vendor a library"], in: clone)
        try fixture.sandbox.git(["push", "-q", "origin", "t3"], in: clone)
        try fixture.setPins("t3", ["Order": try fixture.sandbox.git(["rev-parse", "HEAD"], in: clone)])

        let audit = try fixture.audit(["--changed-files"])
        let files = RollFixture.cells(audit.json)["t3"]?["Order"]?["changedFiles"] as? [String] ?? []
        #expect(files.contains("Vendor/Lib"), "\(files)")
    }

    /// An annotated tag as a pin, and a pin reachable only from a tag.
    @Test func annotatedTagPinsAndTagOnlyPinsAreNotMissing() throws {
        let fixture = try RollFixture()
        let article = try fixture.clone("Article", branch: "general_dev")
        try fixture.sandbox.git(["tag", "-a", "v1", "-m", "release 1"], in: article)
        try fixture.sandbox.git(["push", "-q", "origin", "v1"], in: article)
        let tagObject = try fixture.sandbox.git(["rev-parse", "v1"], in: article)
        let customer = try fixture.clone("Customer", branch: "general_dev")
        try fixture.sandbox.git(["checkout", "-q", "--detach"], in: customer)
        let tagOnly = try fixture.commit(in: customer, file: "Hotfix.swift", content: "// hotfix\n")
        try fixture.sandbox.git(["tag", "-a", "hotfix-1", "-m", "hotfix"], in: customer)
        try fixture.sandbox.git(["push", "-q", "origin", "hotfix-1"], in: customer)
        try fixture.setPins("t1", ["Article": tagObject, "Customer": tagOnly])

        let audit = try fixture.audit()
        let cells = RollFixture.cells(audit.json)
        #expect(!RollFixture.has(cells["t1"]?["Article"], "missing-commit"))
        #expect(cells["t1"]?["Article"]?["behind"] as? Int == 0)
        #expect(!RollFixture.has(cells["t1"]?["Customer"], "missing-commit"))
    }

    /// Roll: an annotated-tag pin of a general commit is not an undeclared customisation.
    @Test func rollPeelsAnAnnotatedTagPin() throws {
        let fixture = try RollFixture()
        let article = try fixture.clone("Article", branch: "general_dev")
        try fixture.sandbox.git(["tag", "-a", "v1", "-m", "release 1", "HEAD~1"], in: article)
        try fixture.sandbox.git(["push", "-q", "origin", "v1"], in: article)
        try fixture.setPins("t1", ["Article": try fixture.sandbox.git(["rev-parse", "v1"], in: article)])
        let result = fixture.roll(["--json"])
        #expect(result.status == 0, "\(result.stdout)\n\(result.stderr)")
        #expect(try fixture.pins("t1") == fixture.expectedPins("t1", customised: []))
    }

    /// Roll from partial clones of the superproject.
    @Test(arguments: ["blob:none", "tree:0"]) func rollWorksInAPartialClone(filter: String) throws {
        let fixture = try RollFixture()
        try fixture.sandbox.git(["config", "uploadpack.allowFilter", "true"], in: fixture.remote("Superproject"))
        let partial = fixture.sandbox.path("partial")
        try fixture.sandbox.git([
            "clone", "-q", "--filter=\(filter)", "-b", "general_dev", "file://" + fixture.remote("Superproject"),
            partial,
        ])
        let result = fixture.sandbox.tenantctl(["roll"], in: partial, environment: RollFixture.dates)
        #expect(result.status == 0, "\(result.stdout)\n\(result.stderr)")
        for (tenant, customised) in RollFixture.customised {
            #expect(try fixture.pins(tenant) == fixture.expectedPins(tenant, customised: customised), "\(tenant)")
        }
    }

    /// On a pull request, the checked-out tenant files are validated too.
    @Test func aPullRequestThatBreaksATenantFileFailsTheGate() throws {
        let fixture = try RollFixture()
        #expect(fixture.roll().status == 0)
        let clean = try fixture.audit(["--check"])
        #expect(clean.status == 0, "\(RollFixture.allCodes(clean.json))")

        let workspace = fixture.workspace
        try fixture.sandbox.git(["checkout", "-q", "-b", "pr"], in: workspace)
        let file = "\(workspace)/Tenants/t1.json"
        let text = try String(contentsOfFile: file, encoding: .utf8)
        try text.replacingOccurrences(of: "\"modules\": [", with: "\"modules\": [\"Ghost\", ")
            .write(toFile: file, atomically: true, encoding: .utf8)
        try fixture.sandbox.git(["commit", "-q", "-am", "PR: add Ghost"], in: workspace)
        let broken = try fixture.audit(["--check"])
        #expect(broken.status == 2)
        #expect(RollFixture.allCodes(broken.json).contains("invalid-tenant-file"), "\(broken.json)")
    }

    /// A customised module whose path is renamed on general_dev is not "removed".
    @Test func aRenamedModulePathIsNotARemovedModule() throws {
        let fixture = try RollFixture()
        let clone = try fixture.clone("Superproject", branch: "general_dev")
        let manifest = try String(contentsOfFile: clone + "/modules.json", encoding: .utf8)
        try manifest.replacingOccurrences(of: "\"Modules/Order\"", with: "\"Modules/Orders\"")
            .write(toFile: clone + "/modules.json", atomically: true, encoding: .utf8)
        try fixture.sandbox.git(["config", "-f", ".gitmodules", "submodule.Order.path", "Modules/Orders"], in: clone)
        let pin = try #require(try fixture.pins("general_dev")["Modules/Order"])
        try fixture.sandbox.git(["add", ".gitmodules"], in: clone)
        try fixture.sandbox.git(["rm", "-q", "--cached", "Modules/Order"], in: clone)
        try fixture.sandbox.git(["update-index", "--add", "--cacheinfo", "160000,\(pin),Modules/Orders"], in: clone)
        try fixture.sandbox.git(["add", "modules.json", ".gitmodules"], in: clone)
        try fixture.sandbox.git(["commit", "-q", "-m", "Move Order to Modules/Orders"], in: clone)
        try fixture.sandbox.git(["push", "-q", "origin", "general_dev"], in: clone)

        let result = fixture.roll(["--json"])
        #expect(result.status == 0, "\(result.stdout)\n\(result.stderr)")
        let t3 = try RollFixture.tenants(result)["t3"]
        #expect(t3?["status"] as? String == "rolled")
        let pins = try fixture.pins("t3")
        #expect(pins["Modules/Order"] == nil)
        #expect(pins["Modules/Orders"] == (try fixture.remoteBranches()["Order"]?["t3"]))
    }
}
