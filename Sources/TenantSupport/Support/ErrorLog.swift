import Foundation

/// The errors a command printed, as written (not escaped: JSON escapes them itself).
public final class ErrorLog: Sendable {
    private let lines = Locked<[String]>([])

    public init() {}

    /// Keeps `line`.
    public func append(_ line: String) { lines.withLock { $0.append(line) } }

    /// Every error so far, oldest first.
    public var all: [String] { lines.current }
}
