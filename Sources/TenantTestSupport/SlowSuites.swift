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

extension Trait where Self == ConditionTrait {
    /// The condition of every suite tagged `slow`: enabled unless the fast set was asked for.
    public static var notInTheFastSet: Self {
        .enabled(if: !TestTier.fastOnly, "a slow suite: left out of the fast set (TENANTCTL_FAST_TESTS=1)")
    }
}
