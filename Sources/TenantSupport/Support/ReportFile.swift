import Foundation

/// Why a report could not be written to its file.
public struct ReportFileError: Error, Sendable, CustomStringConvertible {
    /// The message for the user.
    public var description: String
}

/// Writes a report to a file given on the command line (`audit -o audit.html`).
public enum ReportFile {
    /// Writes `text` to `path` (relative to `directory`) through a temporary file in the same directory and one
    /// `rename`, so a reader (a browser, a CI upload) sees the old file or the whole new one, never a part.
    /// Returns the absolute path written.
    @discardableResult
    public static func write(_ text: String, to path: String, relativeTo directory: String) throws -> String {
        try write(parts: { sink in sink(Array(text.utf8)) }, to: path, relativeTo: directory)
    }

    /// ``write(_:to:relativeTo:)`` for a report written in parts (a large one never whole in memory): `parts` hands
    /// each part, in order, to the function it is given, which appends it to the temporary file. After a part that
    /// cannot be written the rest are not, and the error is thrown once `parts` returns.
    @discardableResult
    public static func write(
        parts: (_ sink: ([UInt8]) -> Void) -> Void, to path: String, relativeTo directory: String
    ) throws -> String {
        let target = URL(fileURLWithPath: path, relativeTo: URL(fileURLWithPath: directory, isDirectory: true))
            .standardizedFileURL.path
        let folder = (target as NSString).deletingLastPathComponent
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw ReportFileError(description: "cannot write \(target): the directory \(folder) does not exist")
        }
        let temporary = folder + "/." + (target as NSString).lastPathComponent + ".\(getpid()).tmp"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw ReportFileError(description: "cannot write \(temporary): \(String(cString: strerror(errno)))")
        }
        var failure: String?
        parts { bytes in
            guard failure == nil else { return }
            var written = 0
            while written < bytes.count {
                let count = bytes.withUnsafeBytes { buffer in
                    systemWrite(descriptor, buffer.baseAddress.map { $0 + written }, bytes.count - written)
                }
                guard count > 0 else {
                    failure = String(cString: strerror(errno))
                    return
                }
                written += count
            }
        }
        close(descriptor)
        if let failure {
            unlink(temporary)
            throw ReportFileError(description: "cannot write \(temporary): \(failure)")
        }
        guard rename(temporary, target) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            throw ReportFileError(description: "cannot move the report into place at \(target): \(reason)")
        }
        return target
    }
}
