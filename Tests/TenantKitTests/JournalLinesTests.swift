import Foundation
import TenantExample
import TenantKit
import TenantTestSupport
import Testing

/// The journal file is written one line per step, appended: what was on the disk before a step is still there, byte
/// for byte, after it; a cut-off last line is left out and the run blocks; a journal written by the earlier format
/// (one JSON object, rewritten whole per step) still reads and is settled; and a journal that cannot record that a
/// run changed something stops the command with an error naming the file.
@Suite struct JournalLinesTests {
    struct Boom: Error, CustomStringConvertible {
        var description: String { "boom" }
    }

    static let head = String(repeating: "a", count: 40)

    static func bytes(_ transaction: Transaction) throws -> Data {
        try Data(contentsOf: URL(fileURLWithPath: transaction.path))
    }

    static func lines(_ data: Data) -> [String] {
        String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
    }

    /// Each step is one line added at the end: the bytes before it stay as they were (the earlier format rewrote the
    /// whole file, so a step's bytes were not a prefix of the next step's).
    @Test func eachStepIsAppendedAsOneLineAndTheLinesBeforeStayAsTheyWere() throws {
        let sandbox = try GitSandbox()
        let workspace = try JournalledRunTests.workspace(sandbox)
        let run = try Transaction.begin(workspace, command: "tenant add", arguments: ["t4", "--from", "t2"])
        var seen = [try Self.bytes(run)]
        for (index, repository) in ["Infrastructure", "Order", "superproject"].enumerated() {
            try run.record(
                repository: repository, remote: "/remotes/\(repository).git",
                refs: [try RefUpdate(checking: "refs/heads/t4", new: Self.head, old: nil)], published: nil, landed: nil)
            if index < 2 {
                try run.record(
                    repository: repository, refs: [try RefUpdate(checking: "refs/heads/t4", new: nil, old: nil)],
                    published: true, landed: nil)
            }
            seen.append(try Self.bytes(run))
        }
        try run.finish()
        seen.append(try Self.bytes(run))
        for (earlier, later) in zip(seen, seen.dropFirst()) {
            #expect(later.starts(with: earlier), "a step rewrote what was on the disk before it")
        }
        let lines = Self.lines(seen[seen.count - 1])
        // begin, two lines per pushed module, one for the superproject's planned push, the end.
        #expect(lines.count == 1 + 2 + 2 + 1 + 1, "\(lines)")
        #expect(lines.first?.hasPrefix(#"{"begin":"#) == true, "\(lines)")
        let read = try RunJournal.read(gitDirectory: workspace.commonDirectory, runId: run.runId)
        #expect(read == run.current)
        #expect(read.state == .finished)
        #expect(read.entries.map(\.published) == [true, true, nil])
        #expect(try RunJournal.unfinished(gitDirectory: workspace.commonDirectory).isEmpty)
    }

    /// A run stopped between two steps (its process gone) leaves every step that landed in its journal, and the
    /// other commands are refused while it is unfinished; the re-run's end is appended to it.
    @Test func aRunStoppedBetweenTwoStepsLeavesEveryLandedStepAndItsReRunAppendsItsEnd() throws {
        let sandbox = try GitSandbox()
        let workspace = try JournalledRunTests.workspace(sandbox)
        let stopped = try Transaction.begin(workspace, command: "tag", arguments: ["M1"])
        try stopped.record(
            repository: "superproject", remote: workspace.remoteName,
            refs: [try RefUpdate(checking: "refs/tags/M1", new: Self.head, old: nil)], published: true, landed: nil)
        let left = try Self.bytes(stopped)
        #expect(throws: UnfinishedRunError.self) {
            try Transaction.journalled(workspace, command: "customize", arguments: ["t2", "Order"]) { _ in 0 }
        }
        let unfinished = try RunJournal.unfinished(gitDirectory: workspace.commonDirectory)
        #expect(unfinished.map(\.runId) == [stopped.runId])
        #expect(unfinished.first?.entries.map(\.published) == [true])
        let rerun = try Transaction.journalled(workspace, command: "tag", arguments: ["M1"]) { $0.runId }
        let after = try Self.bytes(stopped)
        #expect(after.starts(with: left), "the re-run rewrote the stopped run's journal")
        let settled = try RunJournal.read(gitDirectory: workspace.commonDirectory, runId: stopped.runId)
        #expect(settled.state == .finished && settled.finishedBy == rerun)
        #expect(settled.entries.map(\.published) == [true])
    }

    /// A last line cut off in the middle (a full disk, a power loss) is left out: the complete steps before it are
    /// read and the run blocks, as unfinished. The next writer ends the cut-off line first, so its own line stands
    /// alone. Positive control: the whole file said finished.
    @Test func aCutOffLastLineIsLeftOutAndTheRunBlocks() throws {
        let sandbox = try GitSandbox()
        let workspace = try JournalledRunTests.workspace(sandbox)
        let run = try Transaction.begin(workspace, command: "tenant add", arguments: ["t4", "--from", "t2"])
        for ref in ["refs/heads/t4", "refs/heads/t5"] {
            try run.record(
                repository: "Order", remote: "/remotes/Order.git",
                refs: [try RefUpdate(checking: ref, new: Self.head, old: nil)],
                published: true, landed: nil)
        }
        try run.finish()
        let whole = try Self.bytes(run)
        let text = String(decoding: whole, as: UTF8.self)
        let cut = try #require(text.range(of: "refs/heads/t5"))
        try Data(text[..<cut.lowerBound].utf8).write(to: URL(fileURLWithPath: run.path))
        let unfinished = try RunJournal.unfinished(gitDirectory: workspace.commonDirectory)
        #expect(unfinished.map(\.runId) == [run.runId])
        #expect(unfinished.first?.entries.map(\.ref) == ["refs/heads/t4"])
        #expect(unfinished.first?.salvaged == true)
        do {
            _ = try Transaction.journalled(workspace, command: "tag", arguments: ["M1"]) { _ in 0 }
            Issue.record("a cut-off journal was taken as finished")
        } catch let error as UnfinishedRunError {
            #expect(error.description.contains("\(run.runId).json) is cut off"), "\(error)")
        }
        // Forgetting it appends its end after the cut-off line, on a line of its own.
        try Transaction.markFinished(unfinished, by: "20990101-000000-000000", in: workspace)
        let ended = try RunJournal.read(gitDirectory: workspace.commonDirectory, runId: run.runId)
        #expect(ended.state == .finished && ended.salvaged == nil)
        #expect(ended.entries.map(\.ref) == ["refs/heads/t4"])
        // Positive control: the whole file says finished and blocks nothing.
        try whole.write(to: URL(fileURLWithPath: run.path))
        #expect(try RunJournal.unfinished(gitDirectory: workspace.commonDirectory).isEmpty)
    }

    /// A journal the earlier version wrote (one pretty-printed JSON object) still reads, also cut off; an unfinished
    /// one blocks, and settling it writes it again in the line format with the same content.
    @Test func aJournalInTheEarlierFormatStillReadsAndIsSettled() throws {
        let sandbox = try GitSandbox()
        let workspace = try JournalledRunTests.workspace(sandbox)
        var old = RunJournal(runId: RunJournal.newRunId(), createdAt: "2026-01-01T00:00:00Z", entries: [])
        old.command = "tenant add"
        old.arguments = ["t4", "--from", "t2"]
        old.worktree = workspace.root
        old.state = .running
        old.changed = true
        for ref in ["refs/heads/t4", "refs/heads/t5"] {
            old.entries.append(
                .init(
                    repository: "Order", remote: "/remotes/Order.git", ref: ref, old: nil, new: Self.head,
                    published: true))
        }
        let path = RunJournal.path(gitDirectory: workspace.commonDirectory, runId: old.runId)
        try FileManager.default.createDirectory(
            atPath: RunJournal.directory(gitDirectory: workspace.commonDirectory), withIntermediateDirectories: true)
        let encoded = old.encoded()
        #expect(encoded.starts(with: Data("{\n".utf8)))
        try encoded.write(to: URL(fileURLWithPath: path))
        let summary = try JournalledRunTests.run(old.runId, in: workspace)
        #expect(summary.state == "unfinished")
        #expect(try RunJournal.read(gitDirectory: workspace.commonDirectory, runId: old.runId) == old)
        #expect(try RunJournal.unfinished(gitDirectory: workspace.commonDirectory).map(\.runId) == [old.runId])
        #expect(throws: UnfinishedRunError.self) {
            try Transaction.journalled(workspace, command: "tag", arguments: ["M1"]) { _ in 0 }
        }
        // Cut off in its second step: the first is read, and the run blocks.
        let text = String(decoding: encoded, as: UTF8.self)
        let cut = try #require(text.range(of: "refs/heads/t5"))
        try Data(text[..<cut.lowerBound].utf8).write(to: URL(fileURLWithPath: path))
        let salvaged = try RunJournal.unfinished(gitDirectory: workspace.commonDirectory)
        #expect(salvaged.first?.entries.map(\.ref) == ["refs/heads/t4"])
        // Settled by its re-run: the file is in the line format, its content the same but how it ended.
        try encoded.write(to: URL(fileURLWithPath: path))
        let rerun = try Transaction.journalled(workspace, command: "tenant add", arguments: ["t4", "--from", "t2"]) {
            $0.runId
        }
        let settled = try RunJournal.read(gitDirectory: workspace.commonDirectory, runId: old.runId)
        var expected = old
        expected.state = .finished
        expected.finishedBy = rerun
        #expect(settled == expected)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)).starts(with: Data(#"{"begin":"#.utf8)))
        #expect(try RunJournal.unfinished(gitDirectory: workspace.commonDirectory).isEmpty)
    }

    /// A command that stopped with something left to finish, whose journal cannot record that (here the file is
    /// replaced by a directory, which no one can write, root included), is not taken for a run that changed
    /// nothing: the error says so and names the journal file; and a step the journal cannot record is refused
    /// before the change it records. Positive control: with the journal writable, the same stop leaves the run
    /// unfinished with the command's own error.
    @Test func aJournalThatCannotBeWrittenStopsTheRunNamingItsFile() throws {
        let sandbox = try GitSandbox()
        let workspace = try JournalledRunTests.workspace(sandbox)
        func breakJournal(_ transaction: Transaction) throws {
            try FileManager.default.removeItem(atPath: transaction.path)
            try FileManager.default.createDirectory(
                atPath: transaction.path + "/blocked", withIntermediateDirectories: true)
        }
        var path = ""
        do {
            _ = try Transaction.journalled(
                workspace, command: "tag", arguments: ["M1"], unfinished: { _ in true }
            ) { transaction -> Int in
                path = transaction.path
                try breakJournal(transaction)
                throw Boom()
            }
            Issue.record("no error")
        } catch {
            #expect(!(error is Boom), "the journal's failure was swallowed: \(error)")
            #expect(String(describing: error).contains("boom"), "\(error)")
            #expect(String(describing: error).contains(path), "\(error)")
        }
        try FileManager.default.removeItem(atPath: path)

        var changed = false
        do {
            _ = try Transaction.journalled(workspace, command: "tag", arguments: ["M1"]) { transaction -> Int in
                path = transaction.path
                try breakJournal(transaction)
                try transaction.record(
                    repository: "superproject",
                    refs: [try RefUpdate(checking: "refs/tags/M1", new: Self.head, old: nil)],
                    published: nil, landed: nil)
                changed = true
                return 0
            }
            Issue.record("no error")
        } catch {
            #expect(String(describing: error).contains(path), "\(error)")
        }
        #expect(!changed)
        try FileManager.default.removeItem(atPath: path)

        // Positive control.
        #expect(throws: Boom.self) {
            try Transaction.journalled(workspace, command: "tag", arguments: ["M1"], unfinished: { _ in true }) {
                _ -> Int in throw Boom()
            }
        }
        let unfinished = try RunJournal.unfinished(gitDirectory: workspace.commonDirectory)
        #expect(unfinished.count == 1 && unfinished.first?.commandName == "tag")
    }
}
