import Foundation
import Testing

extension Tag {
    /// Suites that start servers or a browser, sweep faults over every git call, or run a command end to end on the
    /// example in many states: most of the suite's time on two cores (`scripts/suite-times` measures it). `TENANTCTL_FAST_TESTS=1 swift test` leaves them out (CONTRIBUTING.md); CI always runs them.
    @Tag public static var slow: Self
}

/// Which tiers of the suite run.
public enum TestTier {
    /// True when `TENANTCTL_FAST_TESTS=1`: the suites tagged `slow` are skipped, each with its reason printed.
    public static let fastOnly = ProcessInfo.processInfo.environment["TENANTCTL_FAST_TESTS"] == "1"
}

/// The trait of every slow suite or test (`.notInTheFastSet`): skipped in the fast set, each test run on the test
/// process's own threads (``TestThreads``) rather than on Swift's cooperative pool, so that the slow tests' waits
/// leave the cores to other tests.
public struct SlowSuiteTrait: SuiteTrait, TestTrait, TestScoping {
    /// The fast set's condition.
    let condition: ConditionTrait = .enabled(
        if: !TestTier.fastOnly, "a slow suite: left out of the fast set (TENANTCTL_FAST_TESTS=1)")

    public var isRecursive: Bool { true }

    public func prepare(for test: Test) async throws {
        try await condition.prepare(for: test)
    }

    public var comments: [Comment] { condition.comments }

    /// Each test case runs in the scope, never a whole suite.
    public func scopeProvider(for test: Test, testCase: Test.Case?) -> Self? { testCase == nil ? nil : self }

    public func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        guard TestThreads.shared.width > 0 else { return try await function() }
        try await withTaskExecutorPreference(TestThreads.shared) { try await function() }
    }
}

extension Trait where Self == SlowSuiteTrait {
    /// The condition of every suite tagged `slow`: enabled unless the fast set was asked for; its tests run on
    /// ``TestThreads``.
    public static var notInTheFastSet: Self { Self() }
}
