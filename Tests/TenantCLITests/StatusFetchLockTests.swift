import Foundation
import TenantExample
import TenantKit
import TenantTestSupport
import Testing

/// `status --fetch` fetches into the clones other runs fetch into and write (tenantctl's refs of the superproject's
/// remote, each module checkout's `origin`), so it takes the workspace lock for its fetch, as audit and compose do:
/// it never fetches while `roll` or `switch` works. Without `--fetch` status only reads and takes no lock.
@Suite(.tags(.slow), .notInTheFastSet) struct StatusFetchLockTests {
    @Test func statusFetchWaitsForTheWorkspaceLockAndPlainStatusTakesNone() throws {
        let sandbox = try GitSandbox()
        let example = try sandbox.exampleCopy(in: sandbox.path("erp"), stage: .beforeUpdates)
        let shim = try GitShim(in: sandbox)
        func fetches() throws -> [String] { try shim.calls().filter { $0.contains(" fetch ") } }
        var lock = try WorkspaceLock(gitDirectory: example.workspace + "/.git")
        defer { lock.release() }

        // Positive control: plain status only reads, so it runs at once while another run holds the lock.
        let plain = sandbox.tenantctl(["status", "--git", shim.path], in: example.workspace)
        #expect(plain.status == 0, "\(plain.stderr)")
        #expect(try !shim.calls().isEmpty, "status did not use the shim: the checks below would be vacuous")
        #expect(try fetches().isEmpty)

        // Without --wait it waits up to two minutes for the lock: nothing fetched while it is held, all of it after.
        try shim.reset()
        let bounded = try BackgroundTenantctl(
            ["status", "--fetch", "--git", shim.path], in: example.workspace, sandbox: sandbox, environment: [:])
        try BackgroundTenantctl.waitForCalls(shim, 1)
        let deadline = Date().addingTimeInterval(3)
        while bounded.process.isRunning, try fetches().isEmpty, Date() < deadline { usleep(50_000) }
        #expect(bounded.process.isRunning, "status --fetch ended while another run held the lock")
        let whileHeld = try fetches()
        #expect(whileHeld.isEmpty, "fetched while another run held the lock: \(whileHeld)")
        lock.release()
        let fetched = try #require(bounded.wait(seconds: 120), "status --fetch did not end once the lock was free")
        #expect(fetched.status == 0, "\(fetched.stderr)")
        #expect(try !fetches().isEmpty, "status --fetch fetched nothing")

        // With --wait it blocks on the lock as long as it is held, fetching nothing; released, it fetches.
        lock = try WorkspaceLock(gitDirectory: example.workspace + "/.git")
        try shim.reset()
        let waiting = try BackgroundTenantctl(
            ["status", "--fetch", "--wait", "--git", shim.path], in: example.workspace, sandbox: sandbox,
            environment: [:])
        try LockOptionsTests.waitUntilBlockedOnLock(waiting)
        let whileBlocked = try fetches()
        #expect(whileBlocked.isEmpty, "fetched while another run held the lock: \(whileBlocked)")
        lock.release()
        let waited = try #require(waiting.wait(), "status --fetch --wait did not end once the lock was free")
        #expect(waited.status == 0, "\(waited.stderr)")
        #expect(try !fetches().isEmpty, "status --fetch --wait fetched nothing")
    }
}
