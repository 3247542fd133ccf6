import Foundation
import TenantExample
import TenantKit
import TenantTestSupport
import Testing

/// A Gerrit change stays one change while it is open: when the tenant branch moves under it (someone else's change
/// landed) and a new general change comes, the next `roll --review` uploads a new patch set of the open change (its
/// `Change-Id` kept), never a second change. Once it landed, the next proposal is a new change.
@Suite(.tags(.slow), .notInTheFastSet) struct ReviewChangeIdTests {
    /// The example after the general updates, every repository served as a Gerrit whose tenant branches are
    /// protected.
    static func example() throws -> (GitSandbox, ExampleResult, EmulatedForge) {
        let fixture = try ReviewForgeFixture(review: "{\"forge\": \"gerrit\"}")
        try fixture.serve(.gerrit)
        return (fixture.sandbox, fixture.example, fixture.forge)
    }

    /// A commit of `file` on `branch` of `bare`, pushed to `branch` (or, when `landing` is given, to a branch of its
    /// own that the forge lands into `branch`, as a change someone else got through review); returns it.
    @discardableResult
    static func change(
        _ sandbox: GitSandbox, _ bare: String, branch: String, file: String, landing forge: EmulatedForge? = nil
    ) throws -> String {
        let name = "change-\(UUID().uuidString.prefix(6))"
        try sandbox.git(["clone", "-q", "--branch", branch, bare, sandbox.path(name)])
        let commit = try sandbox.commit(in: name, file: file, content: file + "\n", message: "change \(file)")
        guard let forge else {
            try sandbox.git(["push", "-q", "origin", branch], in: sandbox.path(name))
            return commit
        }
        try sandbox.git(["push", "-q", "origin", "HEAD:refs/heads/\(name)"], in: sandbox.path(name))
        try forge.land(name, into: branch, method: .fastForward, in: bare)
        return commit
    }

    /// The `Change-Id` of `commit` in `bare`.
    static func changeId(_ sandbox: GitSandbox, _ commit: String, in bare: String) throws -> String? {
        ResolveReviewKindsTests.changeId(try sandbox.git(["log", "-1", "--format=%B", commit], in: bare))
    }

    @Test func aTenantThatMovesWhileItsChangeIsOpenGetsANewPatchSetNotASecondChange() throws {
        let (sandbox, example, forge) = try Self.example()
        let infrastructure = example.remotes + "/Infrastructure.git"
        let proposed = sandbox.tenantctlOfBuild(["roll", "--review", "--json"], in: example.workspace)
        #expect(proposed.status == 75, "\(proposed.stdout)\(proposed.stderr)")
        let opened = try forge.reviews(in: infrastructure)
        let change = try #require(opened.first, "\(proposed.stdout)")
        #expect(opened.count == 1 && change.target == "t2", "\(opened)")
        let id = try Self.changeId(sandbox, change.commit, in: infrastructure)

        // t2 moves under the open change, and a new general change comes.
        let moved = try Self.change(sandbox, infrastructure, branch: "t2", file: "TENANT.md", landing: forge)
        try Self.change(sandbox, infrastructure, branch: "general_dev", file: "GENERAL.md")

        let again = sandbox.tenantctlOfBuild(["roll", "--review", "--json"], in: example.workspace)
        #expect(again.status == 75, "\(again.stdout)\(again.stderr)")
        let updated = try forge.reviews(in: infrastructure)
        #expect(updated.map(\.number) == [change.number], "one change, a new patch set: \(updated)")
        let patchSet = try #require(updated.first)
        #expect(patchSet.ref == "refs/changes/01/1/2", "\(patchSet)")
        #expect(try Self.changeId(sandbox, patchSet.commit, in: infrastructure) == id)
        let parents = try sandbox.git(["log", "-1", "--format=%P", patchSet.commit], in: infrastructure)
        #expect(parents.hasPrefix(moved), "made on the moved t2: \(parents)")
        let followed = ReviewRollTests.review(try ReviewRollTests.reviews(again.stdout), "Infrastructure", "t2")
        #expect(followed?["proposed"] as? String == patchSet.commit, "\(followed ?? [:])")

        // What a kill right after that run's pushes leaves: its journal as planned, no answer recorded. The re-run
        // converges on the same change: the patch set is adopted, nothing pushed again, nothing left unfinished.
        let runId = try ReviewJournalTests.runId(again.stdout)
        let path = ReviewTakeoverTests.path(runId, in: example.workspace)
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
        try (String(try #require(lines.first)) + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        let received = try forge.received(in: infrastructure).count
        let rerun = sandbox.tenantctlOfBuild(["roll", "--review", "--json"], in: example.workspace)
        #expect(rerun.status == 75, "\(rerun.stdout)\(rerun.stderr)")
        #expect(try forge.reviews(in: infrastructure) == updated, "the same change and patch set")
        #expect(try forge.received(in: infrastructure).count == received, "Infrastructure pushed again")
        let runs = sandbox.tenantctlOfBuild(["runs", "--json"], in: example.workspace)
        #expect(!runs.stdout.contains("\"unfinished\""), "\(runs.stdout)")

        // Once the change landed, the next general change is proposed as a new change.
        try forge.land(patchSet.ref, into: "t2", method: .merge, in: infrastructure)
        let land = sandbox.tenantctlOfBuild(["roll", "--land", "--json"], in: example.workspace)
        #expect([0, 75].contains(land.status), "\(land.stdout)\(land.stderr)")
        try Self.change(sandbox, infrastructure, branch: "general_dev", file: "LATER.md")
        let next = sandbox.tenantctlOfBuild(["roll", "--review", "--json"], in: example.workspace)
        #expect(next.status == 75, "\(next.stdout)\(next.stderr)")
        let after = try forge.reviews(in: infrastructure)
        #expect(after.map(\.number) == [1, 2], "a new change after the landing: \(after)")
        if let newest = after.last {
            #expect(try Self.changeId(sandbox, newest.commit, in: infrastructure) != id)
        }
    }
}
