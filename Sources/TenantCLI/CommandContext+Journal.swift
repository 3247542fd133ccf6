import ArgumentParser
import Foundation
import TenantKit

extension CommandContext {
    /// The words after `command` on the command line, without `--wait` and the global options
    /// other than `--remote` and `--allow-local-remotes`: what re-runs it, kept in the run's journal.
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
