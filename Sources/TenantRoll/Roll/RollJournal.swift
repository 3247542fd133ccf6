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

    /// Adds the refs of `repository` planned after the journal began (the superproject's branches of a pipelined
    /// roll), before any of them is pushed. A failed write is kept like ``record(repository:refs:published:)``'s.
    public func plan(repository: String, remote: String, refs: [RefUpdate]) throws(DurableFileError) {
        do {
            try transaction.recordPlanned(repository: repository, remote: remote, refs: refs)
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

    /// The journal file.
    public var path: String { transaction.path }

    /// Ends the run: `failed` with the error that stopped it (`stoppedBy`), `finished` when nil. A journal that
    /// cannot record the end is not passed over: the error names the file, what stopped the roll and what landed.
    public func end(stoppedBy stop: (any Error)?) throws(RollError) {
        do {
            try end(stop == nil ? .finished : .failed, error: stop.map { String(describing: $0) })
        } catch {
            throw unendedError(error, stoppedBy: stop)
        }
    }

    /// The error for a journal that could not be rewritten while publishing (`failure`): what already landed, by
    /// repository and branch, that the journal on disk may not show yet, and how to go on.
    public func unrecordedError(_ failure: DurableFileError) -> RollError {
        let runId = current.runId
        return RollError(
            "cannot record the roll's pushes in its journal: \(failure.description)\n\(landedSummary) (the journal "
                + "\(runId) on disk may not say so yet)\nfree some space, then " + Self.waysOn(runId))
    }

    /// The error for a journal that could not record the run's end (`failure`): what stopped the roll (nil: it ran
    /// to its end), what landed, and how to go on; the journal on disk still says the run is under way.
    func unendedError(_ failure: DurableFileError, stoppedBy error: (any Error)?) -> RollError {
        let runId = current.runId
        let stopped =
            error.map { "the roll stopped with an error: \(String(describing: $0))" }
            ?? "the roll published what it could; only its end is missing from the journal"
        return RollError(
            "cannot record the end of roll \(runId) in its journal: \(failure.description)\n\(stopped)\n"
                + "\(landedSummary) (the journal on disk still says the roll is running)\nfree some space, then "
                + Self.waysOn(runId))
    }

    /// The branches that landed, by repository: `already pushed: Order (t3), superproject (t1, t3)`.
    var landedSummary: String {
        var landed: [String: [String]] = [:]
        var order: [String] = []
        for entry in current.entries where entry.published == true {
            if landed[entry.repository] == nil { order.append(entry.repository) }
            let ref = entry.ref
            landed[entry.repository, default: []].append(
                ref.hasPrefix("refs/heads/") ? String(ref.dropFirst("refs/heads/".count)) : ref)
        }
        return order.isEmpty
            ? "nothing is known to have been pushed"
            : "already pushed: "
                + order.map { "\($0) (\(landed[$0, default: []].joined(separator: ", ")))" }.joined(separator: ", ")
    }

    /// The two ways on from a roll whose journal could not be written, as commands that run as printed.
    static func waysOn(_ runId: String) -> String {
        "run `tenantctl roll` again: it finds what landed on the remotes and finishes the roll; or take it back "
            + "with `tenantctl roll --undo \(runId)`"
    }
}
