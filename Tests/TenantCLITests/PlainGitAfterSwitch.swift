import Foundation
import TenantTestSupport
import Testing

/// No switch exits 0 leaving plain git broken: after every `tenantctl switch` of the tests that exits 0 (not a dry
/// run), plain `git status` (without its optional index lock: a check writes nothing) runs in every repository of the working copy the switch can have touched (the
/// superproject, each module checkout and each nested checkout, found through the gitlinks of each index) and must
/// succeed; a failure is recorded against the test, naming the repository and git's words. ``GitSandbox/tenantctl``
/// and ``GitSandbox/tenantctlProcess`` call it, so every switch scenario of the suites is checked.
enum PlainGitAfterSwitch {
    /// Checks after `tenantctl <arguments>` in `directory` exited with `status`; does nothing for another command,
    /// a dry run, a help or a failed switch.
    static func check(
        _ arguments: [String], status: Int32, in directory: String, sandbox: GitSandbox,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        // `-C <dir>`, before or after the command, relative to where tenantctl ran.
        var words = arguments
        var directory = directory
        if let option = words.firstIndex(of: "-C"), option + 1 < words.count {
            let named = words[option + 1]
            directory = named.hasPrefix("/") ? named : directory + "/" + named
            words.removeSubrange(option...(option + 1))
        }
        guard status == 0, words.first == "switch",
            !words.contains(where: { ["--dry-run", "--help", "-h"].contains($0) })
        else { return }
        for failure in failures(in: directory, sandbox: sandbox) {
            Issue.record(
                "tenantctl \(arguments.joined(separator: " ")) exited 0, but plain git fails: \(failure)",
                sourceLocation: sourceLocation)
        }
    }

    /// Every repository of the working copy at `directory` (or above it) where plain `git status` fails, with git's
    /// words; empty when it works everywhere.
    static func failures(in directory: String, sandbox: GitSandbox) -> [String] {
        let top: String
        do {
            let found = try sandbox.gitResult(["rev-parse", "--show-toplevel"], in: directory)
            guard found.status == 0 else { return ["\(directory): git rev-parse --show-toplevel: \(found.stderr)"] }
            top = found.stdout.trimmingCharacters(in: .newlines)
        } catch {
            return ["\(directory): \(error)"]
        }
        var failures: [String] = []
        var pending = [top]
        while let repository = pending.popLast() {
            do {
                let status = try sandbox.gitResult(["--no-optional-locks", "status"], in: repository)
                guard status.status == 0 else {
                    failures.append("git status in \(repository) exited \(status.status): \(status.stderr)")
                    continue
                }
                let listed = try sandbox.gitResult(["ls-files", "-z", "--stage"], in: repository)
                for record in listed.stdout.split(separator: "\0") where record.hasPrefix("160000 ") {
                    guard let tab = record.firstIndex(of: "\t") else { continue }
                    let nested = repository + "/" + record[record.index(after: tab)...]
                    if FileManager.default.fileExists(atPath: nested + "/.git") { pending.append(nested) }
                }
            } catch {
                failures.append("\(repository): \(error)")
            }
        }
        return failures
    }
}
