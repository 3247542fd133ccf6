import Foundation
import TenantExample
import TenantKit
import TenantTestSupport
import Testing

/// The review roll over a real git server (smart HTTP with basic auth, ssh with a key) in front of the forge
/// emulated with hooks: the server's "protected branch" reaches plain roll through the transport, and the proposal
/// branches are pushed and followed over it.
@Suite(.sharedServers, .tags(.slow), .notInTheFastSet) struct ReviewServerTests {
    static func smoke(_ served: ServedExample) throws {
        let forge = EmulatedForge(sandbox: served.sandbox)
        for name in ["Infrastructure", "Superproject"] { try forge.protect(["t2"], in: served.remote(name)) }
        let before = try served.remoteBranches()

        let roll = served.tenantctl(["roll", "--json"])
        #expect(roll.status == 2, "\(roll.stdout)\(roll.stderr)")
        let tenants = try ReviewRollTests.tenants(roll.stdout)
        #expect(tenants["t2"]?["protected"] as? Bool == true, "\(tenants["t2"] ?? [:])")
        #expect(tenants["t1"]?["status"] as? String == "rolled", "positive control: \(tenants["t1"] ?? [:])")
        #expect(try served.remoteBranches()["Infrastructure"]?["t2"] == before["Infrastructure"]?["t2"])

        let review = served.tenantctl(["roll", "--review", "--json"])
        #expect(review.status == 75, "\(review.stdout)\(review.stderr)")
        let proposal = ReviewOptions.defaultPrefix + "/t2"
        #expect(try served.remoteBranches()["Infrastructure"]?[proposal] != nil)

        try forge.land("refs/heads/" + proposal, into: "t2", method: .squash, in: served.remote("Infrastructure"))
        let land = served.tenantctl(["roll", "--land", "--json"])
        #expect(land.status == 75, "\(land.stdout)\(land.stderr)")
        let landed = try ReviewRollTests.reviews(land.stdout)
        #expect(ReviewRollTests.review(landed, "Infrastructure", "t2")?["method"] as? String == "squash", "\(landed)")
    }

    @Test(.enabled(if: ServerAvailability.http, "nginx, fcgiwrap or git-http-backend missing"))
    func protectedPushProposalAndLandingOverSmartHTTP() throws {
        try Self.smoke(try ServedExample(.http))
    }

    @Test(.enabled(if: ServerAvailability.ssh, "sshd, ssh or ssh-keygen missing"))
    func protectedPushProposalAndLandingOverSSH() throws {
        try Self.smoke(try ServedExample(.ssh))
    }
}
