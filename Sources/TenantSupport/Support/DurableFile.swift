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

    package init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }
}

/// Writes tenantctl's own state files (the run journals, the resolve state): a temporary file beside the target,
/// written and flushed to the disk, renamed over the target, then the directory flushed too, so that after a crash
/// or a power loss the file is the previous one or the whole new one, and the rename itself is not lost. A failure
/// at any step (a full disk, a read-only file system) removes the temporary file and leaves the previous file, or
/// none, as it was.
///
/// Flushing: on Darwin `fsync` only hands the data to the drive, whose cache may still lose it; `F_FULLFSYNC` asks
/// the drive to write it through (``syncFile(_:)``, falling back to `fsync` where the file system does not support
/// it). A directory is flushed by `fsync` of a descriptor opened on it (``syncDirectory(_:)``), on every platform.
public enum DurableFile {
    /// Writes `data` to `path`, creating its directory when missing.
    public static func write(_ data: Data, to path: String) throws(DurableFileError) {
        try write(data, to: path, syncDirectory: syncDirectory)
    }

    /// ``write(_:to:)`` with the directory flush given (tests record that it is called after the rename).
    static func write(
        _ data: Data, to path: String, syncDirectory: (String) -> Int32
    ) throws(DurableFileError) {
        let parent = (path as NSString).deletingLastPathComponent
        let directory = parent.isEmpty ? "." : parent
        if !FileManager.default.fileExists(atPath: directory) {
            do {
                try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            } catch {
                throw DurableFileError(path: path, reason: reason(error))
            }
            // The new directory's own name must survive a crash too.
            let above = (directory as NSString).deletingLastPathComponent
            guard syncDirectory(above.isEmpty ? "." : above) == 0 else {
                throw DurableFileError(
                    path: path,
                    reason: "cannot flush the directory \(above) to the disk: \(String(cString: strerror(errno)))")
            }
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
                systemWrite(descriptor, buffer.baseAddress.map { $0 + written }, data.count - written)
            }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { throw fail() }
            written += count
        }
        guard syncFile(descriptor) == 0 else { throw fail() }
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
        // The new file is in place; what is left is making its name survive a crash. A failure here is reported
        // (the caller must not go on as if the state were safe), the file stays: it is the new one.
        guard syncDirectory(directory) == 0 else {
            throw DurableFileError(
                path: path, reason: "cannot flush its directory to the disk: \(String(cString: strerror(errno)))")
        }
    }

    /// Flushes an open file's data to the disk: `F_FULLFSYNC` on Darwin (through the drive's cache), `fsync` where
    /// that is not supported and on other systems. 0 on success, else -1 with `errno` set.
    package static func syncFile(_ descriptor: Int32) -> Int32 {
        #if canImport(Darwin)
            if fcntl(descriptor, F_FULLFSYNC) == 0 { return 0 }
        #endif
        while true {
            let result = fsync(descriptor)
            if result == 0 || errno != EINTR { return result }
        }
    }

    /// Flushes a directory's entries (a rename into it) to the disk. 0 on success, else -1 with `errno` set. A file
    /// system that cannot flush a directory (`EINVAL`, `ENOTSUP`: some network and FUSE file systems) counts as
    /// flushed: there is nothing more to do there, and refusing would stop every writing command on it.
    static func syncDirectory(_ directory: String) -> Int32 {
        let descriptor = open(directory, O_RDONLY | O_CLOEXEC | O_DIRECTORY)
        guard descriptor >= 0 else { return -1 }
        defer { close(descriptor) }
        let result = syncFile(descriptor)
        if result != 0 && (errno == EINVAL || errno == ENOTSUP || errno == EOPNOTSUPP) { return 0 }
        return result
    }

    /// A file-system error in a few words.
    package static func reason(_ error: Error) -> String {
        let nsError = error as NSError
        if let underlying = nsError.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain
        {
            return String(cString: strerror(Int32(underlying.code)))
        }
        if nsError.domain == NSPOSIXErrorDomain { return String(cString: strerror(Int32(nsError.code))) }
        return nsError.localizedDescription
    }
}
