import Foundation
import TenantExample
import TenantKit
import TenantTestSupport
import Testing

/// Commands come from the user: the `create` command and the forge kind are read from the checked-out `modules.json`
/// or git config `tenantctl.review.create`, never from fetched content. A `review` object on the fetched general
/// branch that differs from the checked-out one is refused, naming both, and nothing of it runs.
@Suite struct ReviewUserSettingsTests {
    /// The words of a `create` command that opens a review with `create`.
    static func words(_ create: FakeCreateCommand) -> [String] {
        [create.path, "--repo", "{repo}", "--base", "{target}", "--head", "{branch}", "--title", "{title}"]
    }

    /// The proposal branches on the remote of Infrastructure.
    static func proposalBranches(_ sandbox: GitSandbox, _ example: ExampleResult) throws -> [String] {
        try sandbox.branches(example.remotes + "/Infrastructure.git").keys.filter {
            $0.hasPrefix(ReviewOptions.defaultPrefix + "/")
        }.sorted()
    }

    @Test func aCreateCommandOnTheFetchedGeneralBranchIsRefusedUntilItIsCheckedOut() throws {
        let (sandbox, example, _) = try ReviewRollTests.example()
        let create = try FakeCreateCommand(in: sandbox)
        let array = "[" + Self.words(create).map { "\"\($0)\"" }.joined(separator: ", ") + "]"
        // Someone pushes a `create` command to general_dev; the checked-out modules.json has no review object.
        try ReviewForgeKindsTests.configure(sandbox, example, review: "{\"create\": \(array)}", checkOut: false)

        let refused = sandbox.tenantctl(["roll", "--review"], in: example.workspace)
        #expect(refused.status == 1, "\(refused.stdout)\(refused.stderr)")
        for expected in ["origin/general_dev", create.path, "checked-out modules.json (no review object)", "git pull"] {
            #expect(refused.stderr.contains(expected), "\(expected): \(refused.stderr)")
        }
        #expect(try create.answered().isEmpty, "nothing from fetched content ran")
        #expect(try Self.proposalBranches(sandbox, example).isEmpty, "nothing was proposed")

        // Positive control: once the user has it checked out, it is theirs, and it opens the reviews.
        try sandbox.git(["pull", "-q", "--ff-only", "origin", "general_dev"], in: example.workspace)
        let proposed = sandbox.tenantctl(["roll", "--review"], in: example.workspace)
        #expect(proposed.status == 75, "\(proposed.stdout)\(proposed.stderr)")
        #expect(!(try create.answered()).isEmpty)
    }

    @Test func aForgeKindOnTheFetchedGeneralBranchIsRefusedNamingBoth() throws {
        let (sandbox, example, _) = try ReviewRollTests.example()
        try ReviewForgeKindsTests.configure(sandbox, example, review: #"{"forge": "gitlab"}"#, checkOut: false)
        let refused = sandbox.tenantctl(["roll", "--review", "--dry-run"], in: example.workspace)
        #expect(refused.status == 1, "\(refused.stdout)\(refused.stderr)")
        for expected in [#"(review {"forge": "gitlab"})"#, "checked-out modules.json (no review object)"] {
            #expect(refused.stderr.contains(expected), "\(expected): \(refused.stderr)")
        }
        // Positive control: the same settings on both sides are taken.
        try sandbox.git(["pull", "-q", "--ff-only", "origin", "general_dev"], in: example.workspace)
        let dryRun = sandbox.tenantctl(["roll", "--review", "--dry-run"], in: example.workspace)
        #expect(dryRun.status != 1, "\(dryRun.stdout)\(dryRun.stderr)")
    }

    /// `tenantctl.review.create` as one value per word, or as one value holding a JSON array: the `create` command of
    /// every proposal branch, with no review object in modules.json.
    @Test(arguments: [false, true])
    func theCreateCommandComesFromGitConfig(asJSONArray: Bool) throws {
        let (sandbox, example, _) = try ReviewRollTests.example()
        let create = try FakeCreateCommand(in: sandbox)
        let words = Self.words(create)
        if asJSONArray {
            let array = "[" + words.map { "\"\($0)\"" }.joined(separator: ", ") + "]"
            try sandbox.git(["config", "tenantctl.review.create", array], in: example.workspace)
        } else {
            for word in words {
                try sandbox.git(["config", "--add", "tenantctl.review.create", word], in: example.workspace)
            }
        }
        let proposed = sandbox.tenantctl(["roll", "--review", "--json"], in: example.workspace)
        #expect(proposed.status == 75, "\(proposed.stdout)\(proposed.stderr)")
        let calls = try create.answered()
        let call = try #require(calls.first { $0.environment["TENANTCTL_REVIEW_REPOSITORY"] == "Infrastructure" })
        #expect(call.arguments.first == "--repo", "\(call)")
        #expect(ReviewCreateTests.value("--head", in: call.arguments) == ReviewOptions.defaultPrefix + "/t2")
        let reviews = try ReviewRollTests.reviews(proposed.stdout)
        let url = ReviewRollTests.review(reviews, "Infrastructure", "t2")?["url"] as? String
        #expect(url?.hasPrefix("https://forge.invalid/Infrastructure/pull/") == true, "\(reviews)")

        // A value that is no JSON array of strings is refused, naming the key.
        try sandbox.git(["config", "--unset-all", "tenantctl.review.create"], in: example.workspace)
        try sandbox.git(["config", "tenantctl.review.create", "[\"gh\", 3]"], in: example.workspace)
        let wrong = sandbox.tenantctl(["roll", "--review", "--dry-run"], in: example.workspace)
        #expect(wrong.status == 1 && wrong.stderr.contains("tenantctl.review.create"), "\(wrong.stderr)")
    }
}
