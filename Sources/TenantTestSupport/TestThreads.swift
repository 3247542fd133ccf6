import Foundation
import Testing

/// Threads of the test process's own for the slow suites' tests, beside Swift's cooperative pool.
///
/// Swift Testing runs every test as a task on Swift's cooperative pool, which has one thread per core. The tests are
/// synchronous: a test holds its thread while it waits for a git or tenantctl process, a lock another test holds
/// (a template being built, ``DirectoryTemplates``), a server or a timeout, and on a two-core machine two such waits
/// leave the cores idle. The slow suites' tests (``SlowSuiteTrait``, `.notInTheFastSet`) therefore run on these
/// threads instead: ``width`` of them run tests at a time, and a thread that waits for another test's template lends
/// its place to another thread meanwhile (``whileWaiting(_:)``), so a sweep's cases waiting for the first case's
/// reference run do not hold the places the other tests could use.
///
/// `TENANTCTL_TEST_THREADS=N` sets the width (`0`: run the slow suites on the cooperative pool, as before).
public final class TestThreads: TaskExecutor, @unchecked Sendable {
    /// The threads of this test process.
    public static let shared = TestThreads(width: defaultWidth)

    /// The number of slow tests that run at a time: `TENANTCTL_TEST_THREADS`, else twice the active cores (at least
    /// two).
    public static let defaultWidth: Int = {
        if let text = ProcessInfo.processInfo.environment["TENANTCTL_TEST_THREADS"], let value = Int(text), value >= 0 {
            return value
        }
        return max(2, 2 * ProcessInfo.processInfo.activeProcessorCount)
    }()

    /// How many jobs run at a time (a waiting thread does not count).
    public let width: Int

    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []
    private var next = 0
    private var running = 0
    private var idle = 0
    private var threads = 0

    /// Marks the threads of this pool (the value is the pool's identity).
    private static let key = ThreadKey()

    init(width: Int) {
        self.width = width
    }

    public func enqueue(_ job: consuming ExecutorJob) {
        let unowned = UnownedJob(job)
        condition.lock()
        jobs.append(unowned)
        startThreadIfNeeded()
        condition.signal()
        condition.unlock()
    }

    /// Starts a thread when jobs wait, a place is free and no thread is idle. Called with the lock held.
    private func startThreadIfNeeded() {
        guard idle == 0, running < width, jobs.count > next else { return }
        threads += 1
        let thread = Thread { [self] in work() }
        thread.name = "test thread \(threads)"
        thread.stackSize = 8 << 20
        thread.start()
        // The new thread counts as idle until it takes a job, so that the next enqueue does not start another.
        idle += 1
    }

    private func work() {
        Self.key.set(self)
        condition.lock()
        while true {
            while jobs.count == next || running >= width { condition.wait() }
            idle -= 1
            running += 1
            let job = jobs[next]
            next += 1
            if next > 1024 && next * 2 > jobs.count {
                jobs.removeFirst(next)
                next = 0
            }
            condition.unlock()
            job.runSynchronously(on: asUnownedTaskExecutor())
            condition.lock()
            running -= 1
            idle += 1
            condition.signal()
        }
    }

    /// Runs `wait` (a call that blocks until another test is done with something, such as a template's lock). On a
    /// thread of this pool, its place goes to another thread meanwhile, so that the other tests go on.
    public static func whileWaiting<Result>(_ wait: () throws -> Result) rethrows -> Result {
        guard let pool = key.get() else { return try wait() }
        pool.condition.lock()
        pool.running -= 1
        pool.startThreadIfNeeded()
        pool.condition.signal()
        pool.condition.unlock()
        defer {
            pool.condition.lock()
            pool.running += 1
            pool.condition.unlock()
        }
        return try wait()
    }
}

/// The pool of the current thread, as thread-specific data.
private final class ThreadKey: @unchecked Sendable {
    private var key = pthread_key_t()

    init() { pthread_key_create(&key, nil) }

    func set(_ pool: TestThreads) { pthread_setspecific(key, Unmanaged.passUnretained(pool).toOpaque()) }

    func get() -> TestThreads? {
        guard let pointer = pthread_getspecific(key) else { return nil }
        return Unmanaged<TestThreads>.fromOpaque(pointer).takeUnretainedValue()
    }
}
