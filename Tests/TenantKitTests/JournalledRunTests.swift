import Foundation
import TenantExample
import TenantKit
import TenantTestSupport
import Testing

/// `Transaction.journalled`, the one way a writing command's run is journalled below the command line, and `RunsListing`,
/// what `tenantctl runs` lists, on the example's superproject.
@Suite struct JournalledRunTests {
    struct Boom: Error, CustomStringConvertible {
        var description: String { "boom" }
    }

    static func workspace(_ sandbox: GitSandbox) throws -> Workspace {
        let git = try sandbox.gitRunner()
        let example = try sandbox.exampleCopy(in: sandbox.path("erp"), stage: .beforeUpdates)
        return try Workspace.locate(from: example.workspace, git: git)
    }

    static func run(_ id: String, in workspace: Workspace) throws -> RunSummary {
        try #require(try RunsListing.run(workspace: workspace).runs.first { $0.runId == id })
    }

    @Test func aRunEndsFinishedFailedOrUnfinishedAndAnUnfinishedOneBlocksTheOthersUntilItsReRun() throws {
        let sandbox = try GitSandbox()
        let workspace = try Self.workspace(sandbox)
        #expect(try RunsListing.run(workspace: workspace).runs.isEmpty)

        var id = ""
        let value = try Transaction.journalled(workspace, command: "tenant add", arguments: ["t4", "--from", "t2"]) {
            id = $0.runId
            return 42
        }
        #expect(value == 42)
        let finished = try Self.run(id, in: workspace)
        #expect(finished.state == "finished" && finished.command == "tenant add")
        #expect(finished.arguments == ["t4", "--from", "t2"] && finished.worktree == workspace.root)

        #expect(throws: Boom.self) {
            try Transaction.journalled(workspace, command: "tag", arguments: ["M1"]) { transaction -> Int in
                id = transaction.runId
                throw Boom()
            }
        }
        let failed = try Self.run(id, in: workspace)
        #expect(failed.state == "failed" && failed.error == "boom", "\(failed)")

        // A result the caller calls stopped (a refused push it reports) ends the run as an error does.
        let returned = try Transaction.journalled(
            workspace, command: "tag", arguments: ["M2"], stopped: { $0 == 0 ? Boom() : nil }
        ) { transaction -> Int in
            id = transaction.runId
            return 0
        }
        #expect(returned == 0)
        #expect(try Self.run(id, in: workspace).state == "failed")

        // An error the command calls unfinished leaves the run running: listed with its ways out, blocking others.
        #expect(throws: Boom.self) {
            try Transaction.journalled(workspace, command: "pin", arguments: ["Article"], unfinished: { $0 is Boom }) {
                transaction -> Int in
                id = transaction.runId
                throw Boom()
            }
        }
        let stopped = id
        let listing = try RunsListing.run(workspace: workspace)
        #expect(try Self.run(stopped, in: workspace).state == "unfinished")
        #expect(listing.unfinished.map(\.runId) == [stopped])
        #expect(
            listing.unfinished.first?.waysOut == [
                "tenantctl pin Article", "tenantctl runs --abort \(stopped)", "tenantctl runs --forget \(stopped)",
            ])
        var ran = false
        #expect(throws: UnfinishedRunError.self) {
            try Transaction.journalled(workspace, command: "tag", arguments: ["M3"]) { _ in ran = true }
        }
        #expect(!ran, "refused before its body")

        // Its re-run finishes it.
        let rerun = try Transaction.journalled(workspace, command: "pin", arguments: ["Article"]) { $0.runId }
        let resumed = try Self.run(stopped, in: workspace)
        #expect(resumed.state == "finished" && resumed.finishedBy == rerun, "\(resumed)")
        #expect(try RunsListing.run(workspace: workspace).unfinished.isEmpty)
    }

    @Test func anAbortingRunEndsTheStoppedRunItWentOnFromAborted() throws {
        let sandbox = try GitSandbox()
        let workspace = try Self.workspace(sandbox)
        var stopped = ""
        #expect(throws: Boom.self) {
            try Transaction.journalled(workspace, command: "switch", arguments: ["t2"], unfinished: { _ in true }) {
                transaction -> Int in
                stopped = transaction.runId
                throw Boom()
            }
        }
        // Positive control: not aborting, a re-run ends it finished (above); aborting, it ends aborted.
        let next = try Transaction.journalled(workspace, command: "switch", arguments: ["t2"], aborting: true) {
            $0.runId
        }
        let run = try Self.run(stopped, in: workspace)
        #expect(run.state == "aborted" && run.finishedBy == next, "\(run)")
        #expect(try Self.run(next, in: workspace).state == "finished")
    }

    /// A run stopped before its first change (nothing recorded) ends as if it never started: it blocks nothing.
    /// Positive control: once it recorded the repositories it is about to change, it blocks the others.
    @Test func aRunStoppedBeforeItsFirstChangeBlocksNothing() throws {
        let sandbox = try GitSandbox()
        let workspace = try Self.workspace(sandbox)
        let early = try Transaction.begin(workspace, command: "tenant remove", arguments: ["t3"])
        #expect(try Self.run(early.runId, in: workspace).state == "not started")
        let other = try Transaction.journalled(workspace, command: "tenant remove", arguments: ["t3", "--archive"]) {
            $0.runId
        }
        #expect(try Self.run(other, in: workspace).state == "finished")
        let late = try Transaction.begin(workspace, command: "pin", arguments: [])
        try late.recordBefore([RunJournal.Before(repository: "superproject", branch: "t1", head: nil)])
        #expect(throws: UnfinishedRunError.self) {
            try Transaction.journalled(workspace, command: "tag", arguments: ["M1"]) { _ in 0 }
        }
    }

    /// A journal cut off in the middle of a step (a full disk): the complete steps before the cut are read, the run
    /// is taken as unfinished (never as finished), and the refusal names it and the way out.
    @Test func aJournalCutOffMidLineIsReadUpToItsLastCompleteStepAndBlocks() throws {
        let sandbox = try GitSandbox()
        let workspace = try Self.workspace(sandbox)
        let run = try Transaction.begin(workspace, command: "tenant add", arguments: ["t4", "--from", "t2"])
        // Two steps, one line each.
        for ref in ["refs/heads/t4", "refs/heads/t5"] {
            try run.record(
                repository: "Article", remote: "/remotes/Article.git",
                refs: [try RefUpdate(checking: ref, new: String(repeating: "a", count: 40), old: nil)], published: true,
                landed: nil)
        }
        try run.finish()
        // Cut the file in the middle of its second step, as a full disk would leave it (the end comes after it).
        let path = RunJournal.path(gitDirectory: workspace.commonDirectory, runId: run.runId)
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let cut = try #require(text.range(of: "refs/heads/t5"))
        try String(text[..<cut.lowerBound]).write(toFile: path, atomically: false, encoding: .utf8)
        let unfinished = try RunJournal.unfinished(gitDirectory: workspace.commonDirectory)
        #expect(unfinished.map(\.runId) == [run.runId])
        #expect(unfinished.first?.entries.map(\.ref) == ["refs/heads/t4"])
        #expect(unfinished.first?.commandName == "tenant add")
        do {
            _ = try Transaction.journalled(workspace, command: "tag", arguments: ["M1"]) { _ in 0 }
            Issue.record("a cut-off journal was taken as finished")
        } catch let error as UnfinishedRunError {
            #expect(error.description.contains("\(run.runId).json) is cut off"), "\(error)")
            #expect(error.description.contains("tenantctl runs --forget \(run.runId)"), "\(error)")
        }
        // Positive control: the complete journal said finished and blocked nothing.
        try text.write(toFile: path, atomically: false, encoding: .utf8)
        #expect(try RunJournal.unfinished(gitDirectory: workspace.commonDirectory).isEmpty)
    }

    /// `runs --abort` on a stopped run whose tag landed on the remote deletes it again (leased on what the run
    /// pushed) and ends the run aborted; a tag moved since is kept. The light end-to-end check of the ways out.
    @Test func anAbortTakesBackATagTheStoppedRunPushedAndKeepsOneMovedSince() throws {
        let sandbox = try GitSandbox()
        let workspace = try Self.workspace(sandbox)
        let head = try sandbox.git(["rev-parse", "HEAD"], in: workspace.root)
        let parent = try sandbox.git(["rev-parse", "HEAD~1"], in: workspace.root)
        func stoppedTag(_ name: String) throws -> String {
            try sandbox.git(["push", "-q", "origin", "\(head):refs/tags/\(name)"], in: workspace.root)
            let run = try Transaction.begin(workspace, command: "tag", arguments: [name])
            try run.record(
                repository: "superproject", remote: workspace.remoteName,
                refs: [try RefUpdate(checking: "refs/tags/\(name)", new: head, old: nil)], published: true, landed: nil)
            return run.runId
        }
        let stopped = try stoppedTag("M8")
        let result = try RunAbort.abort(runId: stopped, in: workspace, wait: false)
        #expect(result.undone.map(\.ref) == ["refs/tags/M8"], "\(result)")
        #expect(try sandbox.git(["ls-remote", "origin", "refs/tags/M8"], in: workspace.root) == "")
        #expect(try Self.run(stopped, in: workspace).state == "aborted")
        #expect(try RunJournal.unfinished(gitDirectory: workspace.commonDirectory).isEmpty)

        // Positive control: a tag someone moved since is kept and named, never deleted.
        let moved = try stoppedTag("M9")
        try sandbox.git(["push", "-q", "--force", "origin", "\(parent):refs/tags/M9"], in: workspace.root)
        let kept = try RunAbort.abort(runId: moved, in: workspace, wait: false)
        #expect(kept.undone.isEmpty && kept.kept.map(\.ref) == ["refs/tags/M9"], "\(kept)")
        #expect(try sandbox.git(["ls-remote", "origin", "refs/tags/M9"], in: workspace.root).hasPrefix(parent))
    }

    @Test func aJournalThatCannotBeReadIsAWarningNamingItTheOthersAreListed() throws {
        let sandbox = try GitSandbox()
        let workspace = try Self.workspace(sandbox)
        let id = try Transaction.journalled(workspace, command: "tag", arguments: ["M1"]) { $0.runId }
        let path = RunJournal.directory(gitDirectory: workspace.commonDirectory) + "/20990101-000000-broken.json"
        try Data("{ not json".utf8).write(to: URL(fileURLWithPath: path))
        let listing = try RunsListing.run(workspace: workspace)
        #expect(listing.runs.map(\.runId) == [id])
        #expect(listing.warnings.count == 1, "\(listing.warnings)")
        #expect(listing.warnings.first?.hasPrefix("cannot read \(path): ") == true, "\(listing.warnings)")
    }
}
