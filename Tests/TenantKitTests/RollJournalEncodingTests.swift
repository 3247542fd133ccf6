import Foundation
import Testing

@testable import TenantKit

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
}
