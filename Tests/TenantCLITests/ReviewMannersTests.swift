import Foundation
import TenantExample
import TenantKit
import TenantTestSupport
import Testing

/// Manners at scale: `review.maxOpen` caps tenantctl's open proposals per repository and `review.perHour` the
/// `create` command's runs in an hour; the proposals beyond them wait in the run (`queued`, "waiting for a slot") and
/// go out on a later `roll --land`. A forge's rate limit (a `create` command failing so, a push refused as too many)
/// is asked again after a pause, then left for the next `--land`: the run never ends failed for it.
@Suite(.tags(.slow), .notInTheFastSet) struct ReviewMannersTests {
    /// The example with `review` as its `review` object.
    static func example(review: String?) throws -> (GitSandbox, ExampleResult, EmulatedForge) {
        let (sandbox, example, forge) = try ReviewRollTests.example()
        try ReviewForgeKindsTests.configure(sandbox, example, review: review)
        return (sandbox, example, forge)
    }

    /// The proposals of a `--json` answer, by state, as `<repository> <target>`.
    static func byState(_ stdout: String) throws -> [String: [String]] {
        try ReviewRollTests.reviews(stdout).reduce(into: [:]) { result, review in
            let name = "\(review["repository"] as? String ?? "") \(review["target"] as? String ?? "")"
            result[review["state"] as? String ?? "", default: []].append(name)
        }
    }

    /// How many of `names` (`<repository> <target>`) each repository has.
    static func perRepository(_ names: [String]) -> [String: Int] {
        names.reduce(into: [:]) { $0[String($1.split(separator: " ")[0]), default: 0] += 1 }
    }

    /// The bare remote of `repository` (`superproject` or a module).
    static func bare(_ repository: String, _ example: ExampleResult) -> String {
        example.remotes + "/"
            + (repository == RollPublication.superproject ? ExampleBuilder.superprojectName : repository) + ".git"
    }

    /// Lands every open proposal of a `--json` answer by a merge, as the forge's button would.
    static func landOpen(_ stdout: String, _ forge: EmulatedForge, _ example: ExampleResult) throws {
        for review in try ReviewRollTests.reviews(stdout) where review["state"] as? String == "open" {
            let repository = try #require(review["repository"] as? String)
            try forge.land(
                try #require(review["ref"] as? String), into: try #require(review["target"] as? String),
                method: .merge, in: Self.bare(repository, example))
        }
    }

    /// `roll --review`, then every open proposal landed and `roll --land`: the tenants' superproject proposals.
    static func superprojectRound(maxOpen: Int) throws -> (GitSandbox, ExampleResult, EmulatedForge, CLIResult) {
        let (sandbox, example, forge) = try Self.example(review: "{\"maxOpen\": \(maxOpen)}")
        let proposed = sandbox.tenantctl(["roll", "--review", "--json"], in: example.workspace)
        #expect(proposed.status == 75, "\(proposed.stdout)\(proposed.stderr)")
        for (repository, count) in Self.perRepository(try Self.byState(proposed.stdout)["open"] ?? []) {
            #expect(count <= maxOpen, "\(repository): \(proposed.stdout)")
        }
        try Self.landOpen(proposed.stdout, forge, example)
        let landed = sandbox.tenantctl(["roll", "--land", "--json"], in: example.workspace)
        #expect(landed.status == 75, "\(landed.stdout)\(landed.stderr)")
        #expect(try ReviewRollTests.violations(landed.stdout, schema: "roll-land").isEmpty)
        return (sandbox, example, forge, landed)
    }

    @Test func maxOpenHoldsBackTheRestUntilALaterLand() throws {
        // Positive control: below the limit every tenant's superproject proposal goes out at once.
        let (_, _, _, all) = try Self.superprojectRound(maxOpen: 50)
        let unlimited = try Self.byState(all.stdout)
        #expect(unlimited["queued"] == nil, "\(unlimited)")
        let tenants = Self.perRepository(unlimited["open"] ?? [])[RollPublication.superproject] ?? 0
        try #require(tenants >= 2, "several superproject proposals: \(unlimited)")

        let (sandbox, example, forge, result) = try Self.superprojectRound(maxOpen: 1)
        let limited = try Self.byState(result.stdout)
        #expect(Self.perRepository(limited["open"] ?? [])[RollPublication.superproject] == 1, "\(limited)")
        let queued = limited["queued"] ?? []
        #expect(queued.count == tenants - 1, "the rest wait for a slot: \(limited)")
        // What waits is not pushed.
        for review in try ReviewRollTests.reviews(result.stdout) where review["state"] as? String == "queued" {
            let ref = try #require(review["ref"] as? String)
            #expect(
                try sandbox.branches(Self.bare(RollPublication.superproject, example))[String(ref.dropFirst(11))]
                    == nil, "\(ref)")
        }
        let text = sandbox.tenantctl(["roll", "--land"], in: example.workspace)
        #expect(text.status == 75, "waiting, nothing wrong: \(text.stdout)\(text.stderr)")
        #expect(text.stdout.contains("waiting for a slot"), "\(text.stdout)")
        let status = sandbox.tenantctl(["status"], in: example.workspace)
        #expect(status.stdout.contains("\(queued.count) waiting for a slot"), "\(status.stdout)")
        let runs = try sandbox.runs(in: example.workspace)
        let slots = runs.compactMap { ($0["reviews"] as? [String: Any])?["slot"] as? Int }.reduce(0, +)
        #expect(slots == queued.count, "\(runs)")
        for (command, schema) in [(["runs", "--json"], "runs"), (["status", "--json"], "status")] {
            let answer = sandbox.tenantctl(command, in: example.workspace)
            #expect(try ReviewRollTests.violations(answer.stdout, schema: schema).isEmpty, "\(answer.stdout)")
        }

        // The open one lands: the next `--land` proposes one that waited, still one at a time.
        try Self.landOpen(result.stdout, forge, example)
        let next = sandbox.tenantctl(["roll", "--land", "--json"], in: example.workspace)
        #expect(next.status == 75, "\(next.stdout)\(next.stderr)")
        let after = try Self.byState(next.stdout)
        #expect(Self.perRepository(after["open"] ?? [])[RollPublication.superproject] == 1, "\(after)")
        #expect((after["queued"] ?? []).count == queued.count - 1, "\(after)")
        #expect(Set(after["open"] ?? []).isSubset(of: Set(queued)), "one that waited went out: \(after)")
    }

    @Test func perHourHoldsBackCreateRuns() throws {
        let (sandbox, example, create) = try ReviewCreateTests.example()
        let free = sandbox.tenantctl(["roll", "--review", "--json"], in: example.workspace)
        #expect(free.status == 75, "\(free.stdout)\(free.stderr)")
        let opened = try create.answered().count
        try #require(opened >= 2, "positive control: every review opened at once")

        let (limited, limitedExample, limitedCreate) = try ReviewCreateTests.example(perHour: 1)
        let result = limited.tenantctl(["roll", "--review", "--json"], in: limitedExample.workspace)
        #expect(result.status == 75, "\(result.stdout)\(result.stderr)")
        #expect(try limitedCreate.answered().count == 1, "one create run in the hour")
        let states = try Self.byState(result.stdout)
        #expect((states["queued"] ?? []).count == opened - 1, "\(states)")
        // Within the same hour a `--land` sends out nothing more.
        let again = limited.tenantctl(["roll", "--land", "--json"], in: limitedExample.workspace)
        #expect(again.status == 75, "\(again.stdout)\(again.stderr)")
        #expect(try limitedCreate.answered().count == 1)
    }

    @Test func aRateLimitedCreateIsAskedAgainThenLeftForTheNextLand() throws {
        let quick = [ReviewMannersTests.backoff: "0"]
        // Throttled twice, then it answers: every review opens in the same run.
        let (sandbox, example, create) = try ReviewCreateTests.example()
        try create.fail(times: 2, with: "HTTP 403: You have exceeded a secondary rate limit")
        let retried = try sandbox.tenantctlProcess(
            ["roll", "--review", "--json"], in: example.workspace, environment: quick)
        #expect(retried.status == 75, "\(retried.stdout)\(retried.stderr)")
        let states = try Self.byState(retried.stdout)
        #expect(states["queued"] == nil, "\(states)")
        #expect(create.attempts() == (try create.answered().count) + 2, "asked again after each throttle")

        // Throttled for good: the proposal waits for a slot, the run waits; healed, `--land` opens the review.
        let (other, throttled, stubborn) = try ReviewCreateTests.example()
        try stubborn.fail(with: "API rate limit exceeded (HTTP 429 Too Many Requests)")
        let left = try other.tenantctlProcess(
            ["roll", "--review", "--json"], in: throttled.workspace, environment: quick)
        #expect(left.status == 75, "never failed for a rate limit: \(left.stdout)\(left.stderr)")
        #expect(try other.lastRun("roll", in: throttled.workspace)["state"] as? String == "waiting")
        #expect((try Self.byState(left.stdout)["queued"] ?? []).count >= 1, "\(left.stdout)")
        #expect(left.stderr.contains("throttling"), "\(left.stderr)")
        stubborn.heal()
        let land = try other.tenantctlProcess(
            ["roll", "--land", "--json"], in: throttled.workspace, environment: quick)
        #expect(land.status == 75, "\(land.stdout)\(land.stderr)")
        let reviews = try ReviewRollTests.reviews(land.stdout)
        #expect(!reviews.contains { $0["state"] as? String == "queued" }, "\(reviews)")
        #expect(try stubborn.answered().count >= 1, "the review opened on the later --land")

        // Negative control: a failure that is no rate limit still stops the run.
        let (plain, plainExample, failing) = try ReviewCreateTests.example()
        try failing.fail(with: "gh: you are not logged in")
        let failed = try plain.tenantctlProcess(["roll", "--review"], in: plainExample.workspace, environment: quick)
        #expect(failed.status == 1, "\(failed.stdout)\(failed.stderr)")
    }

    @Test func aPushRefusedAsTooManyWaitsForTheNextLand() throws {
        let (sandbox, example, _) = try ReviewRollTests.example()
        let infrastructure = Self.bare("Infrastructure", example)
        let hook = try sandbox.writeExecutable(
            "throttle-hook",
            """
            #!/bin/sh
            echo "error: too many pushes, secondary rate limit: try again later" >&2
            exit 1

            """)
        try FileManager.default.copyItem(atPath: hook, toPath: infrastructure + "/hooks/pre-receive")
        let result = sandbox.tenantctl(["roll", "--review", "--json"], in: example.workspace)
        #expect(result.status == 75, "waiting, nothing wrong: \(result.stdout)\(result.stderr)")
        let states = try Self.byState(result.stdout)
        #expect(states["rejected"] == nil, "\(states)")
        #expect((states["queued"] ?? []).contains { $0.hasPrefix("Infrastructure ") }, "\(states)")
        #expect(try sandbox.lastRun("roll", in: example.workspace)["state"] as? String == "waiting")

        // The forge takes pushes again: the next `--land` proposes what waited.
        try FileManager.default.removeItem(atPath: infrastructure + "/hooks/pre-receive")
        let land = sandbox.tenantctl(["roll", "--land", "--json"], in: example.workspace)
        #expect(land.status == 75, "\(land.stdout)\(land.stderr)")
        let after = try Self.byState(land.stdout)
        #expect((after["open"] ?? []).contains { $0.hasPrefix("Infrastructure ") }, "\(after)")
        #expect(after["queued"] == nil, "\(after)")
    }

    /// The variable that shortens the pauses before a rate-limited `create` command is asked again.
    static let backoff = "TENANTCTL_REVIEW_BACKOFF"
}
