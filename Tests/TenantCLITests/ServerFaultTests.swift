import Foundation
import TenantKit
import TenantTestSupport
import Testing

/// Faults on the receiving side of a roll's pushes (a branch moved after the fetch, a hook that rejects one ref, a
/// server without atomic push, modules pushed before the superproject), and stale lock files.
@Suite(.tags(.slow), .notInTheFastSet) struct ServerFaultTests {
    static func hook(_ fixture: RollFixture, _ repository: String, _ name: String, _ body: String) throws {
        let path = "\(fixture.remote(repository))/hooks/\(name)"
        let relative = String(path.dropFirst(fixture.sandbox.root.count + 1))
        _ = try fixture.sandbox.writeExecutable(relative, "#!/bin/sh\n" + body + "\n")
    }

    static func removeHook(_ fixture: RollFixture, _ repository: String, _ name: String) throws {
        try FileManager.default.removeItem(atPath: "\(fixture.remote(repository))/hooks/\(name)")
    }

    /// After the fault is gone: a re-run rolls every tenant by the pin rule, with one merge per customised branch.
    static func expectConverged(_ fixture: RollFixture, before: [String: [String: String]]) throws {
        let rerun = fixture.roll()
        #expect(rerun.status == 0, "\(rerun.stderr)")
        for (tenant, customised) in RollFixture.customised {
            #expect(try fixture.pins(tenant) == fixture.expectedPins(tenant, customised: customised), "\(tenant)")
            #expect(try fixture.isAncestor("general_dev", tenant, in: fixture.remote("Superproject")))
        }
        for (module, branch) in [("Infrastructure", "t2"), ("Order", "t3")] {
            let old = try #require(before[module]?[branch])
            let made = try fixture.sandbox.git(
                ["rev-list", "--count", branch, "^\(old)", "^general_dev"], in: fixture.remote(module))
            #expect(made == "1", "\(module) \(branch): duplicate merge commits")
        }
        #expect(fixture.roll().stdout.contains("0 rolled, 3 up to date"))
    }

    @Test func updateHookRejectingOneRefOfTheAtomicSuperprojectPushChangesNoRefThere() throws {
        let fixture = try RollFixture()
        let before = try fixture.remoteBranches()
        try Self.hook(
            fixture, "Superproject", "update",
            "if [ \"$1\" = refs/heads/t3 ]; then echo \"t3 is frozen\" >&2; exit 1; fi")
        let result = fixture.roll(["--json"])
        #expect(result.status == 2, "\(result.stderr)")
        let after = try fixture.remoteBranches()
        // Atomic: t1, t2 and general_dev were acceptable, but no superproject ref moved.
        #expect(after["Superproject"] == before["Superproject"])
        // The modules were pushed first (merges only: nothing lost).
        #expect(after["Infrastructure"]?["t2"] != before["Infrastructure"]?["t2"])
        let report = try JSONDecoder().decode(RollReport.self, from: Data(result.stdout.utf8))
        #expect(report.tenants.allSatisfy { $0.status == "rejected" }, "\(report.tenants.map(\.status))")
        #expect(report.general.status == "rejected")
        #expect(report.pushes.contains { $0.repository == "superproject" && !$0.accepted })

        try Self.removeHook(fixture, "Superproject", "update")
        try Self.expectConverged(fixture, before: before)
    }

    @Test func preReceiveRejectingAModulePushKeepsTheAffectedTenantsSuperprojectBranch() throws {
        let fixture = try RollFixture()
        let before = try fixture.remoteBranches()
        try Self.hook(fixture, "Order", "pre-receive", "echo 'Order is closed for maintenance' >&2; exit 1")
        let result = fixture.roll(["--json"])
        #expect(result.status == 2, "\(result.stderr)")
        let after = try fixture.remoteBranches()
        #expect(after["Order"] == before["Order"])
        // t3 needs Order's merge: its superproject branch is not pushed; the others are.
        #expect(after["Superproject"]?["t3"] == before["Superproject"]?["t3"])
        #expect(after["Superproject"]?["t1"] != before["Superproject"]?["t1"])
        #expect(after["Superproject"]?["t2"] != before["Superproject"]?["t2"])
        let report = try JSONDecoder().decode(RollReport.self, from: Data(result.stdout.utf8))
        let t3 = try #require(report.tenants.first { $0.id == "t3" })
        #expect(t3.status == "rejected")
        #expect(t3.rejected?.contains("Order") == true, "\(t3.rejected ?? "")")
        // Every pin on the remote superproject is a commit its module remote has (modules first).
        for tenant in ["general_dev", "t1", "t2", "t3"] {
            for (path, commit) in try fixture.pins(tenant) {
                let module = String(path.dropFirst("Modules/".count))
                let exists = try fixture.sandbox.gitResult(
                    ["cat-file", "-e", "\(commit)^{commit}"], in: fixture.remote(module))
                #expect(exists.status == 0, "\(tenant) pins \(module) \(commit), which its remote does not have")
            }
        }
        try Self.removeHook(fixture, "Order", "pre-receive")
        try Self.expectConverged(fixture, before: before)
    }

    @Test func aServerWithoutAtomicPushIsAnExplicitFailureNotAPerRefFallback() throws {
        let fixture = try RollFixture()
        let before = try fixture.remoteBranches()
        try fixture.sandbox.git(["config", "receive.advertiseAtomic", "false"], in: fixture.remote("Superproject"))
        let result = fixture.roll()
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        #expect(result.stderr.contains("atomic"), "\(result.stderr)")
        #expect(try fixture.remoteBranches()["Superproject"] == before["Superproject"])

        try fixture.sandbox.git(["config", "--unset", "receive.advertiseAtomic"], in: fixture.remote("Superproject"))
        try Self.expectConverged(fixture, before: before)
    }

    /// The hook aborts the remote's transaction: git ends the push with status 128 and no per-ref answer, so roll
    /// stops with an explicit failure (exit 1) before the superproject push; modules pushed before it keep their
    /// merges (nothing lost) and a re-run converges once the hook is gone.
    @Test func aReferenceTransactionHookFailingInPreparedStopsTheRollExplicitly() throws {
        let fixture = try RollFixture()
        let before = try fixture.remoteBranches()
        try Self.hook(
            fixture, "Infrastructure", "reference-transaction",
            "if [ \"$1\" = prepared ]; then echo 'refs are read-only' >&2; exit 1; fi")
        // A reference-transaction hook in the user's own repository is never run by tenantctl.
        let canary = fixture.sandbox.path("canary-local-hook")
        _ = try fixture.sandbox.writeExecutable(
            String("\(fixture.workspace)/.git/hooks/reference-transaction".dropFirst(fixture.sandbox.root.count + 1)),
            "#!/bin/sh\ntouch '\(canary)'\n")
        let result = fixture.roll()
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        #expect(result.stderr.contains("push Infrastructure"), "\(result.stderr)")
        #expect(result.stderr.contains("ref updates aborted by hook"), "\(result.stderr)")
        let after = try fixture.remoteBranches()
        #expect(after["Infrastructure"] == before["Infrastructure"])
        #expect(after["Superproject"] == before["Superproject"])
        #expect(!FileManager.default.fileExists(atPath: canary))

        try Self.removeHook(fixture, "Infrastructure", "reference-transaction")
        try Self.expectConverged(fixture, before: before)
        #expect(!FileManager.default.fileExists(atPath: canary))
    }

    @Test func aStaleLockInAMirrorIsNamedKeptAndARerunConvergesOnceItIsRemoved() throws {
        let fixture = try RollFixture()
        let before = try fixture.remoteBranches()
        #expect(fixture.roll(["--dry-run"]).status == 0)  // creates the mirrors
        let lock = "\(fixture.workspace)/.git/tenantctl/mirrors/Order.git/refs/heads/t3.lock"
        try Data().write(to: URL(fileURLWithPath: lock))

        let result = fixture.roll()
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        // git names the file (as `…/mirrors/Order.git/./refs/heads/t3.lock`).
        #expect(result.stderr.contains("mirrors/Order.git/./refs/heads/t3.lock': File exists"), "\(result.stderr)")
        #expect(FileManager.default.fileExists(atPath: lock), "the stale lock was deleted")
        // Order's push landed, and so did t3's superproject commit, whose Order commit is on Order's remote: only
        // the mirror's bookkeeping failed, and the run says so with exit 1, after the superproject's push.
        let landed = try fixture.remoteBranches()
        #expect(landed["Order"]?["t3"] != before["Order"]?["t3"])
        #expect(landed["Superproject"]?["t3"] != before["Superproject"]?["t3"])
        // The re-run cannot fetch Order into its mirror (the lock): t3, which customises Order, is blocked and named
        // with the fetch error; the others roll (exit 2).
        let again = fixture.roll()
        #expect(again.status == 2, "\(again.stdout)\(again.stderr)")
        #expect((again.stdout + again.stderr).contains("refs/heads/t3.lock"), "\(again.stdout)\(again.stderr)")

        try FileManager.default.removeItem(atPath: lock)
        try Self.expectConverged(fixture, before: before)
    }

    /// A stand-in for git that makes the module mirrors record their pushes before the superproject's tenant commits
    /// are written: after the superproject's `merge-tree`, its next `fast-import` (the tenant commits) waits up to
    /// 120 s until an `update-ref` in a module mirror has ended; each of the two is one line of `events`.
    static func mirrorsFirstShim(_ fixture: RollFixture) throws -> (path: String, events: String) {
        let workspace = fixture.workspace
        let events = fixture.sandbox.path("mirrors-first.events")
        let marks = fixture.sandbox.path("mirrors-first.marks")
        try FileManager.default.createDirectory(atPath: marks, withIntermediateDirectories: true)
        let script = """
            #!/bin/sh
            \(GitShim.directoryOfTheCall)
            case " $* " in
            *" merge-tree "*)
                if [ "$here" = '\(workspace)' ]; then touch '\(marks)/merged'; fi ;;
            *" update-ref "*)
                case "$here" in
                */tenantctl/mirrors/*)
                    if [ -e '\(marks)/merged' ]; then
                        git "$@"
                        status=$?
                        echo "mirror recorded" >> '\(events)'
                        touch '\(marks)/recorded'
                        exit $status
                    fi ;;
                esac ;;
            *" fast-import "*)
                if [ "$here" = '\(workspace)' ] && [ -e '\(marks)/merged' ]; then
                    waited=0
                    while [ ! -e '\(marks)/recorded' ] && [ "$waited" -lt 1200 ]; do sleep 0.1; waited=$((waited + 1)); done
                    echo "superproject commits written" >> '\(events)'
                fi ;;
            esac
            exec git "$@"

            """
        return (try fixture.sandbox.writeExecutable("bin/mirrors-first", script), events)
    }

    @Test func aStaleLockInAMirrorFoundBeforeTheSuperprojectsCommitsAreWrittenIsReportedAfterItsPush() throws {
        let fixture = try RollFixture()
        let before = try fixture.remoteBranches()
        #expect(fixture.roll(["--dry-run"]).status == 0)  // creates the mirrors
        let lock = "\(fixture.workspace)/.git/tenantctl/mirrors/Order.git/refs/heads/t3.lock"
        try Data().write(to: URL(fileURLWithPath: lock))
        let shim = try Self.mirrorsFirstShim(fixture)

        let result = fixture.roll(["--jobs", "2", "--git", shim.path])
        // Positive control: the mirrors tried to record the module pushes before the superproject's commits were
        // written (the early bookkeeping ran).
        let events = try String(contentsOfFile: shim.events, encoding: .utf8).split(separator: "\n").map(String.init)
        #expect(events.first == "mirror recorded", "\(events)")
        #expect(events.contains("superproject commits written"), "\(events)")
        // The same outcome as when the superproject's commits are written first: the failure is said after the
        // superproject's push, which published t3.
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        #expect(result.stderr.contains("mirrors/Order.git/./refs/heads/t3.lock': File exists"), "\(result.stderr)")
        #expect(FileManager.default.fileExists(atPath: lock), "the stale lock was deleted")
        let landed = try fixture.remoteBranches()
        #expect(landed["Order"]?["t3"] != before["Order"]?["t3"])
        #expect(landed["Superproject"]?["t3"] != before["Superproject"]?["t3"])
        // The other mirrors recorded their pushes: Infrastructure's has t2 where its remote has it.
        #expect(
            try fixture.sandbox.branches("\(fixture.workspace)/.git/tenantctl/mirrors/Infrastructure.git")["t2"]
                == landed["Infrastructure"]?["t2"])

        try FileManager.default.removeItem(atPath: lock)
        try Self.expectConverged(fixture, before: before)
    }

    @Test func aStaleLockOnTheRemoteRejectsThatRepositorysPushAndIsKept() throws {
        let fixture = try RollFixture()
        let before = try fixture.remoteBranches()
        let lock = "\(fixture.remote("Order"))/refs/heads/t3.lock"
        try Data().write(to: URL(fileURLWithPath: lock))
        let result = fixture.roll(["--json"])
        #expect(result.status == 2, "\(result.stderr)")
        #expect(FileManager.default.fileExists(atPath: lock))
        #expect(try fixture.remoteBranches()["Order"] == before["Order"])
        #expect(try fixture.remoteBranches()["Superproject"]?["t3"] == before["Superproject"]?["t3"])
        let report = try JSONDecoder().decode(RollReport.self, from: Data(result.stdout.utf8))
        #expect(report.tenants.first { $0.id == "t3" }?.status == "rejected")
        try FileManager.default.removeItem(atPath: lock)
        try Self.expectConverged(fixture, before: before)
    }
}
