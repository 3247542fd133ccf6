import Foundation

extension Transaction {
    /// Runs `body` as a journalled run of `command`: refuses while another command's run is unfinished, writes the
    /// journal before the first change, and ends it finished, or failed when `body` throws. An interrupted run
    /// (Ctrl-C, SIGTERM) and one for which `unfinished` says so stays `running`: its re-run finishes it. A body that
    /// returns a result for which `stopped` gives an error (a push refused, reported in the result) ends the run as a
    /// thrown error does (``fail(_:)``): unfinished when part of it landed. With `aborting` (`resolve --abort`, a
    /// switch putting back a stopped one) the unfinished runs it went on from end aborted, not finished.
    /// `arguments`: the words that re-run the command.
    public static func run<Result>(
        _ workspace: Workspace, command: String, arguments: [String], aborting: Bool = false,
        unfinished: (any Error) -> Bool = { _ in false }, stopped: (Result) -> (any Error)? = { _ in nil },
        _ body: (Transaction) throws -> Result
    ) throws -> Result {
        let transaction = try Transaction.begin(workspace, command: command, arguments: arguments)
        let result: Result
        do {
            result = try body(transaction)
        } catch {
            if !Cancellator.shared.isCancelled && !unfinished(error) { transaction.fail(error) }
            throw error
        }
        if let error = stopped(result) {
            transaction.fail(error)
            return result
        }
        try transaction.finish(resumed: aborting ? .aborted : .finished)
        return result
    }
}
