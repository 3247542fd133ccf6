import ArgumentParser
import Foundation
import TenantKit

extension Tenantctl {
    /// `tenantctl runs`: the journalled runs of every writing command.
    struct Runs: TenantctlCommand {
        static let configuration = CommandConfiguration(
            abstract: "List the journalled runs of every writing command: id, time, command, state, what changed.",
            discussion: """
                Every command that writes (switch, pin, resolve, customize, tenant add/remove, module add/remove, \
                tag, init, and a roll that changes a remote) keeps a journal under the superproject's common git \
                directory (.git/tenantctl/journal/<run-id>.json), written before its first change and rewritten \
                as each step lands: the command and its arguments, the worktree, each repository's branch and \
                HEAD before (switch, pin, resolve; --json `before`), the refs it changes (old and new value, pushed or \
                not). This lists them, oldest first.

                STATE is finished, failed (it stopped with an error it reported before anything of it landed, \
                leaving nothing to finish), aborted (taken back by `tenantctl resolve --abort`; a stopped switch \
                put back by the next switch), or unfinished: the run was killed or interrupted, or stopped with an \
                error (in the JSON's error) after part of it landed. While a run is unfinished, every other writing \
                command refuses and names the two \
                ways out: run the same command again (it finishes the job), or take it back where the command \
                has an abort (`tenantctl resolve --abort`, `tenantctl roll --undo <run-id>`; a switch's re-run \
                first puts back what the stopped switch moved). status mentions an unfinished run.

                A finished roll's STATE says what reached the remotes: published (every ref landed), partly \
                published, not published (every push was refused), unknown (a push broke off: --undo asks the \
                remote), or undone.

                Examples:
                  tenantctl runs
                  tenantctl runs --json | jq -r '.runs[-1].runId'
                  tenantctl runs --json | jq '.runs[] | select(.state == "unfinished")'
                """)

        @OptionGroup(title: "Global Options") var global: GlobalOptions

        func run(context: CommandContext) throws -> ExitStatus {
            let workspace = try context.workspace()
            let (journals, unreadable) = try RunJournal.all(gitDirectory: workspace.commonDirectory)
            let runs = journals.map(RunSummary.init)
            for (path, reason) in unreadable.sorted(by: { $0.key < $1.key }) {
                context.console.warn("cannot read \(path): \(reason)")
            }
            if context.options.json {
                context.console.data(try JSONOutput.encode(RunsJSON(runs: runs)))
                return .success
            }
            guard !runs.isEmpty else {
                context.console.print("no journalled runs (every command that writes keeps one)")
                return .success
            }
            let rows = runs.map { run -> [String] in
                [
                    // The time with a space, so that a narrow terminal wraps it; the run id is never cut.
                    run.runId, run.createdAt.replacingOccurrences(of: "T", with: " "),
                    TerminalText.escaped(([run.command] + run.arguments.map(ShellWord.quote)).joined(separator: " ")),
                    run.state,
                    run.refs.isEmpty
                        ? "-"
                        : "\(English.count(run.refs.count, "ref")) in \(run.repositories.joined(separator: ", "))",
                ]
            }
            context.console.print(
                context.console.table(
                    TextTable(
                        header: ["RUN", "TIME", "COMMAND", "STATE", "CHANGED"], rows: rows, text: [1, 2, 3, 4])))
            for run in journals where run.isUnfinished {
                let waysOut = run.waysOut(currentWorktree: workspace.root)
                context.console.print(
                    "\(run.runId) is unfinished: finish it with \(waysOut.joined(separator: ", or take it back with "))"
                )
            }
            return .success
        }
    }
}

/// One run in `tenantctl runs`.
struct RunSummary: Encodable {
    /// One ref the run changed.
    struct Ref: Encodable {
        var repository: String
        var ref: String
        var old: String?
        var new: String
        var published: Bool?
        var undone: Bool
    }

    var runId: String
    var createdAt: String
    /// The command's words (`tenant add`; `roll` for a journal written before commands other than roll kept one).
    var command: String
    /// The arguments that re-run it.
    var arguments: [String]
    /// The worktree it ran in (nil in a roll journal written before this was recorded).
    var worktree: String?
    /// unfinished, finished, failed, aborted; for a roll that ended: published, partly published, not published,
    /// unknown, undone.
    var state: String
    /// The run that finished this one (a re-run of the same command).
    var finishedBy: String?
    /// Why a failed run stopped.
    var error: String?
    var undoneAt: String?
    /// Each repository as the run found it before its first change (empty for a run that records none).
    var before: [RunJournal.Before]
    var repositories: [String]
    var refs: [Ref]

    init(_ journal: RunJournal) {
        runId = journal.runId
        createdAt = journal.createdAt
        command = journal.commandName
        arguments = journal.arguments ?? []
        worktree = journal.worktree
        finishedBy = journal.finishedBy
        error = journal.error
        undoneAt = journal.undoneAt
        before = journal.before ?? []
        var repositories: [String] = []
        for entry in journal.entries where !repositories.contains(entry.repository) {
            repositories.append(entry.repository)
        }
        self.repositories = repositories
        refs = journal.entries.map {
            Ref(
                repository: $0.repository, ref: $0.ref, old: $0.old, new: $0.new, published: $0.published,
                undone: $0.undone == true)
        }
        let published = journal.entries.map(\.published)
        if journal.isUnfinished {
            state = "unfinished"
        } else if journal.commandName != "roll" {
            state = (journal.state ?? .finished).rawValue
        } else if journal.undoneAt != nil {
            state = "undone"
        } else if published.contains(where: { $0 == nil }) {
            state = "unknown"
        } else if published.allSatisfy({ $0 == true }) {
            state = "published"
        } else if published.allSatisfy({ $0 == false }) {
            state = "not published"
        } else {
            state = "partly published"
        }
    }
}

/// `tenantctl runs --json`.
struct RunsJSON: Encodable {
    var schemaVersion = 1
    var runs: [RunSummary]
}
