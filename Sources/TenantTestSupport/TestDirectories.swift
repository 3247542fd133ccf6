import Foundation

/// Where the tests' sandboxes, templates and servers keep their files.
///
/// `TMPDIR` when it is set. Otherwise, on Linux, `/dev/shm` when it is a RAM file system (tmpfs) with at least
/// ``ramDiskMinimum`` free: the suite makes hundreds of thousands of small files (every test copies repositories, git
/// writes objects and refs, tenantctl flushes each journal step to the disk), and on a disk the kernel's file system
/// work and the flushes' waits were a large part of the suite's time. Nothing a test checks depends on the disk
/// (the disk-full tests mount a small tmpfs of their own). Set `TMPDIR` to run on the disk, or where `/dev/shm` is
/// too small (a container's default is 64 MB); elsewhere (macOS) the temporary directory, as before.
public enum TestDirectories {
    /// The directory below which tests make theirs, ending in `/`.
    public static let base: String = {
        if ProcessInfo.processInfo.environment["TMPDIR"] == nil, let ramDisk = ramDisk() { return ramDisk }
        return NSTemporaryDirectory()
    }()

    /// The free space `/dev/shm` must have to be used (4 GiB).
    public static let ramDiskMinimum: UInt64 = 4 << 30

    /// `/dev/shm/` when it is a tmpfs this process can write with at least ``ramDiskMinimum`` free.
    static func ramDisk() -> String? {
        #if os(Linux)
            let path = "/dev/shm"
            // /proc/mounts: "<device> <mount point> <type> <options> 0 0", one mount a line.
            guard let mounts = try? String(contentsOfFile: "/proc/mounts", encoding: .utf8),
                mounts.split(separator: "\n").contains(where: { line in
                    let fields = line.split(separator: " ")
                    return fields.count > 2 && fields[1] == path && fields[2] == "tmpfs"
                }),
                access(path, W_OK | X_OK) == 0,
                let attributes = try? FileManager.default.attributesOfFileSystem(forPath: path),
                let free = (attributes[.systemFreeSize] as? NSNumber)?.uint64Value
            else { return nil }
            return free >= ramDiskMinimum ? path + "/" : nil
        #else
            return nil
        #endif
    }
}
