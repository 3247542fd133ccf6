import Foundation
import TenantKit
import TenantTestSupport
import Testing

/// roll blocks a tenant only for a finding audit reports on the same repositories (one judge decides both): every
/// reason of a blocked tenant is a finding of audit — the tenant's own (same code, same module), or, for
/// `tenant-merged-back`, another tenant's on the same module — and a tenant audit finds clean rolls.
@Suite(.tags(.slow), .notInTheFastSet) struct RollAuditAgreementTests {
    /// The codes that block a roll when they are the tenant's own.
    static let ownBlocking: Set<String> = [
        "missing-commit", "undeclared-customisation", "invalid-tenant-file", "missing-branch",
    ]

    /// One finding of `audit --json`: the tenant row it is in (nil: top level), its module cell (nil: the row or
    /// the top level), the code and the words.
    struct Audited {
        var tenant: String?
        var module: String?
        var code: String
        var message: String
        /// Whether the cell's module is customised (false outside a cell).
        var customised = false

        /// Whether the finding concerns `module`: in its cell, or (a row or top-level finding) naming it.
        func concerns(_ module: String?) -> Bool {
            guard let module else { return self.module == nil }
            return self.module == module || (self.module == nil && message.contains("\(module)'s "))
                || (self.module == nil && message.contains("module \(module) "))
        }
    }

    func auditFindings(_ json: [String: Any]) -> [Audited] {
        func list(_ object: Any?, tenant: String?, module: String?) -> [Audited] {
            ((object as? [String: Any])?["findings"] as? [[String: Any]] ?? []).map {
                Audited(
                    tenant: tenant, module: module, code: $0["code"] as? String ?? "?",
                    message: $0["message"] as? String ?? "",
                    customised: (object as? [String: Any])?["customised"] as? Bool ?? false)
            }
        }
        var result = list(json, tenant: nil, module: nil)
        for row in json["tenants"] as? [[String: Any]] ?? [] {
            let id = row["id"] as? String
            result += list(row["superproject"], tenant: id, module: nil)
            for cell in row["modules"] as? [[String: Any]] ?? [] {
                result += list(cell, tenant: id, module: cell["module"] as? String)
            }
        }
        return result
    }

    /// Audits, then plans the roll (`--dry-run`: nothing changes) on the same fetched repositories, and checks that
    /// they agree. Returns the blocked tenants.
    @discardableResult
    func expectAgreement(_ fixture: RollFixture, _ state: String) throws -> [String] {
        let audit = try fixture.audit()
        let findings = auditFindings(audit.json)
        let result = fixture.roll(["--dry-run", "--json"])
        let tenants = try RollFixture.tenants(result)
        var blocked: [String] = []
        for (id, tenant) in tenants.sorted(by: { $0.key < $1.key }) {
            let reasons = RollFixture.reasons(tenant)
            if tenant["status"] as? String == "blocked" {
                blocked.append(id)
                for reason in reasons {
                    let code = reason["code"] ?? "?"
                    let module = reason["module"]
                    let carriers = findings.filter { finding in
                        guard finding.code == code else { return false }
                        switch code {
                        case "tenant-merged-back": return finding.tenant != id && finding.concerns(module)
                        case "unreachable-remote": return finding.concerns(module)
                        default: return finding.tenant == id && finding.concerns(module)
                        }
                    }
                    #expect(
                        !carriers.isEmpty,
                        "\(state): roll blocks \(id) for \(code) \(module ?? "-"), audit reports no such finding: \(findings.map { "\($0.tenant ?? "-")/\($0.module ?? "-") \($0.code)" })"
                    )
                    // A block of the tenant's own is the finding in audit's words, then what rolling would do (the
                    // merged-back block sums up several tenants' findings in one reason).
                    if code != "tenant-merged-back", !carriers.isEmpty {
                        let message = reason["message"] ?? ""
                        // A fetch error names the half-made mirror it fetched into, a new one each run.
                        func words(_ text: String) -> String {
                            text.replacingOccurrences(
                                of: #"\.partial-[0-9a-f]+"#, with: "", options: .regularExpression)
                        }
                        #expect(
                            carriers.contains { words(message).hasPrefix(words($0.message) + "; ") },
                            "\(state): roll's words for \(id) \(code) are not audit's: \(message) / \(carriers.map(\.message))"
                        )
                    }
                }
            } else {
                let own = findings.filter { $0.tenant == id && Self.ownBlocking.contains($0.code) }
                #expect(own.isEmpty, "\(state): \(id) rolls although audit reports \(own.map(\.code))")
            }
        }
        // A tenant audit finds clean (no blocking finding of its own, no other tenant's commits merged back into a
        // module's general branch) is not blocked.
        let mergedBack = findings.filter { $0.code == "tenant-merged-back" && $0.module != nil }
        for id in tenants.keys.sorted() {
            // A customised module that could not be fetched blocks its tenant (audit marks the cell unknown).
            let own = findings.filter {
                $0.tenant == id
                    && (Self.ownBlocking.contains($0.code) || ($0.code == "unreachable-remote" && $0.customised))
            }
            let others = findings.filter { $0.code == "tenant-merged-back" && $0.tenant != id }
            if own.isEmpty && others.isEmpty && mergedBack.allSatisfy({ $0.tenant == id }) {
                #expect(!blocked.contains(id), "\(state): audit finds \(id) clean, roll blocks it")
            }
        }
        return blocked
    }

    @Test func everyTenantRollBlocksCarriesTheFindingAuditReports() throws {
        let fixture = try RollFixture()
        // Positive control: the clean example blocks nobody.
        #expect(try expectAgreement(fixture, "clean").isEmpty)
        // t2 pins an unpushed Customer commit; t1 pins its own Article commit without declaring it.
        let customer = try fixture.clone("Customer", branch: "t2")
        let unpushed = try fixture.commit(in: customer, file: "Local.swift", content: "// not pushed\n")
        try fixture.setPins("t2", ["Customer": unpushed])
        let article = try fixture.clone("Article", branch: "general_dev")
        try fixture.sandbox.git(["checkout", "-q", "-b", "t1"], in: article)
        let own = try fixture.commit(in: article, file: "T1.swift", content: "// t1 only\n")
        try fixture.sandbox.git(["push", "-q", "origin", "t1"], in: article)
        try fixture.setPins("t1", ["Article": own])
        #expect(try expectAgreement(fixture, "unpushed and undeclared").sorted() == ["t1", "t2"])
        // t3's Order branch merged back into Order's general_dev: the others are blocked for Order.
        try fixture.sandbox.mergeBack("t3", of: fixture.remote("Order"))
        #expect(try expectAgreement(fixture, "merged back").sorted() == ["t1", "t2"])
    }

    /// The blocks of a tenant's own repositories, each on the same repositories as audit: t2's customised
    /// Infrastructure has lost its tenant branch, t1's superproject branch is gone, and Order, which t3 customises,
    /// cannot be fetched. Each tenant is blocked for exactly that, in audit's words; nobody else is.
    @Test func missingBranchesAndAnUnreachableCustomisedModuleBlockInAuditsWords() throws {
        let fixture = try RollFixture()
        try fixture.sandbox.git(
            ["--git-dir", fixture.remote("Infrastructure"), "branch", "-D", "t2"], in: fixture.workspace)
        try fixture.sandbox.git(
            ["--git-dir", fixture.remote("Superproject"), "branch", "-D", "t1"], in: fixture.workspace)
        try FileManager.default.moveItem(atPath: fixture.remote("Order"), toPath: fixture.remote("Order") + ".gone")
        #expect(try expectAgreement(fixture, "missing and unreachable").sorted() == ["t1", "t2", "t3"])
        let tenants = try RollFixture.tenants(fixture.roll(["--dry-run", "--json"]))
        let codes = tenants.mapValues { RollFixture.reasons($0).map { "\($0["module"] ?? "-") \($0["code"] ?? "?")" } }
        #expect(codes["t1"] == ["- missing-branch"])
        // t2's pin was only on its deleted branch: not on the remote either.
        #expect(codes["t2"] == ["Infrastructure missing-branch", "Infrastructure missing-commit"])
        #expect(codes["t3"] == ["Order unreachable-remote"])
    }

    /// t2's superproject branch merged back into the superproject's general_dev: audit reports it in t2's row, roll
    /// blocks the other tenants for it (and only them).
    @Test func aMergedBackSuperprojectBranchBlocksWhatAuditSays() throws {
        let fixture = try RollFixture()
        try fixture.sandbox.mergeBack("t2", of: fixture.remote("Superproject"))
        #expect(try expectAgreement(fixture, "superproject merged back").sorted() == ["t1", "t3"])
    }

    /// The module branch of a tenant whose file does not load, merged back into the module's general branch: roll
    /// blocks the other tenants for that module, and audit reports the merge-back (in that tenant's row).
    @Test func aMergedBackBranchOfAnInvalidTenantIsAFindingOfAudit() throws {
        let fixture = try RollFixture()
        try fixture.editGeneral([
            "Tenants/t2.json":
                #"{ "id": "t2", "modules": ["Infrastructure", "Article", "Custmer"], "customised": ["Infrastructure"] }"#
                + "\n"
        ])
        try fixture.sandbox.mergeBack("t2", of: fixture.remote("Infrastructure"))
        let blocked = try expectAgreement(fixture, "invalid t2 merged back")
        #expect(blocked.contains("t2"))
        #expect(blocked.contains("t1"), "t1 is blocked for Infrastructure: \(blocked)")
    }
}
