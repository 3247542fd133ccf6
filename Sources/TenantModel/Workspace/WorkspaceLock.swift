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
    /// The seconds a read-only command waited before giving up (nil: it did not wait).
    public var waited: Int? = nil

    public init(path: String, holder: Int32?, reason: String?, waited: Int? = nil) {
        self.path = path
        self.holder = holder
        self.reason = reason
        self.waited = waited
    }

    public var description: String {
        if let reason { return "cannot lock \(path): \(reason)" }
        let who = holder.map { "process \($0)" } ?? "another process"
        if let waited {
            return "another tenantctl run (\(who)) is still working on this superproject after \(waited) s "
                + "(lock \(path)); run again with --wait to wait until it finishes"
        }
        return "another tenantctl run (\(who)) is working on this superproject (lock \(path)); "
            + "wait for it to finish, or run again with --wait"
    }
}

/// How long a run waits for the workspace lock.
public enum LockWait: Sendable, Equatable {
    /// Not at all: another run holding it is an error (the writing commands without `--wait`).
    case no
    /// Until the other run ends (`--wait`).
    case forever
    /// Up to `seconds`, saying so on stderr once it starts waiting (the read-only commands' fetch: two fetches into
    /// tenantctl's refs and mirrors must not run at once, but a second `audit` should not fail because of the first).
    case upTo(seconds: Double)

    /// How long the read-only commands (audit, verify, compose) wait without `--wait`.
    public static let readOnlySeconds: Double = 120

    /// A read-only command's wait: without limit with `--wait`, else ``readOnlySeconds``.
    public static func readOnly(wait: Bool) -> LockWait { wait ? .forever : .upTo(seconds: readOnlySeconds) }
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
    public convenience init(gitDirectory: String, wait: Bool = false) throws(LockError) {
        try self.init(gitDirectory: gitDirectory, waiting: wait ? .forever : .no)
    }

    /// Takes the lock, waiting for another run that holds it as `waiting` says; a bounded wait says on `console`
    /// that it waits, and for whom.
    public init(gitDirectory: String, waiting: LockWait, console: Console? = nil) throws(LockError) {
        let path = (gitDirectory as NSString).appendingPathComponent("tenantctl.lock")
        self.path = path
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw LockError(path: path, holder: nil, reason: String(cString: strerror(errno)))
        }
        func holder() -> Int32? {
            var buffer = [UInt8](repeating: 0, count: 32)
            let count = buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, 31, 0) }
            let text = count > 0 ? String(decoding: buffer[0..<count], as: UTF8.self) : ""
            return Int32(text.trimmingCharacters(in: .whitespacesAndNewlines))
        }
        var waited: Int? = nil
        var code: Int32 = flock(descriptor, LOCK_EX | (waiting == .forever ? 0 : LOCK_NB)) == 0 ? 0 : errno
        if code == EWOULDBLOCK, case .upTo(let seconds) = waiting {
            let who = holder().map { "process \($0)" } ?? "another process"
            console?.progress(
                "waiting for another tenantctl run (\(who)) on this superproject to finish (up to \(Int(seconds)) s; "
                    + "--wait waits as long as it takes)")
            let deadline = Date().addingTimeInterval(seconds)
            repeat {
                usleep(100_000)
                code = flock(descriptor, LOCK_EX | LOCK_NB) == 0 ? 0 : errno
            } while code == EWOULDBLOCK && Date() < deadline && !Cancellator.shared.isCancelled
            waited = Int(seconds)
        }
        if code != 0 {
            let pid = holder()
            closeDescriptor(descriptor)
            if Cancellator.shared.isCancelled {
                throw LockError(path: path, holder: pid, reason: "interrupted while waiting for the lock")
            }
            if code == EWOULDBLOCK { throw LockError(path: path, holder: pid, reason: nil, waited: waited) }
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
