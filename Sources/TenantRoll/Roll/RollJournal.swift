import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// roll's journal: one case of the journal every writing command keeps (``RunJournal``).
public typealias RollJournal = RunJournal

/// Keeps a run's journal on disk up to date while its pushes land: every outcome is appended to it (one line,
/// flushed to the disk) as soon as it is known, through the run's ``Transaction``, so an interrupted or failed run
/// still tells `--undo` what reached a remote. Safe to call from the concurrent module pushes.
public final class RollJournalRecorder: Sendable {
    private let transaction: Transaction
    /// The first write that failed: no push starts after it.
    private let failure = Locked<DurableFileError?>(nil)

    /// Writes `journal` (every entry not yet published) before anything is pushed.
    public init(_ journal: RollJournal, gitDirectory: String) throws {
        do {
            transaction = try Transaction.begin(planned: journal, gitDirectory: gitDirectory)
        } catch {
            throw RollError("cannot write the roll journal: \(error.description); nothing was published")
        }
    }

    /// Records the answer of one repository's push for the refs it carried: `true` landed, `false` refused, `nil`
    /// unknown (the push broke off).
    /// The outcome is kept in memory even when the file cannot be written: the ``DurableFileError`` thrown then
    /// is turned into a message by ``unrecordedError(_:)`` once publishing stopped.
    public func record(repository: String, refs: [String], published: Bool?) throws(DurableFileError) {
        do {
            try transaction.recordAnswer(repository: repository, refs: refs, published: published)
        } catch {
            self.failure.withLock { if $0 == nil { $0 = error } }
            throw error
        }
    }

    /// Ends the run: `finished` once publishing returned (the entries say what landed), `failed` on an error.
    public func end(_ state: RunJournal.State, error: String?) throws(DurableFileError) {
        try transaction.end(state, error: error)
    }

    /// Throws the journal's write failure, if one happened: a push must not start that the journal cannot record.
    public func requireWritable() throws(DurableFileError) {
        if let failure = failure.current { throw failure }
    }

    /// The journal as recorded so far.
    public var current: RollJournal { transaction.current }

    /// The error for a journal that could not be rewritten while publishing (`failure`): what already landed, by
    /// repository and branch, that the journal on disk may not show yet, and how to go on.
    public func unrecordedError(_ failure: DurableFileError) -> RollError {
        let journal = current
        var landed: [String: [String]] = [:]
        var order: [String] = []
        for entry in journal.entries where entry.published == true {
            if landed[entry.repository] == nil { order.append(entry.repository) }
            let ref = entry.ref
            landed[entry.repository, default: []].append(
                ref.hasPrefix("refs/heads/") ? String(ref.dropFirst("refs/heads/".count)) : ref)
        }
        let pushed =
            order.isEmpty
            ? "nothing is known to have been pushed"
            : "already pushed: "
                + order.map { "\($0) (\(landed[$0, default: []].joined(separator: ", ")))" }.joined(separator: ", ")
        return RollError(
            "cannot record the roll's pushes in its journal: \(failure.description)\n\(pushed) (the journal "
                + "\(journal.runId) on disk may not say so yet)\nfree some space, then "
                + "run `tenantctl roll` again: it finds what landed on the remotes and finishes the roll; or take it "
                + "back with `tenantctl roll --undo \(journal.runId)`")
    }
}
