import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The child processes this tool has started and not yet reaped, the cleanups to run when it is interrupted, and
/// the interrupt itself (after SwiftPM's `Cancellator`).
///
/// A child is started and registered under one lock (``spawn(_:)``), and reaped and unregistered under it
/// (``reap(_:)``), so ``cancel(terminateWithin:killWithin:)`` sees every child that exists and never signals a
/// process id that was already reaped (and possibly reused). Once cancelled, no new child starts.
public final class Cancellator: Sendable {
    /// The process-wide registry every git process registers with.
    public static let shared = Cancellator()

    /// A registered cleanup; ``release()`` unregisters it.
    public struct Registration: Sendable {
        fileprivate let token: Int
        fileprivate let cancellator: Cancellator

        /// Unregisters the cleanup without running it.
        public func release() { cancellator.state.withLock { _ = $0.cleanups.removeValue(forKey: token) } }
    }

    /// What ``cancel(terminateWithin:killWithin:)`` did.
    public struct Termination: Sendable, Equatable {
        /// Children that were running and got SIGTERM.
        public var terminated: [Int32]
        /// Children still running at the deadline, which got SIGKILL.
        public var killed: [Int32]
        /// Children still running after SIGKILL and its own deadline (stuck in the kernel).
        public var survivors: [Int32]
    }

    private struct State {
        var cancelled = false
        /// Children may start although cancelled: the command puts back what it changed before it exits.
        var puttingBack = false
        var children: Set<pid_t> = []
        /// Children that lead their own session and process group (network calls): signalled as a group, so the
        /// helpers git starts (`git-remote-http`, `ssh`) stop with them.
        var groups: Set<pid_t> = []
        var cleanups: [Int: @Sendable () -> Void] = [:]
        var nextToken = 0
    }

    private let state = Locked(State())

    /// A fresh registry (tests use their own; the tool uses ``shared``).
    public init() {}

    /// Whether ``cancel(terminateWithin:killWithin:)`` was called.
    public var isCancelled: Bool { state.withLock { $0.cancelled } }

    /// Whether ``puttingBack(_:)`` is under way: the interrupted command is putting back what it changed.
    public var isPuttingBack: Bool { state.withLock { $0.puttingBack } }

    /// Runs `body`, in which children may start even once cancelled: an interrupted command puts back what it had
    /// changed (a switch's repositories) before it exits. Children started in it are stopped like any other by a
    /// cancel that comes later.
    @discardableResult
    public func puttingBack<Result>(_ body: () throws -> Result) rethrows -> Result {
        state.withLock { $0.puttingBack = true }
        defer { state.withLock { $0.puttingBack = false } }
        return try body()
    }

    /// The number of children started and not yet reaped.
    public var runningChildren: Int { state.withLock { $0.children.count } }

    /// Starts a child with `start` while holding the lock and registers the pid it returns. Refuses (without
    /// calling `start`) once cancelled.
    package func spawn(group: Bool = false, _ start: () -> Result<pid_t, SpawnError>) -> Result<pid_t, SpawnError> {
        state.withLock { state in
            guard !state.cancelled || state.puttingBack else { return .failure(.cancelled) }
            let result = start()
            if case .success(let pid) = result {
                state.children.insert(pid)
                if group { state.groups.insert(pid) }
            }
            return result
        }
    }

    /// Sends `signal` to a registered child that has not been reaped (to its whole process group when it leads
    /// one); false when the child is no longer registered (already reaped: its pid may belong to another process).
    @discardableResult
    package func signal(_ pid: pid_t, _ signal: Int32) -> Bool {
        state.withLock { state in
            guard state.children.contains(pid) else { return false }
            kill(state.groups.contains(pid) ? -pid : pid, signal)
            return true
        }
    }

    /// Waits for a registered child to exit, then reaps and unregisters it; returns its exit status (negative: the
    /// signal that killed it).
    package func reap(_ pid: pid_t) -> Int32 {
        while true {
            // Wait without reaping, so the pid stays valid (a zombie) while the registry still lists it.
            var info = siginfo_t()
            while waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT) < 0 && errno == EINTR {}
            let reaped = state.withLock { state -> Int32? in
                var status: Int32 = 0
                var result = waitpid(pid, &status, WNOHANG)
                while result < 0 && errno == EINTR { result = waitpid(pid, &status, WNOHANG) }
                // Not exited after all: Darwin's waitid also returns for a child that was stopped (SIGSTOP,
                // SIGTSTP), WEXITED notwithstanding. Wait on.
                if result == 0 { return nil }
                state.children.remove(pid)
                state.groups.remove(pid)
                guard result == pid else { return -SIGKILL }
                let signal = status & 0x7f
                return signal == 0 ? (status >> 8) & 0xff : -signal
            }
            if let reaped { return reaped }
            usleep(10_000)
        }
    }

    /// Whether a child has exited (it may not be reaped yet). Call with the lock held.
    private static func hasExited(_ pid: pid_t) -> Bool {
        var info = siginfo_t()
        let result = waitid(P_PID, id_t(pid), &info, WEXITED | WNOHANG | WNOWAIT)
        // ECHILD: not our child any more (reaped); a zero si_signo with WNOHANG: still running. Darwin also reports a
        // stopped child here: only an exit or a death by a signal counts.
        guard result == 0 else { return errno == ECHILD }
        return info.si_signo != 0 && exitCodes.contains(info.si_code)
    }

    /// The `si_code`s of a child that has ended: exited, killed, killed with a core dump.
    private static let exitCodes: Set<Int32> = [Int32(CLD_EXITED), Int32(CLD_KILLED), Int32(CLD_DUMPED)]

    /// The registered children that have not exited.
    private func running() -> Set<pid_t> {
        state.withLock { state in state.children.filter { !Self.hasExited($0) } }
    }

    /// Waits until every child in `pids` has exited or the deadline passes; returns those still running.
    private func waitForExit(of pids: Set<pid_t>, within seconds: Double) -> Set<pid_t> {
        let deadline = DispatchTime.now() + seconds
        var left = pids.intersection(running())
        while !left.isEmpty && DispatchTime.now() < deadline {
            usleep(10_000)
            left = left.intersection(running())
        }
        return left
    }

    /// Cancels: refuses every new child from now on, sends SIGTERM to every running child (git removes its lock
    /// files on SIGTERM), waits up to `terminateWithin` seconds for them to exit, sends SIGKILL to the rest and
    /// waits up to `killWithin` seconds for those. The children's owners reap them (their waits return now).
    /// Returns nil when another call already cancelled.
    @discardableResult
    public func cancel(terminateWithin: Double = 3, killWithin: Double = 2) -> Termination? {
        let terminated: Set<pid_t>? = state.withLock { state in
            guard !state.cancelled else { return nil }
            state.cancelled = true
            let running = state.children.filter { !Self.hasExited($0) }
            for pid in running { kill(state.groups.contains(pid) ? -pid : pid, SIGTERM) }
            return running
        }
        guard let terminated else { return nil }
        let stubborn = waitForExit(of: terminated, within: terminateWithin)
        let killed: Set<pid_t> = state.withLock { state in
            let alive = stubborn.filter { state.children.contains($0) && !Self.hasExited($0) }
            for pid in alive { kill(state.groups.contains(pid) ? -pid : pid, SIGKILL) }
            return alive
        }
        let survivors = waitForExit(of: killed, within: killWithin)
        return Termination(terminated: terminated.sorted(), killed: killed.sorted(), survivors: survivors.sorted())
    }

    /// Reaps children that have exited but whose owners did not reap them (the process is about to exit).
    public func reapExited() {
        state.withLock { state in
            for pid in state.children where Self.hasExited(pid) {
                var status: Int32 = 0
                if waitpid(pid, &status, WNOHANG) == pid {
                    state.children.remove(pid)
                    state.groups.remove(pid)
                }
            }
        }
    }

    /// Registers a cleanup to run when the process is interrupted before the work that registered it unwinds.
    public func register(cleanup: @escaping @Sendable () -> Void) -> Registration {
        state.withLock { state in
            let token = state.nextToken
            state.nextToken += 1
            state.cleanups[token] = cleanup
            return Registration(token: token, cancellator: self)
        }
    }

    /// Registers a temporary directory: removed by ``runCleanups()`` unless released first.
    public func register(temporaryDirectory: URL) -> Registration {
        register { try? FileManager.default.removeItem(at: temporaryDirectory) }
    }

    /// Runs (and unregisters) every registered cleanup; returns how many ran.
    @discardableResult
    public func runCleanups() -> Int {
        let cleanups = state.withLock { state in
            defer { state.cleanups = [:] }
            return state.cleanups.sorted { $0.key < $1.key }.map(\.value)
        }
        for cleanup in cleanups { cleanup() }
        return cleanups.count
    }
}
