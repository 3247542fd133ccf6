import Foundation
import TenantKit
import TenantTestSupport
import Testing

/// The superproject's general_dev took a tenant's superproject commits (t2's branch merged back): merging
/// general_dev into the other tenants' branches would ship t2's files and pins to them, so roll blocks them, as it
/// blocks them for a module whose general branch took a tenant's commits.
@Suite(.tags(.slow), .notInTheFastSet) struct RollSuperprojectMergedBackTests {
    /// Merges the superproject's t2 into general_dev on the remote; returns t2's commits general_dev took (newest
    /// first), the remote's branches before the merge-back being pushed excluded.
    @discardableResult
    static func mergeT2Back(_ fixture: RollFixture) throws -> [String] {
        let superproject = fixture.remote("Superproject")
        let (before, _) = try fixture.sandbox.mergeBack("t2", of: superproject)
        let taken = try fixture.sandbox.git(
            ["rev-list", "--first-parent", "--no-merges", "t2", "^\(before)"], in: superproject)
        return taken.split(separator: "\n").map(String.init)
    }

    /// Every remote's branches of the given tenants.
    static func refs(_ branches: [String: [String: String]], of tenants: [String]) -> [String: [String: String]] {
        branches.mapValues { $0.filter { tenants.contains($0.key) } }
    }

    @Test func aMergedBackSuperprojectBranchBlocksTheOtherTenants() throws {
        let fixture = try RollFixture()
        let taken = try Self.mergeT2Back(fixture)
        let newest = try #require(taken.first)
        let before = try fixture.remoteBranches()

        let result = fixture.roll(["--json"])
        #expect(result.status == 2, "\(result.stdout)\n\(result.stderr)")
        let tenants = try RollFixture.tenants(result)
        for tenant in ["t1", "t3"] {
            #expect(tenants[tenant]?["status"] as? String == "blocked", "\(tenant): \(tenants[tenant] ?? [:])")
            let reasons = RollFixture.reasons(tenants[tenant])
            #expect(
                reasons.contains {
                    $0["code"] == "tenant-merged-back" && $0["module"] == nil
                        && ($0["message"] ?? "").contains("tenant branch t2")
                        && ($0["message"] ?? "").contains(ObjectID.short(newest))
                        && $0["fix"] == "tenantctl roll --accept-merged-back superproject"
                }, "\(tenant): \(reasons)")
        }
        // t2 itself rolls: its own commits are on its branch already.
        #expect(tenants["t2"]?["status"] as? String == "rolled", "\(tenants["t2"] ?? [:])")
        // No ref of t1 or t3 moves on any remote.
        let after = try fixture.remoteBranches()
        #expect(Self.refs(after, of: ["t1", "t3"]) == Self.refs(before, of: ["t1", "t3"]))

        // The text report names the blocked tenants, t2 and the command that accepts it.
        let text = fixture.roll(["--dry-run"])
        #expect(text.status == 2, "\(text.stdout)\n\(text.stderr)")
        #expect(text.stdout.contains("tenant branch t2"), "\(text.stdout)")
        #expect(text.stdout.contains("t1: tenantctl roll --accept-merged-back superproject"), "\(text.stdout)")
        #expect(text.stdout.contains("t3: tenantctl roll --accept-merged-back superproject"), "\(text.stdout)")
    }

    /// Positive control: without the merge-back the same roll rolls t1 and t3.
    @Test func withoutTheMergeBackTheOtherTenantsRoll() throws {
        let fixture = try RollFixture()
        let result = fixture.roll(["--json"])
        #expect(result.status == 0, "\(result.stdout)\n\(result.stderr)")
        let tenants = try RollFixture.tenants(result)
        for tenant in ["t1", "t2", "t3"] {
            #expect(tenants[tenant]?["status"] as? String == "rolled", "\(tenant): \(tenants[tenant] ?? [:])")
        }
    }

    /// `--accept-merged-back superproject` (the printed fix) runs as printed: the merge-back was promoted on
    /// purpose, nobody is blocked for it, and general_dev is merged into t1 and t3 (here: t2's files conflict with
    /// theirs, a conflict to resolve, not a block).
    @Test func acceptingTheMergeBackRollsTheOthers() throws {
        let fixture = try RollFixture()
        try Self.mergeT2Back(fixture)
        let result = fixture.roll(["--accept-merged-back", "superproject", "--json"])
        #expect(result.status == 2, "\(result.stdout)\n\(result.stderr)")
        let tenants = try RollFixture.tenants(result)
        for tenant in ["t1", "t3"] {
            #expect(tenants[tenant]?["status"] as? String == "conflict", "\(tenant): \(tenants[tenant] ?? [:])")
            #expect(!RollFixture.reasons(tenants[tenant]).contains { $0["code"] == "tenant-merged-back" })
        }
        #expect(tenants["t2"]?["status"] as? String == "rolled")
        // The conflicted tenant's next step accepts the same merge-back, and runs as printed: without the flag
        // resolve would refuse t1 as blocked.
        #expect(tenants["t1"]?["next"] as? String == "tenantctl resolve t1 --accept-merged-back superproject")
        let refused = fixture.sandbox.tenantctl(["resolve", "t1"], in: fixture.workspace)
        #expect(refused.status == 1 && refused.stderr.contains("tenant-merged-back"), "\(refused.stderr)")
        let wrongMode = fixture.sandbox.tenantctl(
            ["resolve", "--continue", "--accept-merged-back", "superproject"], in: fixture.workspace)
        #expect(wrongMode.status == 64, "\(wrongMode.stderr)")
        let resolve = fixture.sandbox.tenantctl(
            ["resolve", "t1", "--accept-merged-back", "superproject"], in: fixture.workspace)
        #expect(resolve.status == 2, "\(resolve.stdout)\n\(resolve.stderr)")
        #expect(resolve.stdout.contains("AppName"), "\(resolve.stdout)")
        // A module's name is still checked: a typo is a usage error.
        let typo = fixture.roll(["--accept-merged-back", "superprojekt"])
        #expect(typo.status == 64, "\(typo.stdout)\n\(typo.stderr)")
        #expect(typo.stderr.contains("did you mean superproject?"), "\(typo.stderr)")
    }

    /// audit's and verify's finding for the superproject says what roll does: it blocks the other tenants until
    /// the merge-back is reverted or accepted with the flag roll prints.
    @Test func auditAndVerifySayWhatRollDoes() throws {
        let fixture = try RollFixture()
        try Self.mergeT2Back(fixture)
        let audit = try fixture.audit()
        let t2 = (audit.json["tenants"] as? [[String: Any]] ?? []).first { $0["id"] as? String == "t2" }
        let finding = ((t2?["superproject"] as? [String: Any])?["findings"] as? [[String: Any]] ?? []).first {
            $0["code"] as? String == "tenant-merged-back"
        }
        let message = try #require(finding?["message"] as? String, "\(t2 ?? [:])")
        #expect(message.contains("roll blocks the other tenants"), "\(message)")
        #expect(message.contains("until it is accepted with --accept-merged-back superproject ("), "\(message)")
        let verify = fixture.sandbox.tenantctl(["verify", "--no-fetch"], in: fixture.workspace)
        #expect(verify.status == 2)
        #expect(verify.stdout.contains("accepted with --accept-merged-back superproject"), "\(verify.stdout)")
        // What the finding says is what roll does.
        let tenants = try RollFixture.tenants(fixture.roll(["--dry-run", "--json"]))
        #expect(tenants["t1"]?["status"] as? String == "blocked")
        #expect(tenants["t3"]?["status"] as? String == "blocked")
    }
}
