import Foundation
import TenantExample
import TenantKit
import TenantTestSupport
import Testing

/// A review run records its forge kind for every repository, and every later push of the run uses it: a re-run of
/// `roll --review` without `--forge`, and `roll --land` proposing the tenants' superproject commits once the module
/// reviews landed. `roll --land --forge` is taken where it agrees with the recorded kind, refused where it differs.
@Suite struct ReviewForgeRecordTests {
    /// Every repository of the example served as a GitLab forge, its tenant branches protected; no review object.
    static func gitlab() throws -> (GitSandbox, ExampleResult, EmulatedForge) {
        let (sandbox, example, forge) = try ReviewRollTests.example()
        for name in ReviewForgeKindsTests.repositories {
            let bare = example.remotes + "/\(name).git"
            try forge.serve(.gitlab, in: bare)
            try forge.protect(["t1", "t2", "t3"], in: bare)
        }
        return (sandbox, example, forge)
    }

    @Test(.tags(.slow), .notInTheFastSet)
    func theRunsForgeKindIsUsedByEveryLaterPushOfTheRun() throws {
        let (sandbox, example, forge) = try Self.gitlab()
        let proposed = sandbox.tenantctl(["roll", "--review", "--forge", "gitlab", "--json"], in: example.workspace)
        #expect(proposed.status == 75, "\(proposed.stdout)\(proposed.stderr)")
        let first = try ReviewRollTests.reviews(proposed.stdout)
        #expect(!first.isEmpty && first.allSatisfy { $0["forge"] as? String == "gitlab" }, "\(first)")

        // A re-run without --forge takes the run's proposals over as merge requests still.
        let again = sandbox.tenantctl(["roll", "--review", "--json"], in: example.workspace)
        #expect(again.status == 75, "\(again.stdout)\(again.stderr)")
        let second = try ReviewRollTests.reviews(again.stdout)
        #expect(!second.isEmpty && second.allSatisfy { $0["forge"] as? String == "gitlab" }, "\(second)")

        // --land --forge with another kind is refused, naming both; nothing is followed or pushed for it.
        let other = sandbox.tenantctl(["roll", "--land", "--forge", "agit"], in: example.workspace)
        #expect(other.status == 1, "\(other.stdout)\(other.stderr)")
        #expect(
            other.stderr.contains("--forge agit") && other.stderr.contains("(gitlab)")
                && other.stderr.contains("tenantctl roll --abandon"), "\(other.stderr)")

        // The forge lands every open merge request: the module merges and general_dev's re-pin.
        let superproject = example.remotes + "/" + ExampleBuilder.superprojectName + ".git"
        for name in ReviewForgeKindsTests.repositories {
            let bare = example.remotes + "/\(name).git"
            for review in try forge.reviews(in: bare) { try forge.landReview(review, method: .merge, in: bare) }
        }
        let pushedBefore = try forge.received(in: superproject).count

        // `roll --land` (no flag) goes on as the run proposed: the tenants' superproject proposals open merge requests.
        let land = sandbox.tenantctl(["roll", "--land", "--json"], in: example.workspace)
        #expect(land.status == 75, "\(land.stdout)\(land.stderr)")
        let pushed = try forge.received(in: superproject).dropFirst(pushedBefore)
        #expect(!pushed.isEmpty, "the superproject proposals were pushed")
        for received in pushed {
            #expect(received.options.first == "merge_request.create", "\(received)")
        }
        let opened = try forge.reviews(in: superproject).filter { $0.target != "general_dev" }
        #expect(Set(opened.map(\.target)) == ["t1", "t2", "t3"], "\(opened)")
        let landed = try ReviewRollTests.reviews(land.stdout)
        for tenant in ["t1", "t2", "t3"] {
            let review = ReviewRollTests.review(landed, "superproject", tenant)
            #expect(review?["forge"] as? String == "gitlab", "\(tenant): \(review ?? [:])")
            let url = review?["url"] as? String ?? ""
            #expect(url.hasPrefix("https://forge.invalid/Superproject/merge_requests/"), "\(tenant): \(review ?? [:])")
        }
        // --land --forge gitlab agrees with the run and is taken; each proposal shows its review address.
        let text = sandbox.tenantctl(["roll", "--land", "--forge", "gitlab"], in: example.workspace)
        #expect(text.status == 75, "\(text.stdout)\(text.stderr)")
        #expect(text.stdout.contains("https://forge.invalid/Superproject/merge_requests/"), "\(text.stdout)")

        // A re-run with another kind than the run recorded is refused as well, naming both.
        let rerun = sandbox.tenantctl(["roll", "--review", "--forge", "gerrit"], in: example.workspace)
        #expect(rerun.status == 1 && rerun.stderr.contains("--forge gerrit"), "\(rerun.stdout)\(rerun.stderr)")
    }
}
