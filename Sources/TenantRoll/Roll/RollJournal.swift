import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// roll's journal: one case of the journal every writing command keeps (``RunJournal``).
public typealias RollJournal = RunJournal

/// Keeps a run's journal on disk up to date while its pushes land: every outcome is written (temporary file, fsync,
/// rename) as soon as it is known, so an interrupted or failed run still tells `--undo` what reached a remote.
/// Safe to call from the concurrent module pushes.
public final class RollJournalRecorder: Sendable {
    private let journal: Locked<RollJournal>
    private let gitDirectory: String
    /// The first write that failed: no push starts after it.
    private let failure = Locked<DurableFileError?>(nil)

    /// Writes `journal` (every entry not yet published) before anything is pushed.
    public init(_ journal: RollJournal, gitDirectory: String) throws {
        self.journal = Locked(journal)
        self.gitDirectory = gitDirectory
        do {
            try journal.write(gitDirectory: gitDirectory)
        } catch {
            throw RollError("cannot write the roll journal: \(error.description); nothing was published")
        }
    }

    /// Records the answer of one repository's push for the refs it carried: `true` landed, `false` refused, `nil`
    /// unknown (the push broke off).
    /// The outcome is kept in memory even when the file cannot be rewritten: the ``DurableFileError`` thrown then
    /// is turned into a message by ``unrecordedError(_:)`` once publishing stopped.
    public func record(repository: String, refs: [String], published: Bool?) throws(DurableFileError) {
        let refSet = Set(refs)
        let gitDirectory = self.gitDirectory
        let failure = journal.withLock { (journal: inout RollJournal) -> DurableFileError? in
            for index in journal.entries.indices
            where journal.entries[index].repository == repository && refSet.contains(journal.entries[index].ref) {
                journal.entries[index].published = published
            }
            do throws(DurableFileError) {
                try journal.write(gitDirectory: gitDirectory)
                return nil
            } catch {
                return error
            }
        }
        if let failure {
            self.failure.withLock { if $0 == nil { $0 = failure } }
            throw failure
        }
    }

    /// Ends the run: `finished` once publishing returned (the entries say what landed), `failed` on an error.
    public func end(_ state: RunJournal.State, error: String?) throws(DurableFileError) {
        let gitDirectory = self.gitDirectory
        try journal.withLock { (journal: inout RollJournal) throws(DurableFileError) in
            journal.state = state
            journal.error = error
            try journal.write(gitDirectory: gitDirectory)
        }
    }

    /// Throws the journal's write failure, if one happened: a push must not start that the journal cannot record.
    public func requireWritable() throws(DurableFileError) {
        if let failure = failure.current { throw failure }
    }

    /// The journal as recorded so far.
    public var current: RollJournal { journal.current }

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
