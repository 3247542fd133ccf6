import Foundation
import TenantKit
import Testing

/// The roll journal is written by hand (it is rewritten after every push); the bytes are `JSONEncoder`'s.
@Suite struct RollJournalEncodingTests {
    static func encoderBytes(_ journal: RollJournal) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(journal)
    }

    static let awkward = [
        "plain", "", "quote \" backslash \\ slash / tab \t newline \n return \r",
        "bell \u{07} escape \u{1B} del \u{7F}",
        "umlauts äöü, emoji 🧪, bidi \u{202E}", "https://user:secret@example.com/Order.git", "\u{0}\u{1F}",
    ]

    @Test(arguments: [0, 1, 3])
    func sameBytesAsJSONEncoder(entries count: Int) throws {
        var journal = RollJournal(runId: "20261122-140000-abcdef", createdAt: "2026-11-22T14:00:00Z", entries: [])
        for index in 0..<count {
            let text = Self.awkward[index % Self.awkward.count]
            var entry = RollJournal.Entry(
                repository: index == 0 ? "superproject" : text, remote: text, ref: "refs/heads/t\(index)",
                old: index == 1 ? nil : String(repeating: "a", count: 40), new: String(repeating: "b", count: 40),
                published: [nil, true, false][index % 3])
            if index == 2 { entry.undone = true }
            journal.entries.append(entry)
        }
        #expect(journal.encoded() == (try Self.encoderBytes(journal)))
        journal.undoneAt = "2026-11-22T15:00:00Z \u{7}"
        journal.entries.append(
            RollJournal.Entry(
                repository: Self.awkward[2], remote: Self.awkward[4], ref: "refs/heads/x", old: nil, new: ""))
        #expect(journal.encoded() == (try Self.encoderBytes(journal)))
        // And it reads back.
        #expect(try JSONDecoder().decode(RollJournal.self, from: journal.encoded()) == journal)
    }

    @Test func everyAwkwardStringAsEveryField() throws {
        for text in Self.awkward {
            var journal = RollJournal(
                runId: text, createdAt: text,
                entries: [
                    RollJournal.Entry(repository: text, remote: text, ref: text, old: text, new: text, published: true)
                ])
            journal.undoneAt = text
            journal.entries[0].undone = false
            #expect(journal.encoded() == (try Self.encoderBytes(journal)), "\(text.debugDescription)")
        }
    }

    /// The envelope every writing command's journal carries (command, arguments, worktree, state, the repositories
    /// before, a local step's `landed`) is written by the same hand encoder, byte for byte as `JSONEncoder`.
    @Test(arguments: [0, 2])
    func theEnvelopeHasTheSameBytesAsJSONEncoder(entries count: Int) throws {
        for text in Self.awkward {
            var journal = RunJournal(runId: "20261122-140000-abcdef", createdAt: text, entries: [])
            journal.command = "tenant add"
            journal.arguments = count == 0 ? [] : [text, "--from", "t2"]
            journal.worktree = text
            journal.state = .running
            journal.before =
                count == 0
                ? []
                : [
                    .init(repository: "superproject", branch: text, head: nil),
                    .init(repository: text, branch: nil, head: "a"),
                    Self.switchBefore(text, started: true), Self.switchBefore(text, started: false),
                ]
            journal.error = count == 0 ? nil : text
            journal.finishedBy = count == 0 ? nil : text
            for index in 0..<count {
                var entry = RunJournal.Entry(
                    repository: text, remote: "", ref: "refs/heads/t\(index)", old: nil, new: text, published: nil)
                entry.landed = index == 0
                journal.entries.append(entry)
            }
            #expect(journal.encoded() == (try Self.encoderBytes(journal)), "\(text.debugDescription)")
            #expect(try JSONDecoder().decode(RunJournal.self, from: journal.encoded()) == journal)
        }
    }

    /// A switch's record of a repository: every field set (`started` false: the optional ones left out but
    /// `targetBranchTip`).
    static func switchBefore(_ text: String, started: Bool) -> RunJournal.Before {
        var before = RunJournal.Before(repository: text, branch: started ? nil : text, head: started ? nil : "a")
        before.path = text
        before.targetBranch = text
        before.targetBranchTip = text
        before.target = text
        before.initialises = !started
        before.started = started
        before.movedFrom = started ? text : nil
        return before
    }

    /// A roll journal written before the envelope existed still reads: a roll that ended, not an unfinished run.
    @Test func aJournalWithoutTheEnvelopeIsARollThatEnded() throws {
        let old = """
            {
              "createdAt" : "2026-11-01T10:00:00Z",
              "entries" : [
                {
                  "new" : "bbbb",
                  "old" : "aaaa",
                  "published" : true,
                  "ref" : "refs/heads/t1",
                  "remote" : "origin",
                  "repository" : "superproject"
                }
              ],
              "runId" : "20261101-100000-abcdef",
              "schemaVersion" : 1
            }
            """
        let journal = try JSONDecoder().decode(RunJournal.self, from: Data(old.utf8))
        #expect(journal.commandName == "roll")
        #expect(!journal.isUnfinished)
        #expect(journal.abortCommand == "tenantctl roll --undo 20261101-100000-abcdef")
        // Positive control: the same journal marked running is unfinished, until undone.
        var running = journal
        running.state = .running
        #expect(running.isUnfinished)
        running.undoneAt = "2026-11-01T11:00:00Z"
        #expect(!running.isUnfinished)
    }

    /// `unfinished` finds a running journal by its last bytes, also behind thousands of entries, and only that one.
    @Test func unfinishedFindsARunningJournalOfAnySize() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString).path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        for (index, state) in [RunJournal.State.finished, .running, .failed, .running].enumerated() {
            var journal = RunJournal(runId: "2026112\(index)-000000-abcdef", createdAt: "t", entries: [])
            journal.command = "roll"
            journal.state = state
            journal.worktree = "/work/app"
            for module in 0..<(index == 1 ? 2000 : 2) {
                journal.entries.append(
                    .init(
                        repository: "Module\(module)", remote: "origin", ref: "refs/heads/t\(module)", old: nil,
                        new: String(repeating: "b", count: 40), published: nil))
            }
            if index == 3 { journal.undoneAt = "u" }  // taken back: not unfinished
            try journal.write(gitDirectory: directory)
        }
        #expect(try RunJournal.unfinished(gitDirectory: directory).map(\.runId) == ["20261121-000000-abcdef"])
        // Positive control: the big journal really is bigger than the tail read.
        let size =
            try FileManager.default.attributesOfItem(
                atPath: RunJournal.path(gitDirectory: directory, runId: "20261121-000000-abcdef"))[.size] as? Int
        #expect((size ?? 0) > 100_000)
    }

    /// Two runs started in the same second: their ids sort in the order they started, whatever the random digits
    /// (before, the suffix was random only and `runs` listed them in either order).
    @Test func runIdsOfTheSameSecondSortByTheirStart() {
        let second = 1_700_000_000.0
        for _ in 0..<50 {
            let first = RunJournal.newRunId(date: Date(timeIntervalSince1970: second + 0.004))
            let later = RunJournal.newRunId(date: Date(timeIntervalSince1970: second + 0.006))
            let last = RunJournal.newRunId(date: Date(timeIntervalSince1970: second + 0.999))
            #expect([last, later, first].sorted() == [first, later, last], "\(first) \(later) \(last)")
            #expect(first.range(of: #"^\d{8}-\d{6}-[0-9a-f]{6}$"#, options: .regularExpression) != nil, "\(first)")
            #expect(first.hasPrefix("20231114-221320-004"), "\(first)")
        }
    }

    /// A journal that says `running` but cannot be decoded is an error naming the file, not a finished run: the
    /// other writing commands must not go on as if nothing were unfinished. Positive control: the same directory
    /// with the file whole lists the run.
    @Test func anUnreadableRunningJournalIsAnErrorNotAFinishedRun() throws {
        let directory = try TemporaryDirectory(prefix: "tenantctl-journal-")
        defer { directory.remove() }
        var journal = RunJournal(runId: "20260101-000000-000abc", createdAt: "2026-01-01T00:00:00Z", entries: [])
        journal.command = "tenant add"
        journal.state = .running
        try journal.write(gitDirectory: directory.url.path)
        #expect(try RunJournal.unfinished(gitDirectory: directory.url.path).map(\.runId) == [journal.runId])
        let path = RunJournal.path(gitDirectory: directory.url.path, runId: journal.runId)
        try Data(#"{ "command" : "tenant add", "state" : "running" "#.utf8).write(to: URL(fileURLWithPath: path))
        #expect {
            _ = try RunJournal.unfinished(gitDirectory: directory.url.path)
        } throws: { error in
            String(describing: error).contains(path)
        }
    }
}
