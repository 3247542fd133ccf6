import Foundation

/// Where text goes: a terminal, a file, or a buffer in tests.
public protocol OutputSink: Sendable {
    /// Writes text as is.
    func write(_ text: String)
    /// Writes UTF-8 bytes as they are (a large report without a String copy).
    func write(bytes: [UInt8])
}

extension OutputSink {
    public func write(bytes: [UInt8]) { write(String(decoding: bytes, as: UTF8.self)) }
}
