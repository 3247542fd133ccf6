import Foundation
import TenantKit
import TenantTestSupport
import Testing

/// The cancellator behind SIGINT/SIGTERM: children terminated with a deadline, SIGKILL for those that ignore
/// SIGTERM, no child started once cancelled, cleanups run once. Every test uses its own ``Cancellator`` (cancelling
/// the process-wide one would stop every other test's git).
@Suite struct CancellatorTests {
    /// A child run to completion on a background thread, and the file it creates once its signal setup is done.
    final class Child: Sendable {
        let ready: String
        private let result = Locked<Result<GitOutput, ExternalProgram.NotStarted>?>(nil)
        private let done = DispatchSemaphore(value: 0)

        init(_ sandbox: GitSandbox, script: String, cancellator: Cancellator) {
            ready = sandbox.path("ready-\(UUID().uuidString)")
            let arguments = ["-c", script, "child", ready]
            let environment = sandbox.environment
            let result = self.result
            let done = self.done
            Thread.detachNewThread {
                let outcome = Result { () throws(ExternalProgram.NotStarted) -> GitOutput in
                    try ExternalProgram.run(
                        executable: "/bin/sh", arguments: arguments, environment: environment, input: nil,
                        cancellator: cancellator)
                }
                result.withLock { $0 = outcome }
                done.signal()
            }
        }

        /// Waits until the child's script has run up to its `touch "$1"` (its traps are set).
        func waitUntilReady() throws {
            for _ in 0..<3000 where !FileManager.default.fileExists(atPath: ready) { usleep(10_000) }
            try #require(FileManager.default.fileExists(atPath: ready), "the child never started")
        }

        /// Whether the child's runner returned.
        var hasReturned: Bool { result.current != nil }

        /// The child's output once its runner returned.
        func output() throws -> GitOutput {
            done.wait()
            return try #require(result.current).get()
        }
    }

    @Test func aChildThatIgnoresSIGTERMIsKilledAtTheDeadline() throws {
        let sandbox = try GitSandbox()
        let cancellator = Cancellator()
        // `exec` keeps the ignored SIGTERM: the sleeping process is the registered child itself.
        let stubborn = Child(sandbox, script: #"trap '' TERM; touch "$1"; exec sleep 300"#, cancellator: cancellator)
        try stubborn.waitUntilReady()
        #expect(cancellator.runningChildren == 1)

        let termination = try #require(cancellator.cancel(terminateWithin: 0.5, killWithin: 10))
        #expect(termination.terminated.count == 1)
        #expect(termination.killed == termination.terminated, "the child ignoring SIGTERM was not killed")
        #expect(termination.survivors.isEmpty)
        #expect(try stubborn.output().status == -SIGKILL)
        #expect(cancellator.runningChildren == 0)
        // A second cancel does nothing (the first one owns the stop).
        #expect(cancellator.cancel() == nil)
    }

    /// A child that is stopped (SIGSTOP, as job control does) has not exited: its runner waits on, and gets the
    /// status it exits with once it is continued. (Darwin's waitid reports a stopped child even when asked only
    /// for exits; Linux's does not.)
    @Test func aStoppedChildIsWaitedForUntilItExits() throws {
        let sandbox = try GitSandbox()
        let cancellator = Cancellator()
        let child = Child(
            sandbox, script: #"echo $$ > "$1.tmp" && mv "$1.tmp" "$1"; kill -STOP $$; exit 3"#,
            cancellator: cancellator)
        try child.waitUntilReady()
        let pid = try #require(
            pid_t(
                try String(contentsOfFile: child.ready, encoding: .utf8).trimmingCharacters(
                    in: .whitespacesAndNewlines)))
        var stopped = false
        for _ in 0..<500 where !stopped {
            let state = try sandbox.run("/usr/bin/env", ["ps", "-o", "stat=", "-p", "\(pid)"]).stdout
            stopped = state.trimmingCharacters(in: .whitespaces).hasPrefix("T")
            if !stopped { usleep(10_000) }
        }
        try #require(stopped, "the child did not stop itself")
        usleep(200_000)
        #expect(!child.hasReturned, "the runner took a stopped child for one that exited")
        #expect(cancellator.runningChildren == 1)
        kill(pid, SIGCONT)
        #expect(try child.output().status == 3)
        #expect(cancellator.runningChildren == 0)
    }

    /// Control for the test above: a child that keeps the default SIGTERM ends with it and is not killed.
    @Test func aChildThatHonoursSIGTERMEndsWithoutSIGKILL() throws {
        let sandbox = try GitSandbox()
        let cancellator = Cancellator()
        let child = Child(sandbox, script: #"touch "$1"; exec sleep 300"#, cancellator: cancellator)
        try child.waitUntilReady()
        let termination = try #require(cancellator.cancel(terminateWithin: 60, killWithin: 10))
        #expect(termination.terminated.count == 1)
        #expect(termination.killed.isEmpty)
        #expect(try child.output().status == -SIGTERM)
    }

    @Test func noChildStartsOnceCancelled() throws {
        let sandbox = try GitSandbox()
        let cancellator = Cancellator()
        let marker = sandbox.path("started")
        // Control: before the cancel the same call runs.
        let before = try ExternalProgram.run(
            executable: "/usr/bin/touch", arguments: [marker + "-before"], environment: sandbox.environment,
            input: nil, cancellator: cancellator)
        #expect(before.status == 0)
        #expect(FileManager.default.fileExists(atPath: marker + "-before"))

        #expect(cancellator.cancel()?.terminated == [])
        let refused = #expect(throws: ExternalProgram.NotStarted.self) {
            try ExternalProgram.run(
                executable: "/usr/bin/touch", arguments: [marker], environment: sandbox.environment, input: nil,
                cancellator: cancellator)
        }
        #expect(try #require(refused).cancelled)
        #expect(!FileManager.default.fileExists(atPath: marker))
        #expect(cancellator.runningChildren == 0)
    }

    /// Children started from many threads while the cancel happens: each one is either refused or terminated (a
    /// child registered after the cancel looked would sleep on, and its thread would not return).
    @Test func aSpawnRacingTheCancelIsRefusedOrTerminated() throws {
        let sandbox = try GitSandbox()
        let cancellator = Cancellator()
        // A fractional duration no other process uses, to find leftovers.
        let duration = "300.\(Int.random(in: 100_000...999_999))"
        let outcomes = Locked<[String]>([])
        let threads = 4
        let finished = DispatchSemaphore(value: 0)
        for _ in 0..<threads {
            let environment = sandbox.environment
            Thread.detachNewThread {
                while true {
                    do throws(ExternalProgram.NotStarted) {
                        let output = try ExternalProgram.run(
                            executable: "/bin/sleep", arguments: [duration], environment: environment, input: nil,
                            cancellator: cancellator)
                        outcomes.withLock { $0.append("status \(output.status)") }
                    } catch {
                        outcomes.withLock { $0.append(error.cancelled ? "refused" : "failed: \(error)") }
                        break
                    }
                }
                finished.signal()
            }
        }
        for _ in 0..<1000 where cancellator.runningChildren < threads { usleep(10_000) }
        try #require(cancellator.runningChildren == threads)
        let termination = try #require(cancellator.cancel(terminateWithin: 30, killWithin: 10))
        #expect(termination.terminated.count == threads)
        var stuck = 0
        for _ in 0..<threads where finished.wait(timeout: .now() + 60) == .timedOut { stuck += 1 }
        let leftovers = try PlainProcess.run("/bin/ps", ["-eo", "pid=,args="], environment: [:])
        let sleeping = String(decoding: leftovers.stdout, as: UTF8.self).split(separator: "\n")
            .filter { $0.hasSuffix("sleep \(duration)") }
        for line in sleeping { if let pid = Int32(line.split(separator: " ").first ?? "") { kill(pid, SIGKILL) } }
        #expect(stuck == 0, "\(stuck) spawning threads never returned")
        #expect(sleeping.isEmpty, "children escaped the cancel: \(sleeping)")
        let seen = outcomes.current
        #expect(seen.filter { $0 == "refused" }.count == threads, "\(seen)")
        #expect(seen.allSatisfy { $0 == "refused" || $0 == "status \(-SIGTERM)" }, "\(seen)")
    }

    @Test func cleanupsRunOnceAndReleasedOnesDoNot() throws {
        let sandbox = try GitSandbox()
        let cancellator = Cancellator()
        let kept = URL(fileURLWithPath: sandbox.path("tenantctl-commits-kept"))
        let left = URL(fileURLWithPath: sandbox.path("tenantctl-index-left"))
        for url in [kept, left] { try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true) }
        let released = cancellator.register(temporaryDirectory: kept)
        _ = cancellator.register(temporaryDirectory: left)
        released.release()
        #expect(cancellator.runCleanups() == 1)
        #expect(!FileManager.default.fileExists(atPath: left.path))
        #expect(FileManager.default.fileExists(atPath: kept.path))
        #expect(cancellator.runCleanups() == 0)
    }
}
