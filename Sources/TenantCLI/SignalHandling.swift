import Foundation
import TenantKit

/// SIGINT / SIGTERM, after SwiftPM's `Cancellator`:
///
/// 1. the signal thread cancels ``Cancellator/shared``: no new git process starts, every running one gets SIGTERM
///    (git removes its lock files), those still running after ``terminateWithin`` seconds get SIGKILL;
/// 2. the main thread, whose git calls now fail, unwinds for up to ``unwindWithin`` seconds, so `defer` cleanups
///    and journal updates run; a command that puts back what it changed (switch, in
///    ``Cancellator/puttingBack(_:)``, where git processes may start again) gets up to ``putBackWithin`` more;
/// 3. whichever comes first (the main thread returning, or that deadline) runs the registered cleanups (temporary
///    directories of work that did not unwind), reaps what is left, prints "interrupted" and exits 130.
enum SignalHandling {
    static let terminateWithin = 3.0
    static let killWithin = 2.0
    static let unwindWithin = 5.0
    static let putBackWithin = 20.0

    nonisolated(unsafe) private static var sources: [DispatchSourceSignal] = []
    private static let childrenStopped = DispatchSemaphore(value: 0)
    private static let mainReturned = DispatchSemaphore(value: 0)
    private static let exiting = Locked(false)
    private static let termination = Locked<Cancellator.Termination?>(nil)

    /// Installs the handlers (once, on the main thread, before any git process starts).
    static func install() {
        for signalNumber in [SIGINT, SIGTERM] {
            signal(signalNumber, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .global())
            source.setEventHandler { interrupted() }
            source.resume()
            sources.append(source)
        }
    }

    /// On the signal thread: stops the children, gives the main thread time to unwind, then exits.
    /// From now on SIGINT and SIGTERM are ignored (the command's work is done): a pager shows its report, and a
    /// Ctrl-C there is the pager's, as with git's pager.
    static func ignoreWhilePaging() {
        for source in sources { source.cancel() }
    }

    private static func interrupted() {
        // A second signal while the first is handled changes nothing: the deadlines bound the whole stop.
        guard
            let result = Cancellator.shared.cancel(terminateWithin: terminateWithin, killWithin: killWithin)
        else { return }
        termination.withLock { $0 = result }
        childrenStopped.signal()
        if mainReturned.wait(timeout: .now() + unwindWithin) == .success { return }
        // A command putting back what it changed (a switch) gets more time: its repositories are then where they
        // were when it started.
        let deadline = DispatchTime.now() + putBackWithin
        while Cancellator.shared.isPuttingBack && DispatchTime.now() < deadline {
            if mainReturned.wait(timeout: .now() + 0.05) == .success { return }
        }
        // Put back: the main thread records that in the journal, then returns.
        if mainReturned.wait(timeout: .now() + 1) == .success { return }
        exitInterrupted()
    }

    /// On the main thread once the command returned: when the run was interrupted, waits until the children are
    /// stopped and exits 130 (whatever status the command ended with).
    static func exitIfInterrupted() {
        guard Cancellator.shared.isCancelled else { return }
        mainReturned.signal()
        childrenStopped.wait()
        exitInterrupted()
    }

    private static func exitInterrupted() -> Never {
        let first = exiting.withLock { exiting in
            defer { exiting = true }
            return !exiting
        }
        // The other thread is already exiting.
        while !first { pause() }
        Cancellator.shared.runCleanups()
        Cancellator.shared.reapExited()
        var message = "tenantctl: interrupted"
        if let result = termination.current, !result.terminated.isEmpty {
            let count = result.terminated.count
            message += "; stopped \(English.count(count, "git process", "git processes"))"
            if !result.killed.isEmpty { message += " (\(result.killed.count) with SIGKILL)" }
        }
        if let note = InterruptNote.current { message += "; " + note }
        FileHandle.standardError.write(Data((message + "\n").utf8))
        exit(ExitStatus.interrupted.rawValue)
    }
}
