import Foundation
import TenantKit
import TenantTestSupport
import Testing

/// init's run journal: each repository as found before the first change, a stopped init's half-made mirrors removed
/// by its re-run, and the journal of an init killed after its last step finished by the re-run.
@Suite(.tags(.slow), .notInTheFastSet) struct InitJournalTests {
    /// The runs of init in a working copy's journal directory.
    static func initRuns(_ work: String) throws -> [RunJournal] {
        let all = try RunJournal.all(gitDirectory: work + "/.git")
        #expect(all.unreadable.isEmpty, "\(all.unreadable)")
        return all.runs.filter { $0.commandName == "init" }
    }

    @Test func theJournalRecordsEachRepositoryAsInitFoundIt() throws {
        let sandbox = try GitSandbox()
        _ = try LifecycleInitTests.plainProject(sandbox)
        let work = sandbox.path("work")
        // B is not checked out: a repository that does not exist yet.
        try sandbox.git(["submodule", "deinit", "-q", "-f", "Modules/B"], in: work)
        let superHead = try sandbox.git(["rev-parse", "HEAD"], in: work)
        let aHead = try sandbox.git(["rev-parse", "HEAD"], in: work + "/Modules/A")
        let aBranch = try sandbox.gitResult(["symbolic-ref", "--quiet", "--short", "HEAD"], in: work + "/Modules/A")

        let run = sandbox.tenantctl(["init"], in: work)
        #expect(run.status == 0, "\(run.stderr)")
        let journal = try #require(try Self.initRuns(work).first)
        #expect(journal.state == .finished)
        let before = journal.before ?? []
        #expect(before.first == RunJournal.Before(repository: "superproject", branch: "general_dev", head: superHead))
        #expect(
            before.contains(
                RunJournal.Before(
                    repository: "A",
                    branch: aBranch.status == 0 ? aBranch.stdout.trimmingCharacters(in: .newlines) : nil,
                    head: aHead)), "\(before)")
        #expect(before.contains(RunJournal.Before(repository: "B", branch: nil, head: nil)), "\(before)")
        #expect(before.count == 3, "\(before)")
    }

    /// Killed while a module mirror is being cloned: the half-made `<Module>.git.partial-<id>` directory stays; the
    /// re-run of init removes it and ends as the uninterrupted run does.
    @Test func theRerunOfAKilledInitRemovesTheHalfMadeMirrors() throws {
        let lab = try InitKillLab()
        let created = try #require(lab.calls.firstIndex { $0.contains(".partial-") }, "\(lab.calls)")
        let root = try InitKillLab.copy("partial", sandbox: lab.sandbox)
        let shim = try GitShim(in: lab.sandbox, name: "shim-partial")
        // Calls count from 1: the call after the one that created the directory.
        let stopped = try lab.sandbox.tenantctlProcess(
            ["init", "--git", shim.path], in: root + "/work", environment: ["SHIM_KILL_AT": "\(created + 2)"])
        #expect(stopped.status == -SIGKILL, "\(stopped.stderr)")
        let mirrors = root + "/work/.git/tenantctl/mirrors"
        func partials() throws -> [String] {
            try FileManager.default.contentsOfDirectory(atPath: mirrors).filter { $0.contains(".git.partial-") }
        }
        #expect(try !partials().isEmpty, "the kill left a half-made mirror")
        #expect(try Self.initRuns(root + "/work").contains { $0.state == .running })

        let rerun = lab.sandbox.tenantctl(["init"], in: root + "/work")
        #expect(rerun.status == 0, "\(rerun.stderr)")
        #expect(try partials().isEmpty)
        #expect(try InitKillLab.state(root, sandbox: lab.sandbox) == lab.after)
        #expect(try Self.initRuns(root + "/work").allSatisfy { $0.state == .finished })
    }

    /// Killed right after its last git call (the files are written): the run is unfinished, the other writing
    /// commands refuse; the re-run keeps the files and finishes the stopped run's journal.
    @Test func killedAfterItsLastStepTheRerunFinishesTheJournal() throws {
        let lab = try InitKillLab()
        let root = try InitKillLab.copy("last", sandbox: lab.sandbox)
        let shim = try GitShim(in: lab.sandbox, name: "shim-last")
        let stopped = try lab.sandbox.tenantctlProcess(
            ["init", "--git", shim.path], in: root + "/work", environment: ["SHIM_KILL_AFTER": "\(lab.calls.count)"])
        #expect(stopped.status == -SIGKILL, "\(stopped.stderr)")
        #expect(try InitKillLab.state(root, sandbox: lab.sandbox).files == lab.after.files, "the files are written")
        #expect(try Self.initRuns(root + "/work").map(\.state) == [.running])
        let blocked = lab.sandbox.tenantctl(["tag", "M1"], in: root + "/work")
        #expect(blocked.status == 1 && blocked.stderr.contains("tenantctl init"), "\(blocked.stderr)")

        let rerun = lab.sandbox.tenantctl(["init"], in: root + "/work")
        #expect(rerun.status == 0, "\(rerun.stderr)")
        #expect(try InitKillLab.state(root, sandbox: lab.sandbox) == lab.after)
        let runs = try Self.initRuns(root + "/work")
        #expect(runs.count == 2 && runs.allSatisfy { $0.state == .finished }, "\(runs.map(\.state))")
        let runsList = lab.sandbox.tenantctl(["runs", "--json"], in: root + "/work")
        #expect(!runsList.stdout.contains("\"unfinished\""), "\(runsList.stdout)")
    }
}
