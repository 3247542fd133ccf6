import Foundation
import TenantExample
import TenantKit
import TenantTestSupport
import Testing

/// `LifecycleRun`, the lifecycle commands' pipeline, driven without the CLI on an example workspace and its bare
/// remotes; what changed is read with plain git.
@Suite struct LifecycleRunTests {
    /// An example workspace, and the pipeline run in it.
    struct Example {
        let sandbox: GitSandbox
        let git: Git
        let result: ExampleResult

        init() throws {
            sandbox = try GitSandbox()
            git = try sandbox.gitRunner()
            result = try sandbox.exampleCopy(in: sandbox.path("example"), stage: .beforeUpdates)
        }

        func workspace() throws -> Workspace { try Workspace.locate(from: result.workspace, git: git) }

        /// Every ref of every bare remote: repository → ref → commit.
        func remoteRefs() throws -> [String: [String: String]] {
            var all: [String: [String: String]] = [:]
            for name in ["Infrastructure", "Article", "Customer", "Order", "Superproject"] {
                all[name] = try sandbox.refs("\(result.remotes)/\(name).git")
            }
            return all
        }

        /// The journals of the runs so far.
        func journals() throws -> [RunJournal] {
            try RunJournal.all(gitDirectory: try workspace().commonDirectory).runs
        }

        @discardableResult
        func run(_ change: LifecycleRun.Change, arguments: [String], dryRun: Bool = false) throws -> LifecyclePlan {
            try LifecycleRun.run(
                change, in: try workspace(),
                options: LifecycleRun.Options(
                    dryRun: dryRun, wait: false, command: change.command, arguments: arguments))
        }
    }

    @Test func aDryRunChangesNothingTheRealRunChangesTheRefs() throws {
        let example = try Example()
        let change = LifecycleRun.Change.customize(tenant: "t1", module: "Order", from: nil)
        let before = try example.remoteRefs()
        let dry = try example.run(change, arguments: ["t1", "Order"], dryRun: true)
        #expect(!dry.isEmpty)
        #expect(try example.remoteRefs() == before)
        #expect(try example.journals().isEmpty)
        // Positive control: the same change run for real moves the refs the dry run planned.
        let real = try example.run(change, arguments: ["t1", "Order"])
        #expect(real.lines == dry.lines)
        let after = try example.remoteRefs()
        #expect(after != before)
        #expect(before["Order"]?["refs/heads/t1"] == nil)
        #expect(after["Order"]?["refs/heads/t1"] != nil)
        #expect(after["Superproject"]?["refs/heads/t1"] != before["Superproject"]?["refs/heads/t1"])
        #expect(after["Superproject"]?["refs/heads/general_dev"] != before["Superproject"]?["refs/heads/general_dev"])
        #expect(try example.journals().map(\.state) == [.finished])
    }

    @Test func aResumedRunWhoseRemotesHoldTheResultHasNothingToChange() throws {
        let example = try Example()
        let change = LifecycleRun.Change.tenantAdd(TenantLifecycle.AddRequest(id: "t5"))
        try example.run(change, arguments: ["t5"])
        let held = try example.remoteRefs()
        #expect(held["Superproject"]?["refs/heads/t5"] != nil)
        // The run as a kill after its last push leaves it: every push landed, the journal still running.
        let gitDirectory = try example.workspace().commonDirectory
        var stopped = try #require(try example.journals().first)
        stopped.state = .running
        try stopped.write(gitDirectory: gitDirectory)

        let resumed = try example.run(change, arguments: ["t5"])
        #expect(resumed.isEmpty, "\(resumed.lines)")
        #expect(try example.remoteRefs() == held)
        let finished = try RunJournal.read(gitDirectory: gitDirectory, runId: stopped.runId)
        #expect(finished.state == .finished)
        #expect(finished.finishedBy != nil && finished.finishedBy != stopped.runId)

        // Positive control: the same run that goes on from no stopped run plans again, and refuses the tenant
        // its first run added.
        let error = #expect(throws: (any Error).self) { try example.run(change, arguments: ["t5"]) }
        #expect(String(describing: error).contains("tenant t5 exists"), "\(String(describing: error))")
        #expect(try example.remoteRefs() == held)
    }

    @Test func theRunHoldsTheLockAndRefusesWhileAnotherCommandsRunIsUnfinished() throws {
        let example = try Example()
        let change = LifecycleRun.Change.tag(milestone: "M1", pattern: Milestone.defaultPattern)
        let before = try example.remoteRefs()
        let gitDirectory = try example.workspace().commonDirectory
        let held = try WorkspaceLock(gitDirectory: gitDirectory)
        #expect(throws: LockError.self) { try example.run(change, arguments: ["M1"]) }
        held.release()
        // A stopped run of another command: refused before anything is fetched or pushed.
        var other = RunJournal(runId: RunJournal.newRunId(), createdAt: "2026-01-01T00:00:00Z", entries: [])
        other.command = "tenant add"
        other.arguments = ["t9"]
        other.worktree = example.result.workspace
        other.state = .running
        try other.write(gitDirectory: gitDirectory)
        #expect(throws: UnfinishedRunError.self) { try example.run(change, arguments: ["M1"]) }
        #expect(try example.remoteRefs() == before)
        // Positive control: with the lock free and no run unfinished, the same run tags every branch.
        other.state = .finished
        try other.write(gitDirectory: gitDirectory)
        try example.run(change, arguments: ["M1"])
        let tags = try example.remoteRefs()["Superproject"]?.keys.filter { $0.hasPrefix("refs/tags/") } ?? []
        #expect(tags.contains("refs/tags/DEV-M1"), "\(tags)")
    }

    @Test func theJournalRecordsThePlansRefs() throws {
        let example = try Example()
        let plan = try example.run(
            .customize(tenant: "t1", module: "Order", from: nil), arguments: ["t1", "Order"])
        let journal = try #require(try example.journals().first)
        #expect(journal.command == "customize")
        #expect(journal.arguments == ["t1", "Order"])
        #expect(journal.state == .finished)

        var planned: Set<String> = []
        for push in plan.modulesFirst + plan.modulesAfter {
            for ref in push.refs { planned.insert("\(push.module) \(ref.ref)") }
        }
        for commit in plan.commits {
            for branch in [commit.branch] + commit.alsoCreates { planned.insert("superproject refs/heads/\(branch)") }
        }
        for ref in plan.superprojectRefs { planned.insert("superproject \(ref.ref)") }
        #expect(planned.contains("Order refs/heads/t1"))
        #expect(planned.contains("superproject refs/heads/t1"))
        #expect(Set(journal.entries.map { "\($0.repository) \($0.ref)" }) == planned)

        // Each entry journalled before its push (with the remote it goes to), published, at the value the remote
        // holds now.
        let remotes = try example.remoteRefs()
        for entry in journal.entries {
            let remote =
                entry.repository == "superproject" ? "origin" : "\(example.result.remotes)/\(entry.repository).git"
            #expect(entry.remote == remote, "\(entry.repository) \(entry.ref)")
            #expect(entry.published == true, "\(entry.repository) \(entry.ref)")
            let repository = entry.repository == "superproject" ? "Superproject" : entry.repository
            #expect(remotes[repository]?[entry.ref] == entry.new, "\(entry.repository) \(entry.ref)")
        }
    }
}
