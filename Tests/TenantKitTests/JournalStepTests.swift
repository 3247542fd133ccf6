import Foundation
import TenantKit
import Testing

@testable import TenantTransaction

/// The journal's steps are of three kinds: a ref's change, a checkout's HEAD, a checkout's move (its values are
/// paths). Each reads from the bytes a switch wrote into the kind it is, and writes back byte for byte; only a ref
/// step is a ref change git can make.
@Suite struct JournalStepTests {
    static let head = "ef9265f78e9cf6d90ddd9c482833b2082f680c65"
    static let before = "aa68607dd863fdab49ce52d466636b9938391b5f"

    /// A switch that moved a module's checkout to a new path, as tenantctl writes its journal (the move's step
    /// holds paths where the other steps hold object ids).
    static let movedCheckout = #"""
        {"begin":{"arguments":["t2"],"before":[],"changed":false,"command":"switch","createdAt":"2026-11-27T08:10:10Z","entries":[],"runId":"20261127-081010-0c6852","schemaVersion":1,"state":"running","worktree":"/tmp/hs/ex/workspace"}}
        {"started":"Order"}
        {"record":{"landed":true,"refs":[{"new":"Modules/Orders","old":"Modules/Order","ref":"checkout-path"}],"remote":"","repository":"Order"}}
        {"record":{"landed":true,"refs":[{"new":"ef9265f78e9cf6d90ddd9c482833b2082f680c65","old":"aa68607dd863fdab49ce52d466636b9938391b5f","ref":"HEAD"},{"new":"ef9265f78e9cf6d90ddd9c482833b2082f680c65","ref":"refs/heads/t2"}],"remote":"","repository":"Order"}}
        {"end":{"state":"finished"}}
        """#

    @Test func aCheckoutMoveReadsAsOneAndWritesBackByteForByte() throws {
        let data = Data((Self.movedCheckout + "\n").utf8)
        let lines = try data.split(separator: 0x0A).map {
            try JSONDecoder().decode(RunJournal.Line.self, from: Data($0))
        }
        #expect(RunJournal.encode(lines) == data)
        let steps = lines.compactMap(\.record).flatMap(\.refs)
        let head = try #require(ObjectID(Self.head))
        let before = try #require(ObjectID(Self.before))
        let branch = try #require(RefName("refs/heads/t2"))
        #expect(
            steps == [
                .checkoutMove(to: "Modules/Orders", from: "Modules/Order"),
                .head(new: head, old: before),
                .ref(RefUpdate(ref: branch, new: head, old: nil)),
            ])
        // Only the ref step is a ref change.
        #expect(steps.map { $0.refUpdate != nil } == [false, false, true])
        // Replayed, the move is the entry a put-back reads: its paths as they were written.
        let journal = try RunJournal.replay(data, path: "journal", runId: "run")
        let move = try #require(journal.entries.first { $0.ref == "checkout-path" })
        #expect(move.new == "Modules/Orders" && move.old == "Modules/Order" && move.landed == true)
        #expect(journal.state == .finished && journal.entries.count == 3)
    }

    @Test func eachKindWritesTheMembersTheJournalAlwaysHad() throws {
        let head = try #require(ObjectID(Self.head))
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        func text(_ step: JournalStep) throws -> String { String(decoding: try encoder.encode(step), as: UTF8.self) }
        #expect(
            try text(.checkoutMove(to: "Modules/Orders", from: "Modules/Order"))
                == #"{"new":"Modules/Orders","old":"Modules/Order","ref":"checkout-path"}"#)
        #expect(try text(.head(new: head, old: nil)) == #"{"new":"\#(Self.head)","ref":"HEAD"}"#)
        let verify = try RefUpdate(checking: "refs/heads/t4", new: nil, old: nil)
        #expect(try text(.ref(verify)) == #"{"ref":"refs/heads/t4"}"#)
    }

    @Test func aStepWhoseValueIsNotWhatItHoldsDoesNotRead() throws {
        let decoder = JSONDecoder()
        // Positive control: the well-formed step reads.
        let good = #"{"new":"\#(Self.head)","ref":"refs/heads/t2"}"#
        #expect(try decoder.decode(JournalStep.self, from: Data(good.utf8)).refUpdate != nil)
        // A ref step with a path for an id, a HEAD step without its commit, a ref that is no full ref name.
        for bad in [
            #"{"new":"Modules/Order","ref":"refs/heads/t2"}"#, #"{"old":"\#(Self.head)","ref":"HEAD"}"#,
            #"{"new":"\#(Self.head)","ref":"t2"}"#,
        ] {
            #expect(throws: DecodingError.self, "\(bad)") { try decoder.decode(JournalStep.self, from: Data(bad.utf8)) }
        }
    }
}
