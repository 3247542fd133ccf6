import Foundation
import TenantKit
import TenantTestSupport
import Testing

@Suite struct WorkspaceTests {
    @Test func locatesSuperprojectFromASubdirectory() throws {
        let sandbox = try GitSandbox()
        let repo = try sandbox.makeRepository("super", files: ["modules.json": "{}", "Modules/A/file": "x"])
        let git = try sandbox.gitRunner()
        let workspace = try Workspace.locate(from: repo + "/Modules/A", git: git)
        #expect(workspace.root == repo)
        #expect(workspace.gitDirectory == repo + "/.git")
    }

    @Test func noSuperprojectIsAClearError() throws {
        let sandbox = try GitSandbox()
        let repo = try sandbox.makeRepository("plain")
        let git = try sandbox.gitRunner()
        let error = #expect(throws: WorkspaceError.self) { try Workspace.locate(from: repo, git: git) }
        #expect(try #require(error).description.contains("no tenantctl superproject at or above \(repo)"))
    }

    @Test func secondLockIsRefusedNamingTheHolder() throws {
        let sandbox = try GitSandbox()
        let gitDir = sandbox.path("gitdir")
        try FileManager.default.createDirectory(atPath: gitDir, withIntermediateDirectories: true)
        let lock = try WorkspaceLock(gitDirectory: gitDir)
        let error = #expect(throws: LockError.self) { try WorkspaceLock(gitDirectory: gitDir) }
        let found = try #require(error)
        #expect(found.holder == ProcessInfo.processInfo.processIdentifier)
        #expect(
            found.description.contains("another tenantctl run (process \(ProcessInfo.processInfo.processIdentifier))"))
        lock.release()
        let again = try WorkspaceLock(gitDirectory: gitDir)
        again.release()
    }

    /// A bounded wait (the read-only commands' fetch) gives up with the same error once its time has passed, saying
    /// how long it waited; freed in time, the lock is taken.
    @Test func aBoundedWaitGivesUpNamingTheHolderAndTheWait() throws {
        let sandbox = try GitSandbox()
        let gitDir = sandbox.path("gitdir")
        try FileManager.default.createDirectory(atPath: gitDir, withIntermediateDirectories: true)
        let lock = try WorkspaceLock(gitDirectory: gitDir)
        let started = Date()
        let error = #expect(throws: LockError.self) {
            try WorkspaceLock(gitDirectory: gitDir, waiting: .upTo(seconds: 1))
        }
        #expect(Date().timeIntervalSince(started) >= 0.9, "gave up before the bound")
        let found = try #require(error)
        #expect(found.holder == ProcessInfo.processInfo.processIdentifier)
        #expect(found.waited == 1)
        #expect(found.description.contains("still working on this superproject after 1 s"), "\(found.description)")
        lock.release()
        // Positive control: free, the same bounded wait takes it.
        let again = try WorkspaceLock(gitDirectory: gitDir, waiting: .upTo(seconds: 1))
        again.release()
    }

    /// flock(1) from util-linux stands in for a second tenantctl process.
    @Test(
        .enabled(
            if: FileManager.default.isExecutableFile(atPath: "/usr/bin/flock"), "needs /usr/bin/flock (util-linux)"))
    func anotherProcessIsRefusedTheLock() throws {
        let sandbox = try GitSandbox()
        let gitDir = sandbox.path("gitdir")
        try FileManager.default.createDirectory(atPath: gitDir, withIntermediateDirectories: true)
        // Positive control: with the lock free, the other process takes it.
        #expect(try sandbox.run("/usr/bin/flock", ["-n", gitDir + "/tenantctl.lock", "true"]).status == 0)
        let lock = try WorkspaceLock(gitDirectory: gitDir)
        #expect(try sandbox.run("/usr/bin/flock", ["-n", gitDir + "/tenantctl.lock", "true"]).status == 1)
        lock.release()
        #expect(try sandbox.run("/usr/bin/flock", ["-n", gitDir + "/tenantctl.lock", "true"]).status == 0)
    }

    @Test(
        .enabled(
            if: FileManager.default.isExecutableFile(atPath: "/usr/bin/flock"), "needs /usr/bin/flock (util-linux)"))
    func lockOfAKilledProcessDoesNotBlock() throws {
        let sandbox = try GitSandbox()
        let gitDir = sandbox.path("gitdir")
        try FileManager.default.createDirectory(atPath: gitDir, withIntermediateDirectories: true)
        // A process that takes the lock and is killed: the kernel releases it.
        let result = try sandbox.run(
            "/bin/sh", ["-c", "/usr/bin/flock -n \"$1\" sh -c 'kill -9 $$'", "sh", gitDir + "/tenantctl.lock"])
        #expect(result.status != 0)
        let lock = try WorkspaceLock(gitDirectory: gitDir)
        lock.release()
    }
}
