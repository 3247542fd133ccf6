import Foundation
import TenantExample
import TenantKit
import TenantTestSupport
import Testing

/// `resolve <t> --review` with the `branch` kind runs the `create` command of the `review` object for each proposal
/// branch it pushes, as `roll --review` does: once; a proposal whose review is known is adopted without a second
/// call; and a kill between the command and the record of its answer opens no second review.
@Suite struct ResolveReviewCreateTests {
    /// The example at its conflict with a fake `gh pr create` as the `create` command, after a plain roll (t2 in
    /// conflict), every tenant branch protected.
    static func example() throws -> (GitSandbox, ExampleResult, FakeCreateCommand) {
        let sandbox = try GitSandbox()
        let example = try ExampleBuilder(git: try sandbox.gitRunner()).build(
            in: sandbox.path("erp"), stage: .conflict)
        let create = try FakeCreateCommand(in: sandbox)
        let words = [create.path, "--repo", "{repo}", "--base", "{target}", "--head", "{branch}", "--title", "{title}"]
        let array = "[" + words.map { "\"\($0)\"" }.joined(separator: ", ") + "]"
        try ReviewForgeKindsTests.configure(sandbox, example, review: "{\"create\": \(array)}")
        let rolled = sandbox.tenantctlOfBuild(["roll"], in: example.workspace)
        #expect(rolled.status == 2, "\(rolled.stdout)\(rolled.stderr)")
        let forge = EmulatedForge(sandbox: sandbox)
        for name in ResolveReviewKindsTests.repositories {
            try forge.protect(["t1", "t2", "t3"], in: example.remotes + "/\(name).git")
        }
        return (sandbox, example, create)
    }

    /// `resolve t2 --review` and the conflict resolved with `content`, staged; `--continue` is the caller's.
    static func start(_ sandbox: GitSandbox, _ example: ExampleResult, content: String) throws {
        let started = sandbox.tenantctlOfBuild(["resolve", "t2", "--review"], in: example.workspace)
        #expect(started.status == 2, "\(started.stdout)\(started.stderr)")
        let module = "\(example.workspace)/Modules/\(ExampleScenario.conflictResolution.module)"
        try content.write(
            toFile: "\(module)/\(ExampleScenario.conflictResolution.file)", atomically: true, encoding: .utf8)
        try sandbox.git(["add", ExampleScenario.conflictResolution.file], in: module)
    }

    /// `resolve t2 --review`, the conflict resolved with `content` and staged, then `--continue`.
    static func resolve(_ sandbox: GitSandbox, _ example: ExampleResult, content: String) throws -> CLIResult {
        try start(sandbox, example, content: content)
        let continued = sandbox.tenantctlOfBuild(["resolve", "--continue"], in: example.workspace)
        #expect(continued.status == 0, "\(continued.stdout)\(continued.stderr)")
        return continued
    }

    @Test func theCreateCommandOpensTheResolvedReviewOnceAndItsAddressIsFollowed() throws {
        let (sandbox, example, create) = try Self.example()
        let resolution = ExampleScenario.conflictResolution.content
        _ = try ResolveReviewCreateTests.resolve(sandbox, example, content: resolution)
        let calls = try create.answered()
        #expect(calls.count == 1, "the module's proposal (the superproject's waits for it): \(calls)")
        let call = try #require(calls.first)
        #expect(call.environment["TENANTCTL_REVIEW_REPOSITORY"] == "Infrastructure", "\(call)")
        #expect(ReviewCreateTests.value("--base", in: call.arguments) == "t2", "\(call)")
        #expect(ReviewCreateTests.value("--head", in: call.arguments) == ReviewOptions.defaultPrefix + "/t2")
        let land = sandbox.tenantctlOfBuild(["roll", "--land", "--json"], in: example.workspace)
        #expect(land.status == 75, "\(land.stdout)\(land.stderr)")
        let followed = ReviewRollTests.review(try ReviewRollTests.reviews(land.stdout), "Infrastructure", "t2")
        #expect(followed?["url"] as? String == "https://forge.invalid/Infrastructure/pull/1", "\(land.stdout)")

        // Resolved otherwise: the proposal branch moves, its pull request follows it: no second one.
        _ = try ResolveReviewCreateTests.resolve(
            sandbox, example, content: resolution + "infrastructure.extra,Extra,Extra\n")
        let afterUpdate = try create.answered()
        #expect(afterUpdate.count == 1, "no second review opened: \(afterUpdate)")
        let again = sandbox.tenantctlOfBuild(["roll", "--land", "--json"], in: example.workspace)
        let kept = ReviewRollTests.review(try ReviewRollTests.reviews(again.stdout), "Infrastructure", "t2")
        #expect(kept?["url"] as? String == "https://forge.invalid/Infrastructure/pull/1", "\(again.stdout)")
    }

    /// Killed after the command opened the review, before its address was recorded: `resolve --continue` again does
    /// not run it for that proposal branch (a second review), names the branch and the forge to check, and finishes.
    @Test(.tags(.slow), .notInTheFastSet)
    func aKillBetweenCreateAndItsRecordOpensNoSecondReview() throws {
        let (sandbox, example, create) = try Self.example()
        try Self.start(sandbox, example, content: ExampleScenario.conflictResolution.content)
        try create.killCallerOnce()
        // A process of its own: the command kills the process that ran it.
        let killed = try sandbox.tenantctlProcess(["resolve", "--continue"], in: example.workspace)
        #expect(killed.status != 0, "killed: \(killed.status) \(killed.stdout)\(killed.stderr)")
        #expect(try create.answered().count == 1, "the review was opened, then the kill")

        let rerun = sandbox.tenantctlOfBuild(["resolve", "--continue"], in: example.workspace)
        #expect(rerun.status == 0, "\(rerun.stdout)\(rerun.stderr)")
        let afterRerun = try create.answered()
        #expect(afterRerun.count == 1, "no second review: \(afterRerun)")
        let branch = ReviewOptions.defaultPrefix + "/t2"
        for expected in ["check the forge", branch, create.path] {
            #expect(rerun.stderr.contains(expected), "\(expected): \(rerun.stderr)")
        }
        // The proposal is followed as any other.
        let land = sandbox.tenantctlOfBuild(["roll", "--land", "--json"], in: example.workspace)
        #expect(land.status == 75, "\(land.stdout)\(land.stderr)")
        let followed = ReviewRollTests.review(try ReviewRollTests.reviews(land.stdout), "Infrastructure", "t2")
        #expect(
            followed?["state"] as? String == "open" && followed?["createStarted"] as? Bool == true, "\(followed ?? [:])"
        )
    }
}

extension GitSandbox {
    /// `tenantctl <arguments>` in-process; with `TENANTCTL_BINARY` set, as a process of that executable instead, so
    /// that pointing it at an older build shows what that build did.
    func tenantctlOfBuild(_ arguments: [String], in directory: String) -> CLIResult {
        guard ProcessInfo.processInfo.environment["TENANTCTL_BINARY"] != nil else {
            return tenantctl(arguments, in: directory)
        }
        do {
            return try tenantctlProcess(arguments, in: directory)
        } catch {
            return CLIResult(status: -1, stdout: "", stderr: "tenantctl did not run: \(error)")
        }
    }
}
