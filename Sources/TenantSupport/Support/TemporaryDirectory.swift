import Foundation

/// A temporary directory, removed when the work that needs it is done.
public final class TemporaryDirectory: Sendable {
    /// The directory.
    public let url: URL
    /// Removes the directory when the run is interrupted before ``remove()``.
    private let interrupted: Cancellator.Registration

    /// Creates `$TMPDIR/<prefix><uuid>`.
    public init(prefix: String) throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent(
            prefix + UUID().uuidString, isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        interrupted = Cancellator.shared.register(temporaryDirectory: url)
    }

    /// Removes the directory and everything in it (best effort: a temporary directory left behind loses nothing).
    public func remove() {
        _ = try? FileManager.default.removeItem(at: url)
        interrupted.release()
    }
}
