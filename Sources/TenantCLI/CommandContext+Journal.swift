import ArgumentParser
import Foundation
import TenantKit

extension CommandContext {
    /// Runs `body` as a journalled run of `command` (``Transaction/journalled(_:command:arguments:aborting:unfinished:stopped:_:)``);
    /// the arguments recorded are the command line's, without the global options and `--wait`, unless given.
    func journalled<Result>(
        _ workspace: Workspace, command: String, arguments: [String]? = nil, aborting: Bool = false,
        unfinished: (any Error) -> Bool = { _ in false }, stopped: (Result) -> (any Error)? = { _ in nil },
        _ body: (Transaction) throws -> Result
    ) throws -> Result {
        try Transaction.journalled(
            workspace, command: command, arguments: arguments ?? rerunArguments(command: command), aborting: aborting,
            unfinished: unfinished, stopped: stopped, body)
    }

    /// Refuses while a run of another command than `command` is unfinished (roll, which journals its run only when it
    /// publishes something); returns the unfinished runs of `command` itself that this run goes on from.
    func unfinishedRuns(_ workspace: Workspace, command: String, arguments: [String]? = nil) throws -> [RunJournal] {
        try Transaction.unfinishedRuns(
            workspace, allowing: command, arguments: arguments ?? rerunArguments(command: command))
    }

    /// The words after `command` on the command line, without `--wait` and the global options
    /// other than `--remote` and `--allow-local-remotes`: what re-runs it.
    func rerunArguments(command: String) -> [String] {
        var words = environment.arguments
        for word in command.split(separator: " ") where words.first == String(word) { words.removeFirst() }
        var kept: [String] = []
        var index = words.startIndex
        while index < words.endIndex {
            let word = words[index]
            index += 1
            if word == "--" {
                kept += words[index...]
                break
            }
            // The options that change what the command does stay: the remote, local remotes allowed.
            if word == "--allow-local-remotes" || word.hasPrefix("--remote=") {
                kept.append(word)
                continue
            }
            if word == "--remote", index < words.endIndex {
                kept += [word, words[index]]
                index += 1
                continue
            }
            if GlobalOptions.flagNames.contains(word) || ["-qv", "-vq", "--wait"].contains(word) { continue }
            if GlobalOptions.valuedNames.contains(word) {
                index += 1
                continue
            }
            if GlobalOptions.valuedNames.contains(where: { $0.hasPrefix("--") && word.hasPrefix($0 + "=") })
                || (word.hasPrefix("-C") && word.count > 2)
            {
                continue
            }
            kept.append(word)
        }
        return kept
    }
}
