import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A second tenantctl run on a superproject that is already locked.
public struct LockError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The lock file.
    public var path: String
    /// The process holding the lock, when it could be read.
    public var holder: Int32?
    /// Why the lock could not be taken, when it is not another run.
    public var reason: String?

    public var description: String {
        if let reason { return "cannot lock \(path): \(reason)" }
        let who = holder.map { "process \($0)" } ?? "another process"
        return "another tenantctl run (\(who)) is working on this superproject (lock \(path)); "
            + "wait for it to finish, or run again with --wait"
    }
}

/// One tenantctl run per superproject: an advisory `flock` on `<common git dir>/tenantctl.lock` (shared by every
/// worktree of the superproject; callers pass ``Workspace/commonDirectory``).
///
/// The kernel releases the lock when the process ends, however it ends, so a killed run never leaves
/// a lock that blocks the next one. The file keeps the holder's PID for the message of a second run.
/// Sendable: the descriptor is only read or changed under its lock, so ``release()`` from any thread closes it once.
public final class WorkspaceLock: Sendable {
    /// The lock file.
    public let path: String
    private let descriptor: Locked<Int32>

    /// Takes the lock, failing fast (or waiting, with `wait`) when another run holds it.
    public init(gitDirectory: String, wait: Bool = false) throws(LockError) {
        let path = (gitDirectory as NSString).appendingPathComponent("tenantctl.lock")
        self.path = path
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw LockError(path: path, holder: nil, reason: String(cString: strerror(errno)))
        }
        if flock(descriptor, LOCK_EX | (wait ? 0 : LOCK_NB)) != 0 {
            let code = errno
            var buffer = [UInt8](repeating: 0, count: 32)
            let count = buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, 31, 0) }
            closeDescriptor(descriptor)
            if code == EWOULDBLOCK {
                let text = count > 0 ? String(decoding: buffer[0..<count], as: UTF8.self) : ""
                throw LockError(
                    path: path, holder: Int32(text.trimmingCharacters(in: .whitespacesAndNewlines)), reason: nil)
            }
            throw LockError(path: path, holder: nil, reason: String(cString: strerror(code)))
        }
        let pid = Array("\(getpid())\n".utf8)
        _ = ftruncate(descriptor, 0)
        _ = pid.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, pid.count, 0) }
        self.descriptor = Locked(descriptor)
    }

    /// Releases the lock (also released when the process ends).
    public func release() {
        descriptor.withLock { descriptor in
            guard descriptor >= 0 else { return }
            _ = ftruncate(descriptor, 0)
            flock(descriptor, LOCK_UN)
            closeDescriptor(descriptor)
            descriptor = -1
        }
    }

    deinit { release() }
}

private func closeDescriptor(_ descriptor: Int32) {
    _ = close(descriptor)
}
