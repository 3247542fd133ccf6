import Foundation

/// The module's one concurrency helper: runs independent, blocking work (git processes of different repositories)
/// a bounded number at a time.
public enum Concurrent {
    /// Calls `body` for every item, at most `jobs` at a time, and returns the results in item order.
    /// Every item runs even when another fails; then the first failure (in item order) is thrown.
    public static func map<Item: Sendable, Result: Sendable>(
        _ items: [Item], jobs: Int, _ body: @escaping @Sendable (Item) throws -> Result
    ) throws -> [Result] {
        try outcomes(items, jobs: jobs, body).map { try $0.get() }
    }

    /// Calls `body` for every item, at most `jobs` at a time, and returns every item's outcome in item order
    /// (for callers that report all failures, not only the first).
    public static func outcomes<Item: Sendable, Result: Sendable>(
        _ items: [Item], jobs: Int, _ body: @escaping @Sendable (Item) throws -> Result
    ) -> [Swift.Result<Result, any Error>] {
        let outcomes = Locked<[Swift.Result<Result, any Error>?]>(Array(repeating: nil, count: items.count))
        if items.count <= 1 || jobs <= 1 {
            for (index, item) in items.enumerated() {
                let outcome = Swift.Result { try body(item) }
                outcomes.withLock { $0[index] = outcome }
            }
        } else {
            let limit = DispatchSemaphore(value: jobs)
            let group = DispatchGroup()
            for (index, item) in items.enumerated() {
                limit.wait()
                group.enter()
                Thread.detachNewThread {
                    let outcome = Swift.Result { try body(item) }
                    outcomes.withLock { $0[index] = outcome }
                    limit.signal()
                    group.leave()
                }
            }
            group.wait()
        }
        return outcomes.withLock { $0.map { $0 ?? .failure(CancellationError()) } }
    }

    /// Runs `background` on another thread while `foreground` runs on this one, and returns when both have
    /// finished: work that must be done but need not delay what comes next (a mirror's bookkeeping while the next
    /// push runs). Throws `foreground`'s error first, else `background`'s. With `jobs` 1 (`--jobs 1`: one git process
    /// at a time, in a fixed order) `foreground` runs first and `background` after it, on this thread.
    public static func alongside<Result>(
        jobs: Int = 2, _ background: @escaping @Sendable () throws -> Void, _ foreground: () throws -> Result
    ) throws -> Result {
        guard jobs > 1 else {
            let result = Swift.Result { try foreground() }
            let backgroundResult = Swift.Result { try background() }
            let value = try result.get()
            try backgroundResult.get()
            return value
        }
        let outcome = Locked<Swift.Result<Void, any Error>?>(nil)
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            let result = Swift.Result { try background() }
            outcome.withLock { $0 = result }
            done.signal()
        }
        let result: Swift.Result<Result, any Error> = Swift.Result { try foreground() }
        done.wait()
        let value = try result.get()
        try outcome.withLock { $0 }?.get()
        return value
    }

    /// Maps `items` in order, in contiguous chunks on up to `jobs` threads: CPU work on many small items (decoding
    /// 1000 tenant files, auditing 50,000 cells). Runs on the calling thread when there are too few items to be
    /// worth a thread.
    public static func chunkedMap<Item: Sendable, Result: Sendable>(
        _ items: [Item], jobs: Int = ProcessInfo.processInfo.activeProcessorCount, minimumChunk: Int = 32,
        _ body: @escaping @Sendable (Item) -> Result
    ) -> [Result] {
        let chunkCount = min(max(jobs, 1) * 4, items.count / max(minimumChunk, 1))
        guard chunkCount > 1, jobs > 1 else { return items.map(body) }
        let size = (items.count + chunkCount - 1) / chunkCount
        let ranges = stride(from: 0, to: items.count, by: size).map { $0..<min($0 + size, items.count) }
        let chunks = outcomes(ranges, jobs: jobs) { range in items[range].map(body) }
        var results: [Result] = []
        results.reserveCapacity(items.count)
        for (range, chunk) in zip(ranges, chunks) {
            switch chunk {
            case .success(let values): results += values
            // The body cannot throw and `outcomes` runs every item, so this does not happen; were a chunk ever
            // missing, it is made here rather than left out (a shorter result would misalign every caller).
            case .failure: results += items[range].map(body)
            }
        }
        return results
    }
}
