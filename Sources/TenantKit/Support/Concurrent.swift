import Foundation

/// Runs independent, blocking work (git processes of different repositories) a bounded number at a time.
public enum Concurrent {
    /// Calls `body` for every item, at most `jobs` at a time, and returns the results in item order.
    /// Every item runs even when another fails; then the first failure (in item order) is thrown.
    public static func map<Item: Sendable, Result: Sendable>(
        _ items: [Item], jobs: Int, _ body: @escaping @Sendable (Item) throws -> Result
    ) throws -> [Result] {
        let outcomes = ConcurrentOutcomes<Result>(count: items.count)
        if items.count <= 1 || jobs <= 1 {
            for (index, item) in items.enumerated() { outcomes.set(index, Swift.Result { try body(item) }) }
        } else {
            let limit = DispatchSemaphore(value: jobs)
            let group = DispatchGroup()
            for (index, item) in items.enumerated() {
                limit.wait()
                group.enter()
                Thread.detachNewThread {
                    outcomes.set(index, Swift.Result { try body(item) })
                    limit.signal()
                    group.leave()
                }
            }
            group.wait()
        }
        return try outcomes.values().map { try $0.get() }
    }
}

/// Results written by concurrent workers, read once all are done.
final class ConcurrentOutcomes<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var storage: [Swift.Result<Value, any Error>?]

    init(count: Int) { storage = Array(repeating: nil, count: count) }

    func set(_ index: Int, _ value: Swift.Result<Value, any Error>) { lock.withLock { storage[index] = value } }

    func values() -> [Swift.Result<Value, any Error>] {
        lock.withLock { storage.map { $0 ?? .failure(CancellationError()) } }
    }
}
