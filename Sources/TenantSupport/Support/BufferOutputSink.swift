import Foundation

/// Collects output in memory (tests, the demo).
public final class BufferOutputSink: OutputSink, Sendable {
    private let buffer = Locked("")

    public init() {}

    public func write(_ text: String) { buffer.withLock { $0 += text } }

    /// Everything written so far.
    public var text: String { buffer.current }
}
