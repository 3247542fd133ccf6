import Foundation

/// The module's one lock box: a value that is only ever read or changed while holding its lock.
///
/// It is `Sendable` exactly when the value is: every access goes through ``withLock(_:)``, so no two threads see
/// the value at the same time.
public final class Locked<Value> {
    private let lock = NSLock()
    private var value: Value

    /// A box holding `value`.
    public init(_ value: Value) { self.value = value }

    /// Runs `body` with exclusive access to the value.
    public func withLock<Result, Failure: Error>(_ body: (inout Value) throws(Failure) -> Result) throws(Failure)
        -> Result
    {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}

extension Locked where Value: Sendable {
    /// A copy of the value.
    public var current: Value { withLock { $0 } }
}

extension Locked: @unchecked Sendable where Value: Sendable {}
