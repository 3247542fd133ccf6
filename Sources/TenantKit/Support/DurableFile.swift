import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Why a state file could not be written: the file and the system's reason in a few words (`No space left on
/// device`), never Foundation's whole error dump.
public struct DurableFileError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file that was to be written.
    public var path: String
    /// The system's reason.
    public var reason: String

    public var description: String { "cannot write \(path): \(reason)" }
}

/// Writes tenantctl's own state files (the roll journal, the resolve state): a temporary file beside the target,
/// written and fsynced, then renamed over it. A failure at any step (a full disk, a read-only file system) removes
/// the temporary file and leaves the previous file, or none, as it was.
public enum DurableFile {
    /// Writes `data` to `path`, creating its directory when missing.
    public static func write(_ data: Data, to path: String) throws(DurableFileError) {
        let directory = (path as NSString).deletingLastPathComponent
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            throw DurableFileError(path: path, reason: reason(error))
        }
        let temporary = path + ".tmp"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw DurableFileError(path: path, reason: String(cString: strerror(errno)))
        }
        func fail() -> DurableFileError {
            let error = DurableFileError(path: path, reason: String(cString: strerror(errno)))
            close(descriptor)
            unlink(temporary)
            return error
        }
        var written = 0
        while written < data.count {
            let count = data.withUnsafeBytes { buffer in
                Foundation.write(descriptor, buffer.baseAddress.map { $0 + written }, data.count - written)
            }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { throw fail() }
            written += count
        }
        guard fsync(descriptor) == 0 else { throw fail() }
        guard close(descriptor) == 0 else {
            let error = DurableFileError(path: path, reason: String(cString: strerror(errno)))
            unlink(temporary)
            throw error
        }
        guard rename(temporary, path) == 0 else {
            let error = DurableFileError(path: path, reason: String(cString: strerror(errno)))
            unlink(temporary)
            throw error
        }
    }

    /// A file-system error in a few words.
    static func reason(_ error: Error) -> String {
        let nsError = error as NSError
        if let underlying = nsError.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain
        {
            return String(cString: strerror(Int32(underlying.code)))
        }
        if nsError.domain == NSPOSIXErrorDomain { return String(cString: strerror(Int32(nsError.code))) }
        return nsError.localizedDescription
    }
}
