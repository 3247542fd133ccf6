import Foundation
import TenantKit
import Testing

/// `Concurrent.alongside`: the mirrors' bookkeeping runs while the superproject's push runs.
@Suite struct ConcurrentAlongsideTests {
    struct Failure: Error, Equatable { var name: String }

    @Test func bothRunAtTheSameTimeAndBothFinishBeforeItReturns() throws {
        let started = DispatchSemaphore(value: 0)
        let finished = Locked(false)
        let value = try Concurrent.alongside({
            started.signal()
            Thread.sleep(forTimeInterval: 0.05)
            finished.withLock { $0 = true }
        }) { () -> Int in
            // The foreground waits for the background to have started: they overlap.
            #expect(started.wait(timeout: .now() + 10) == .success)
            return 7
        }
        #expect(value == 7)
        #expect(finished.withLock { $0 })
    }

    @Test func theForegroundErrorComesFirstThenTheBackgroundError() {
        #expect(throws: Failure(name: "foreground")) {
            try Concurrent.alongside({ throw Failure(name: "background") }) { throw Failure(name: "foreground") }
        }
        #expect(throws: Failure(name: "background")) {
            try Concurrent.alongside({ throw Failure(name: "background") }) { 1 }
        }
        // Positive control: no error when neither fails.
        #expect(throws: Never.self) { try Concurrent.alongside({}) { 1 } }
    }

    @Test func withOneJobTheForegroundRunsFirstThenTheBackground() {
        let order = Locked<[String]>([])
        let value = try? Concurrent.alongside(jobs: 1, { order.withLock { $0.append("background") } }) { () -> Int in
            Thread.sleep(forTimeInterval: 0.05)  // time for a background thread to overtake, were there one
            order.withLock { $0.append("foreground") }
            return 7
        }
        #expect(value == 7)
        #expect(order.current == ["foreground", "background"])
        // Errors as with two jobs: the foreground's first, and the background still runs.
        let ran = Locked(false)
        #expect(throws: Failure(name: "foreground")) {
            try Concurrent.alongside(
                jobs: 1,
                {
                    ran.withLock { $0 = true }
                    throw Failure(name: "background")
                }
            ) { throw Failure(name: "foreground") }
        }
        #expect(ran.current)
        #expect(throws: Failure(name: "background")) {
            try Concurrent.alongside(jobs: 1, { throw Failure(name: "background") }) { 1 }
        }
    }
}
