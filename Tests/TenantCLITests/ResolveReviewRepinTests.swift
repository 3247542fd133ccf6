import Foundation
import TenantExample
import TenantKit
import TenantTestSupport
import Testing

/// `resolve <t> --review` while general_dev's pins are behind its modules and general_dev is protected: the re-pin
/// goes first, as a review. The refusal names the review form (`roll --review`, then `roll --land` while the re-pin
/// is open), never plain `roll`, which the protected general_dev would refuse; each command it names runs as printed
/// and leads to the resolution.
@Suite struct ResolveReviewRepinTests {
    /// The commands a message names in backquotes (`tenantctl …`), in order, as argument vectors without `tenantctl`.
    static func commands(in text: String) -> [[String]] {
        text.components(separatedBy: "`").enumerated().compactMap { index, part in
            guard index % 2 == 1, part.hasPrefix("tenantctl ") else { return nil }
            return part.split(separator: " ").dropFirst().map(String.init)
        }
    }

    @Test func aReviewResolutionNamesTheReviewRepinAndEveryStepRunsAsPrinted() throws {
        let sandbox = try GitSandbox()
        let example = try ExampleBuilder(git: try sandbox.gitRunner()).build(
            in: sandbox.path("erp"), stage: .conflict)
        let forge = EmulatedForge(sandbox: sandbox)
        let superproject = example.remotes + "/" + ExampleBuilder.superprojectName + ".git"
        for name in ResolveReviewKindsTests.repositories {
            try forge.protect(["t1", "t2", "t3", "general_dev"], in: example.remotes + "/\(name).git")
        }
        let generalBefore = try sandbox.branches(superproject)["general_dev"]

        // general_dev's re-pin is not proposed yet: roll --review proposes it.
        let refused = sandbox.tenantctl(["resolve", "t2", "--review"], in: example.workspace)
        #expect(refused.status == 1, "\(refused.stdout)\(refused.stderr)")
        let steps = Self.commands(in: refused.stderr)
        #expect(
            steps == [["roll", "--review"], ["roll", "--land"], ["resolve", "t2", "--review"]], "\(refused.stderr)")
        let review = sandbox.tenantctl(try #require(steps.first), in: example.workspace)
        #expect([2, 75].contains(review.status), "\(review.stdout)\(review.stderr)")
        let repin = "refs/heads/\(ReviewOptions.defaultPrefix)/general_dev"
        #expect(try sandbox.refs(superproject)[repin] != nil, "the re-pin is proposed: \(review.stdout)")
        #expect(try sandbox.branches(superproject)["general_dev"] == generalBefore)

        // While it is open: follow it with roll --land. Plain resolve names the same way (general_dev is protected).
        let waiting = sandbox.tenantctl(["resolve", "t2", "--review"], in: example.workspace)
        #expect(waiting.status == 1, "\(waiting.stdout)\(waiting.stderr)")
        let follow = Self.commands(in: waiting.stderr)
        #expect(follow == [["roll", "--land"], ["resolve", "t2", "--review"]], "\(waiting.stderr)")
        let plain = sandbox.tenantctl(["resolve", "t2"], in: example.workspace)
        #expect(Self.commands(in: plain.stderr) == [["roll", "--land"], ["resolve", "t2"]], "\(plain.stderr)")
        let open = sandbox.tenantctl(follow[0], in: example.workspace)
        #expect(open.status == 75, "the re-pin is still open: \(open.stdout)\(open.stderr)")

        // The forge lands the re-pin: roll --land, as printed, recognises it; then the resolution starts.
        try forge.land(repin, into: "general_dev", method: .merge, in: superproject)
        let landed = sandbox.tenantctl(follow[0], in: example.workspace)
        #expect([0, 2, 75].contains(landed.status), "\(landed.stdout)\(landed.stderr)")
        #expect(landed.stdout.contains("general_dev: landed"), "\(landed.stdout)")
        let started = sandbox.tenantctl(follow[1], in: example.workspace)
        #expect(started.status == 2, "the resolution starts with t2's conflict: \(started.stdout)\(started.stderr)")
        #expect(started.stdout.contains("tenantctl resolve --continue"), "\(started.stdout)")
        #expect(sandbox.tenantctl(["resolve", "--abort"], in: example.workspace).status == 0)

        // Positive control: without protection or a review, the plain way is named, and it runs as printed.
        let other = try GitSandbox()
        let plainExample = try ExampleBuilder(git: try other.gitRunner()).build(
            in: other.path("erp"), stage: .conflict)
        let plainRefused = other.tenantctl(["resolve", "t2"], in: plainExample.workspace)
        let plainSteps = Self.commands(in: plainRefused.stderr)
        #expect(plainSteps == [["roll"], ["resolve", "t2"]], "\(plainRefused.stderr)")
        let rolled = other.tenantctl(try #require(plainSteps.first), in: plainExample.workspace)
        #expect(rolled.status == 2, "t2 conflicts, the others roll: \(rolled.stdout)\(rolled.stderr)")
        #expect(other.tenantctl(plainSteps[1], in: plainExample.workspace).status == 2)
    }
}
