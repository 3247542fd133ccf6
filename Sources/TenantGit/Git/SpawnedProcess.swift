import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The file actions of a `posix_spawn` (an optional on Darwin).
#if canImport(Darwin)
    package typealias SpawnFileActions = posix_spawn_file_actions_t?
#else
    package typealias SpawnFileActions = posix_spawn_file_actions_t
#endif

/// A `posix_spawn` that failed: its error number.
package struct PosixSpawnFailure: Error {
    package var code: Int32
    /// `strerror` of the code.
    package var reason: String { String(cString: strerror(code)) }
}

/// `posix_spawn` of a child with exactly the environment given, default handlers for the signals given and an empty
/// signal mask; the caller adds its descriptors (file actions) and flags. Shared by tenantctl's git runner and the
/// test servers (TenantTestSupport's `TestDaemon`).
package enum PosixSpawn {
    /// Prepares the spawn of `executable` with `arguments` and calls `body` with the function that starts it (once);
    /// the file actions, attributes and C strings live until `body` returns.
    /// - Parameters:
    ///   - defaultSignals: the signals the child handles by default (this process may ignore them).
    ///   - flags: more `posix_spawnattr` flags besides `POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK`; with
    ///     `POSIX_SPAWN_SETPGROUP` the child leads a process group of its own.
    ///   - fileActions: sets up the child's descriptors.
    package static func prepared<Result>(
        _ executable: String, _ arguments: [String], environment: [String: String], defaultSignals: [Int32],
        flags: Int32, fileActions: (inout SpawnFileActions) -> Void,
        _ body: (() -> Swift.Result<pid_t, PosixSpawnFailure>) -> Result
    ) -> Result {
        #if canImport(Darwin)
            var actions: posix_spawn_file_actions_t?
            var attributes: posix_spawnattr_t?
        #else
            var actions = posix_spawn_file_actions_t()
            var attributes = posix_spawnattr_t()
        #endif
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        fileActions(&actions)
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        posix_spawnattr_setpgroup(&attributes, 0)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signalNumber in defaultSignals { sigaddset(&defaults, signalNumber) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        var empty = sigset_t()
        sigemptyset(&empty)
        posix_spawnattr_setsigmask(&attributes, &empty)
        posix_spawnattr_setflags(&attributes, Int16(Int32(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK) | flags))
        let argv = ([executable] + arguments).map { strdup($0) }
        let envp = environment.map { strdup("\($0.key)=\($0.value)") }
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        return body {
            var pid: pid_t = 0
            let result = (argv + [nil]).withUnsafeBufferPointer { argvBuffer -> Int32 in
                (envp + [nil]).withUnsafeBufferPointer { envpBuffer -> Int32 in
                    guard let argvBase = argvBuffer.baseAddress, let envpBase = envpBuffer.baseAddress else {
                        return EINVAL
                    }
                    return posix_spawn(&pid, executable, &actions, &attributes, argvBase, envpBase)
                }
            }
            return result == 0 ? .success(pid) : .failure(PosixSpawnFailure(code: result))
        }
    }
}

/// A started child process: its pid and the parent's ends of its three pipes.
///
/// Started with `posix_spawn` and reaped with a blocking `waitpid` (Foundation's `Process.waitUntilExit` polls a
/// run loop, which cost ~35 ms per git call). The child gets default handlers for SIGPIPE, SIGINT and SIGTERM
/// (this process ignores them) and an empty signal mask; every pipe end is close-on-exec in the parent.
/// The child is started and registered with a ``Cancellator`` under its lock, so an interrupt either refuses the
/// spawn or sees the child; it is reaped through the same cancellator.
struct SpawnedProcess {
    let pid: pid_t
    let cancellator: Cancellator
    let stdin: Int32
    let stdout: Int32
    let stderr: Int32

    /// Ignore SIGPIPE once: a child that exits early must give us EPIPE, not kill us.
    static let ignoreSigpipe: Void = { signal(SIGPIPE, SIG_IGN) }()

    static func pipePair() throws(SpawnError) -> (read: Int32, write: Int32) {
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else { throw SpawnError.failed("pipe: \(String(cString: strerror(errno)))") }
        // Close-on-exec in the parent: only the dup2'ed copies reach the child (a concurrent spawn in another
        // thread may inherit them for the instant between pipe and fcntl; its exec then closes them).
        _ = fcntl(fds[0], F_SETFD, FD_CLOEXEC)
        _ = fcntl(fds[1], F_SETFD, FD_CLOEXEC)
        return (fds[0], fds[1])
    }

    /// `POSIX_SPAWN_SETSID` (glibc 2.26+, macOS 10.15+), spelled out: Glibc's module hides it behind `_GNU_SOURCE`.
    #if canImport(Darwin)
        static let setSessionFlag: Int32 = 0x0400
    #else
        static let setSessionFlag: Int32 = 0x80
    #endif

    /// Starts a child. `newSession`: the child leads a session and process group of its own, without a controlling
    /// terminal (nothing it starts can prompt on the terminal), and is signalled as a group (network calls).
    static func spawn(
        executable: String, arguments: [String], environment: [String: String], cancellator: Cancellator,
        newSession: Bool = false
    ) throws(SpawnError) -> SpawnedProcess {
        _ = ignoreSigpipe
        let input = try pipePair()
        let output = try pipePair()
        let errors = try pipePair()
        defer {
            close(input.read)
            close(output.write)
            close(errors.write)
        }
        var flags = newSession ? setSessionFlag : 0
        #if canImport(Darwin)
            // Apple's extension: every descriptor not named in the file actions is closed in the child.
            flags |= Int32(POSIX_SPAWN_CLOEXEC_DEFAULT)
        #endif
        let started = PosixSpawn.prepared(
            executable, arguments, environment: environment, defaultSignals: [SIGPIPE, SIGINT, SIGTERM, SIGCHLD],
            flags: flags,
            fileActions: { actions in
                posix_spawn_file_actions_adddup2(&actions, input.read, 0)
                posix_spawn_file_actions_adddup2(&actions, output.write, 1)
                posix_spawn_file_actions_adddup2(&actions, errors.write, 2)
                closeInheritedDescriptors(&actions)
            }
        ) { spawn in
            cancellator.spawn(group: newSession) {
                spawn().mapError { SpawnError.failed("\(executable): \($0.reason)") }
            }
        }
        switch started {
        case .success(let pid):
            return SpawnedProcess(
                pid: pid, cancellator: cancellator, stdin: input.write, stdout: output.read, stderr: errors.read)
        case .failure(let error):
            close(input.write)
            close(output.read)
            close(errors.read)
            throw error
        }
    }

    #if canImport(Glibc)
        private typealias AddCloseFrom =
            @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32)
            -> Int32
        /// glibc 2.34+'s `posix_spawn_file_actions_addclosefrom_np`, looked up at run time (older glibc lacks it).
        private static let addCloseFrom: AddCloseFrom? = {
            guard let handle = dlopen(nil, RTLD_NOW),
                let symbol = dlsym(handle, "posix_spawn_file_actions_addclosefrom_np")
            else { return nil }
            return unsafeBitCast(symbol, to: AddCloseFrom.self)
        }()

        /// Only 0, 1 and 2 reach the child: a descriptor this process inherited without close-on-exec (a parent's
        /// pipe or socket) must not be held open by git, or by what git leaves running, after tenantctl exits.
        static func closeInheritedDescriptors(_ actions: inout posix_spawn_file_actions_t) {
            if let addCloseFrom {
                _ = addCloseFrom(&actions, 3)
                return
            }
            let open = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
            for descriptor in open.compactMap({ Int32($0) }) where descriptor > 2 {
                posix_spawn_file_actions_addclose(&actions, descriptor)
            }
        }
    #else
        static func closeInheritedDescriptors(_ actions: inout posix_spawn_file_actions_t?) {}
    #endif

    /// Waits for the child, reaps it and returns its exit status (negative: killed by that signal).
    func wait() -> Int32 {
        cancellator.reap(pid)
    }

    /// Reads a descriptor to its end, then closes it.
    static func readAll(_ descriptor: Int32) -> Data {
        var data = Data()
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = chunk.withUnsafeMutableBytes { systemRead(descriptor, $0.baseAddress, 65536) }
            if count > 0 {
                data.append(contentsOf: chunk[0..<count])
            } else if count < 0 && errno == EINTR {
                continue
            } else {
                break
            }
        }
        close(descriptor)
        return data
    }

    /// Writes all bytes (stops quietly at EPIPE: the child stopped reading; its status tells why).
    static func writeAll(_ data: Data, to descriptor: Int32) -> Bool {
        data.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let written = systemWrite(descriptor, raw.baseAddress?.advanced(by: offset), raw.count - offset)
                if written > 0 {
                    offset += written
                } else if written < 0 && errno == EINTR {
                    continue
                } else {
                    return false
                }
            }
            return true
        }
    }
}
