import Foundation
import TenantKit
import TenantTestSupport
import Testing

/// Every way tenantctl (and the test oracles) start a process gives its pipes back: the whole suite runs in one
/// process, and a leak of a few descriptors per call exhausts the limit half-way through it.
@Suite(.serialized) struct DescriptorLeakTests {
    /// The number of open descriptors; throws when `/proc/self/fd` cannot be listed (a count that cannot be read
    /// must not pass as "no growth").
    static func openDescriptors() throws -> Int {
        let count = try FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").count
        #expect(count > 2, "/proc/self/fd lists \(count) descriptors: not this process's table")
        return count
    }

    static func expectNoGrowth(_ label: String, _ body: () throws -> Void) throws {
        try body()  // warm-up: lazily opened descriptors (dispatch, the linker) are not a leak
        let before = try openDescriptors()
        for _ in 0..<40 { try body() }
        let after = try openDescriptors()
        // Other suites run concurrently and hold descriptors for a moment: allow a little noise, not 40 per call.
        #expect(after - before < 30, "\(label): \(before) → \(after) descriptors after 40 calls")
    }

    /// Counts descriptors in `/proc/self/fd`: Linux only, skipped with the reason elsewhere.
    @Test(.enabled(if: FileManager.default.fileExists(atPath: "/proc/self/fd"), "needs /proc/self/fd (Linux)"))
    func runnersGiveTheirPipesBack() throws {
        let sandbox = try GitSandbox()
        let repository = try sandbox.makeRepository("repo")
        let git = try sandbox.gitRunner()
        try Self.expectNoGrowth("Git.run") { _ = try git.run(["rev-parse", "HEAD"], in: repository) }
        try Self.expectNoGrowth("Git.run failing") {
            #expect(throws: GitError.self) { try git.run(["rev-parse", "--verify", "nope"], in: repository) }
        }
        try Self.expectNoGrowth("CatFileBatch") {
            let batch = try CatFileBatch(git: git, repository: repository)
            _ = try batch.object("HEAD")
            try batch.close()
        }
        try Self.expectNoGrowth("CatFileBatch not closed") {
            let batch = try CatFileBatch(git: git, repository: repository)
            _ = try batch.object("HEAD")
        }
        try Self.expectNoGrowth("PlainProcess") {
            _ = try PlainProcess.run("/bin/echo", ["x"], environment: [:])
        }
        try Self.expectNoGrowth("sandbox.git") { _ = try sandbox.git(["rev-parse", "HEAD"], in: repository) }
    }
}
