import Foundation
import TenantExample
import TenantKit
import TenantTestSupport
import Testing

/// Edge cases of real machines: unfinished operations, an unwritable journal, hundreds of branches in one
/// transaction and one push, paths with spaces and Unicode under a foreign locale.
@Suite(.tags(.slow), .notInTheFastSet) struct ReliabilityEdgeTests {
    @Test(arguments: [
        ("MERGE_HEAD", "merge"), ("CHERRY_PICK_HEAD", "cherry-pick"), ("REVERT_HEAD", "revert"),
        ("BISECT_LOG", "bisect"),
    ])
    func switchRefusesEveryUnfinishedOperationInAModule(_ marker: String, _ operation: String) throws {
        let fixture = try RollFixture(stage: .beforeUpdates)
        let module = "\(fixture.workspace)/Modules/Order"
        let head = try fixture.sandbox.git(["rev-parse", "HEAD"], in: module)
        let gitDirectory = try fixture.sandbox.git(["rev-parse", "--absolute-git-dir"], in: module)
        try (head + "\n").write(toFile: "\(gitDirectory)/\(marker)", atomically: true, encoding: .utf8)
        let before = try fixture.userState()
        let result = fixture.sandbox.tenantctl(["switch", "t3"], in: fixture.workspace)
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stderr.contains("unfinished operation in Order"), "\(result.stderr)")
        #expect(result.stderr.contains(operation), "\(result.stderr)")
        #expect(try fixture.userState() == before)
    }

    @Test func anUnwritableJournalStopsTheRollBeforeAnyPush() throws {
        let fixture = try RollFixture()
        let before = try fixture.remoteBranches()
        // The journal directory cannot be created (a file is in the way; chmod does not stop root in CI).
        try FileManager.default.createDirectory(
            atPath: "\(fixture.workspace)/.git/tenantctl", withIntermediateDirectories: true)
        let blocker = RollJournal.directory(gitDirectory: fixture.workspace + "/.git")
        try Data("not a directory\n".utf8).write(to: URL(fileURLWithPath: blocker))
        let result = fixture.roll()
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        #expect(result.stderr.contains("journal"), "\(result.stderr)")
        #expect(try fixture.remoteBranches() == before, "a push happened without a journal")
        #expect(try String(contentsOfFile: blocker, encoding: .utf8) == "not a directory\n")
        try FileManager.default.removeItem(atPath: blocker)
        #expect(fixture.roll().status == 0)
    }

    @Test func hundredsOfBranchesInOneTransactionAndOneAtomicPush() throws {
        let sandbox = try GitSandbox()
        let repository = try sandbox.makeRepository("repo")
        let remote = sandbox.path("remote.git")
        try sandbox.git(["init", "-q", "--bare", remote])
        let head = try sandbox.git(["rev-parse", "HEAD"], in: repository)
        let git = try sandbox.gitRunner()
        let count = 600
        let updates = try (0..<count).map { try RefUpdate(checking: "refs/heads/tenant-\($0)", new: head, old: nil) }
        try RefTransaction.apply(updates, in: repository, git: git, context: "create \(count) branches")
        #expect(try sandbox.refs(repository).keys.filter { $0.hasPrefix("refs/heads/tenant-") }.count == count)
        let outcome = try AtomicPush.push(updates, repository: "repo", from: repository, to: remote, git: git)
        #expect(outcome.accepted, "\(outcome.detail)")
        #expect(try sandbox.refs(remote).keys.filter { $0.hasPrefix("refs/heads/tenant-") }.count == count)
    }

    @Test func aWorkspacePathWithSpacesAndUnicodeUnderAForeignLocaleRollsTheSame() throws {
        let lab = try FaultLab()
        let plain = try lab.copy("plain")
        #expect(lab.sandbox.tenantctl(["roll"], in: plain.workspace, environment: FaultLab.dates).status == 0)
        let odd = try lab.copy("Wörk space ünd ⚙︎")
        let foreign = ["LANG": "de_DE.UTF-8", "LC_ALL": "de_DE.UTF-8", "LANGUAGE": "de"]
        let result = lab.sandbox.tenantctl(
            ["roll"], in: odd.workspace, environment: FaultLab.dates.merging(foreign) { $1 })
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try lab.remoteRefs(odd.root) == lab.remoteRefs(plain.root))
        let audit = lab.sandbox.tenantctl(["audit", "--check"], in: odd.workspace, environment: foreign)
        #expect(audit.status == 0, "\(audit.stdout)\(audit.stderr)")
    }
}

extension ReliabilityEdgeTests {
    @Test func aModuleDirectoryWithFilesThatIsNotARepositoryIsRefusedAndKept() throws {
        let fixture = try RollFixture(stage: .beforeUpdates)
        let module = "\(fixture.workspace)/Modules/Order"
        // The module's `.git` file is gone: the directory has files but is not a repository.
        try FileManager.default.removeItem(atPath: module + "/.git")
        try Data("my notes\n".utf8).write(to: URL(fileURLWithPath: module + "/NOTES.txt"))
        let listing = try FileManager.default.contentsOfDirectory(atPath: module).sorted()
        let result = fixture.sandbox.tenantctl(["switch", "t3"], in: fixture.workspace)
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        #expect(result.stderr.contains("Order"), "\(result.stderr)")
        #expect(result.stderr.contains("not a git repository"), "\(result.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: module).sorted() == listing)
        #expect(try String(contentsOfFile: module + "/NOTES.txt", encoding: .utf8) == "my notes\n")
        #expect(try fixture.sandbox.git(["symbolic-ref", "--short", "HEAD"], in: fixture.workspace) == "general_dev")
    }
}
