import Foundation

/// An output sink that remembers whether anything was written through it.
public final class WatchedOutputSink: OutputSink, Sendable {
    private let sink: any OutputSink
    private let written = Locked(false)

    public init(_ sink: any OutputSink) { self.sink = sink }

    public func write(_ text: String) {
        written.withLock { $0 = $0 || !text.isEmpty }
        sink.write(text)
    }

    public func write(bytes: [UInt8]) {
        written.withLock { $0 = $0 || !bytes.isEmpty }
        sink.write(bytes: bytes)
    }

    /// Whether anything was written.
    public var wroteSomething: Bool { written.current }
}
