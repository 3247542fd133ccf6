import Foundation
import TenantExample
import TenantKit
import TenantTestSupport
import Testing

/// One smoke case per forge kind beyond plain branches (agit, gitlab, gerrit) over each real git server (smart HTTP
/// with basic auth, ssh with a key): the hooks of the forge emulation run on the served bare repositories, so the
/// push options and the review namespace cross the transport as they would to Gitea, GitLab or Gerrit. A transport
/// whose server software is missing is skipped, saying what is missing.
@Suite(.sharedServers, .tags(.slow), .notInTheFastSet) struct ReviewServerKindsTests {
    static let repositories = ["Superproject", "Infrastructure", "Article", "Customer", "Order"]

    /// Where each kind's forge keeps an opened review.
    static let reviewRef: [EmulatedForge.Kind: String] = [
        .agit: "refs/pull/", .gitlab: "refs/merge-requests/", .gerrit: "refs/changes/",
    ]

    static func smoke(_ served: ServedExample, kind: EmulatedForge.Kind) throws {
        let forge = EmulatedForge(sandbox: served.sandbox)
        for name in Self.repositories {
            try forge.serve(kind, in: served.remote(name))
            try forge.protect(["t1", "t2", "t3"], in: served.remote(name))
        }
        let infrastructure = served.remote("Infrastructure")
        let before = try served.remoteBranches()

        let review = served.tenantctl(["roll", "--review", "--forge", kind.rawValue, "--json"])
        #expect(review.status == 75, "\(kind): \(review.stdout)\(review.stderr)")
        // The forge opened Infrastructure's review into t2 from what crossed the transport.
        let opened = try forge.reviews(in: infrastructure)
        let t2 = opened.first { $0.target == "t2" }
        #expect(t2?.ref.hasPrefix(Self.reviewRef[kind] ?? "?") == true, "\(kind): \(opened)")
        let received = try forge.received(in: infrastructure)
        if kind != .gerrit {
            #expect(received.contains { !$0.options.isEmpty }, "\(kind): push options crossed: \(received)")
        } else {
            #expect(received.contains { $0.ref.hasPrefix("refs/for/t2%topic=") }, "\(kind): \(received)")
        }
        // Nothing reached a protected tenant branch.
        #expect(try served.remoteBranches()["Infrastructure"]?["t2"] == before["Infrastructure"]?["t2"])
        // audit shows the open review with its forge kind.
        let audit = served.tenantctl(["audit", "--json"])
        let report = try #require(try JSONSerialization.jsonObject(with: Data(audit.stdout.utf8)) as? [String: Any])
        let shown = (report["reviews"] as? [[String: Any]] ?? []).first {
            $0["repository"] as? String == "Infrastructure" && $0["tenant"] as? String == "t2"
        }
        #expect(shown?["forge"] as? String == kind.rawValue, "\(kind): \(audit.stdout.prefix(2000))")
        #expect(shown?["state"] as? String == "open", "\(kind): \(shown ?? [:])")
    }

    @Test(
        .enabled(if: ServerAvailability.http, "nginx, fcgiwrap or git-http-backend missing"),
        arguments: [EmulatedForge.Kind.agit, .gitlab, .gerrit])
    func reviewKindOverSmartHTTP(kind: EmulatedForge.Kind) throws {
        try Self.smoke(try ServedExample(.http), kind: kind)
    }

    @Test(
        .enabled(if: ServerAvailability.ssh, "sshd, ssh or ssh-keygen missing"),
        arguments: [EmulatedForge.Kind.agit, .gitlab, .gerrit])
    func reviewKindOverSSH(kind: EmulatedForge.Kind) throws {
        try Self.smoke(try ServedExample(.ssh), kind: kind)
    }
}
