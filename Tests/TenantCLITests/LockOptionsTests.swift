import ArgumentParser
import Foundation
import TenantKit
import TenantTestSupport
import Testing

@testable import TenantCLI

/// Every command that takes the workspace lock accepts `--wait` (the lock error tells every user to use it), and
/// `--wait` really waits for a held lock, while the same run without it fails at once naming the holder.
@Suite(.tags(.slow), .notInTheFastSet) struct LockOptionsTests {
    /// One valid command line per command that takes the lock.
    static let lockingCommands: [[String]] = [
        ["switch", "t2"], ["pin"], ["roll"], ["roll", "--undo", "20260101-120000-ab12cd"], ["verify"], ["audit"],
        ["compose", "t2"], ["status"],
        ["init"], ["customize", "t3", "Order"], ["uncustomize", "t3", "Order"], ["tag", "M1"],
        ["tenant", "add", "t4"], ["tenant", "remove", "t4"], ["module", "add", "X", "--url", "../X.git"],
        ["module", "remove", "X"], ["resolve", "t2"], ["resolve", "--continue"], ["resolve", "--abort"],
    ]

    /// The commands that never take the lock.
    static let lockFreeCommands: Set<String> = [
        "tenantctl tenant list", "tenantctl example", "tenantctl demo", "tenantctl runs",
        "tenantctl diff",
    ]

    @Test(arguments: lockingCommands)
    func acceptsWait(_ arguments: [String]) throws {
        let waiting = try #require(try Tenantctl.parseAsRoot(arguments + ["--wait"]) as? any LockingCommand)
        #expect(waiting.lockOptions.wait)
        let failing = try #require(try Tenantctl.parseAsRoot(arguments) as? any LockingCommand)
        #expect(!failing.lockOptions.wait)
        // Positive control: the parser does reject a flag the command does not have, with the usage status.
        #expect(throws: (any Error).self) { try Tenantctl.parseAsRoot(arguments + ["--no-such-flag"]) }
        let environment = CommandEnvironment(
            variables: [:], currentDirectory: "/", stdout: BufferOutputSink(), stderr: BufferOutputSink())
        #expect(Tenantctl.run(arguments: arguments + ["--no-such-flag"], environment: environment) == 64)
    }

    /// The list above is complete: every command is either one that takes the lock or one of the lock-free ones.
    @Test func everyCommandIsListed() throws {
        var locking: Set<String> = []
        var lockFree: Set<String> = []
        for (name, command) in CLIReferenceTests.allCommands(Tenantctl.self)
        where command.configuration.subcommands.isEmpty {
            if command is any LockingCommand.Type { locking.insert(name) } else { lockFree.insert(name) }
        }
        #expect(lockFree == Self.lockFreeCommands)
        let listed = try Self.lockingCommands.map { arguments -> String in
            let parsed = try Tenantctl.parseAsRoot(arguments)
            let type = type(of: parsed)
            return try #require(CLIReferenceTests.allCommands(Tenantctl.self).first { $0.1 == type }?.0)
        }
        #expect(Set(listed) == locking)
        // The lock-free commands do not accept --wait (so the two lists really differ).
        #expect(throws: (any Error).self) { try Tenantctl.parseAsRoot(["tenant", "list", "--wait"]) }
    }

    @Test func waitWaitsForTheHolderAndWithoutItTheRunFailsAtOnceNamingTheHolder() throws {
        let sandbox = try GitSandbox()
        let example = try LifecycleExample(sandbox)
        let before = try example.snapshot()
        let shim = try GitShim(in: sandbox)
        let lock = try WorkspaceLock(gitDirectory: example.workspace + "/.git")
        defer { lock.release() }

        // Without --wait: the run ends while the lock is still held, names this process, and fetches nothing.
        let refusing = try BackgroundTenantctl(
            ["tenant", "add", "t4", "--git", shim.path], in: example.workspace, sandbox: sandbox, environment: [:])
        let refused = try #require(refusing.wait(), "tenant add without --wait did not end while the lock was held")
        #expect(refused.status == 1, "\(refused.stderr)")
        #expect(refused.stderr.contains("another tenantctl run (process \(getpid()))"), "\(refused.stderr)")
        #expect(refused.stderr.contains("--wait"), "\(refused.stderr)")
        let calls = try shim.calls()
        #expect(!calls.isEmpty, "the run did not use the shim: the check below would be vacuous")
        #expect(!calls.contains { $0.contains(" fetch ") || $0.contains(" push ") }, "\(calls)")
        #expect(try example.snapshot() == before)

        // With --wait: the run blocks on the lock and changes nothing while it is held; released, it succeeds.
        try shim.reset()
        let waiting = try BackgroundTenantctl(
            ["tenant", "add", "t4", "--wait", "--git", shim.path], in: example.workspace, sandbox: sandbox,
            environment: [:])
        try Self.waitUntilBlockedOnLock(waiting)
        #expect(waiting.process.isRunning)
        let callsWhileHeld = try shim.calls()
        #expect(!callsWhileHeld.contains { $0.contains(" fetch ") || $0.contains(" push ") }, "\(callsWhileHeld)")
        #expect(try example.snapshot() == before)
        lock.release()
        let waited = try #require(waiting.wait(), "tenant add --wait did not finish after the lock was released")
        #expect(waited.status == 0, "\(waited.stderr)")
        #expect(waited.stdout.contains("added tenant t4"), "\(waited.stdout)")
        #expect(try example.branches("Superproject")["t4"] != nil)
        #expect(try shim.calls().contains { $0.contains(" push ") })
    }

    /// Waits until `run` is blocked in `flock` (on Linux its pending request shows in /proc/locks, marked `->`).
    static func waitUntilBlockedOnLock(_ run: BackgroundTenantctl) throws {
        #if os(Linux)
            let pid = Substring("\(run.pid)")
            for _ in 0..<3000 {
                let locks = try String(contentsOfFile: "/proc/locks", encoding: .utf8)
                let blocked = locks.split(separator: "\n").contains { line in
                    let fields = line.split(separator: " ")
                    return fields.contains("->") && fields.contains("FLOCK") && fields.contains(pid)
                }
                if blocked { return }
                try #require(run.process.isRunning, "the run ended instead of waiting for the lock")
                usleep(20_000)
            }
            Issue.record("the run never waited for the lock")
        #else
            // No /proc: give the run time to reach the lock; the checks after this hold either way.
            usleep(1_000_000)
        #endif
    }
}
