import Foundation
import Testing

/// One share of a fault sweep's kill points, so that one sweep is several test cases that the test threads run side
/// by side (a sweep in one test holds one of the two threads for minutes).
///
/// A sweep test takes `SweepShard.all(n)` as its arguments (with a second argument list, the cases are every
/// combination) and checks the kill points `shard.take(indices)` gives it: every `n`-th point of the sweep's list,
/// starting at its own. The shares are disjoint and together are the whole list, whatever the list's length; each
/// case computes the same list from the same reference run (``FaultLab/shared(_:compute:)`` runs it once per test
/// process). Each kill point gets the same checks as in one long sweep; a check over the whole sweep (a positive
/// control such as "some runs were put back") counts over the case's share where it holds there, or over all
/// points in the case that owns the point it needs.
///
/// `scripts/fault-sweep` (`TENANTCTL_FAULT_SWEEP=all`) sweeps every git call, several times as many kill points, so
/// each sweep has three times as many shares there.
struct SweepShard: Sendable, Hashable, CustomTestStringConvertible {
    /// This share's number, from 0.
    let index: Int
    /// How many shares the sweep has.
    let count: Int

    /// True under `scripts/fault-sweep`: every git call is a kill point.
    static let everyCall = ProcessInfo.processInfo.environment["TENANTCTL_FAULT_SWEEP"] == "all"

    /// The `count` shares of a sweep (three times as many under `scripts/fault-sweep`).
    static func all(_ count: Int) -> [SweepShard] {
        let total = everyCall ? count * 3 : count
        return (0..<total).map { SweepShard(index: $0, count: total) }
    }

    /// This share's kill points: the elements of `points` at positions `index`, `index + count`, ….
    func take<Element>(_ points: [Element]) -> [Element] {
        points.enumerated().filter { $0.offset % count == index }.map(\.element)
    }

    var testDescription: String { "share \(index + 1) of \(count)" }
}
