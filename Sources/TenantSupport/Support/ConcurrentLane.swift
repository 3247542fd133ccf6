import Foundation

/// Work handed over now and waited for later, `jobs` at a time, beside whatever the caller does next: a mirror's
/// record of a landed push runs while the next module pushes, so that the push does not wait for it. With `jobs` 1
/// (`--jobs 1`: one git process at a time, in a fixed order) each item runs at once on the caller's thread.
public final class ConcurrentLane: Sendable {
    private let jobs: Int
    private let limit: DispatchSemaphore
    private let group = DispatchGroup()
    private let failures = Locked<[String: String]>([:])

    /// A lane running at most `jobs` items at a time.
    public init(jobs: Int) {
        self.jobs = max(jobs, 1)
        limit = DispatchSemaphore(value: max(jobs, 1))
    }

    /// Runs `body` for `key` (on another thread unless `jobs` is 1); a failure it returns is kept under `key`.
    public func run(_ key: String, _ body: @escaping @Sendable () -> (any Error)?) {
        guard jobs > 1 else {
            if let failure = body() { failures.withLock { $0[key] = String(describing: failure) } }
            return
        }
        group.enter()
        Thread.detachNewThread { [self] in
            limit.wait()
            let failure = body()
            if let failure { failures.withLock { $0[key] = String(describing: failure) } }
            limit.signal()
            group.leave()
        }
    }

    /// Waits for every item handed over; returns the failures by key (each described).
    @discardableResult
    public func wait() -> [String: String] {
        group.wait()
        return failures.current
    }
}
