import Foundation

extension Transaction {
    /// Runs `body` as a journalled run of `command` with `arguments` (the words that re-run it): ``begin(_:command:arguments:before:)``
    /// refuses while another command's run is unfinished and writes the journal before the first change; the run
    /// ends finished, or failed when `body` throws (``fail(_:)``). An interrupted run (Ctrl-C, SIGTERM) and one for
    /// which `unfinished` says so stays `running`: its re-run finishes it. A body that returns a result for which
    /// `stopped` gives an error (a push refused, reported in the result) ends the run as a thrown error does:
    /// unfinished when part of it landed. With `aborting` (`resolve --abort`) the unfinished runs it went on from
    /// end aborted, not finished; `settling` names the state a given one ends in instead (`roll --undo <id>`: roll
    /// <id> aborted, a stopped undo of it finished).
    public static func journalled<Result>(
        _ workspace: Workspace, command: String, arguments: [String], aborting: Bool = false,
        settling: [String: RunJournal.State] = [:],
        unfinished: (any Error) -> Bool = { _ in false }, stopped: (Result) -> (any Error)? = { _ in nil },
        _ body: (Transaction) throws -> Result
    ) throws -> Result {
        let transaction = try begin(workspace, command: command, arguments: arguments)
        let result: Result
        do {
            result = try body(transaction)
        } catch {
            if unfinished(error) {
                // The command says it left something to finish: the run got past its first change. A journal that
                // cannot say so must not let the run pass for one that never started.
                do {
                    try transaction.recordChanged()
                } catch let journalError {
                    throw UnrecordedRunError(
                        cause: String(describing: error), journal: transaction.path,
                        write: String(describing: journalError))
                }
            } else if !Cancellator.shared.isCancelled {
                throw transaction.fail(error)
            }
            throw error
        }
        if let error = stopped(result) {
            // The result reports the refusal; a journal that cannot record it is an error of its own.
            if let unwritten = transaction.fail(error) as? JournalEndError { throw unwritten }
            return result
        }
        try transaction.finish(resumed: aborting ? .aborted : .finished, settling: settling)
        return result
    }
}

/// A run stopped with something left to finish, and its journal could not record that: the user is told both, with
/// the journal file, so that nobody takes the run for one that changed nothing.
public struct UnrecordedRunError: Error, Sendable, CustomStringConvertible {
    /// Why the run stopped.
    public var cause: String
    /// The journal file.
    public var journal: String
    /// Why it could not be written.
    public var write: String

    public var description: String {
        "\(cause)\nits journal \(journal) could not record that the run changed something (\(write)); until it can "
            + "be written, `tenantctl runs` may show the run as not started: check each repository with git status"
    }
}
