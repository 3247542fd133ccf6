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
                not). This lists them, oldest first: on a terminal the newest \(RunsListing.terminalLimit), saying how \
                many older ones it left out (--limit <n> shows the newest <n>, --limit 0 all; off a terminal and \
                with --json every run unless --limit is given).

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
                  tenantctl runs --limit 5
                  tenantctl runs --json | jq -r '.runs[-1].runId'
                  tenantctl runs --json | jq '.runs[] | select(.state == "unfinished")'
                """)

        @Option(
            help: ArgumentHelp(
                "Show the newest <n> runs (0: all; default on a terminal: \(RunsListing.terminalLimit), else all).",
                valueName: "n"))
        var limit: Int?

        @OptionGroup(title: "Global Options") var global: GlobalOptions

        var pagesOutput: Bool { true }

        func validate() throws {
            if let limit, limit < 0 { throw ValidationError("--limit \(limit): give 0 (all) or more") }
        }

        func run(context: CommandContext) throws -> ExitStatus {
            let workspace = try context.workspace()
            let listing = try RunsListing.run(
                workspace: workspace,
                limit: limit ?? (context.environment.stdoutIsTerminal && !global.json ? RunsListing.terminalLimit : 0))
            let runs = listing.runs
            for warning in listing.warnings { context.console.warn(warning) }
            if context.options.json {
                context.console.data(try JSONOutput.encode(RunsJSON(runs: runs)))
                return .success
            }
            if listing.leftOut > 0 {
                context.console.print(
                    "\(English.count(listing.leftOut, "older run")) not shown (tenantctl runs --limit 0 lists all)")
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
            for run in listing.unfinished {
                context.console.print(
                    "\(run.runId) is unfinished: finish it with \(run.waysOut.joined(separator: ", or take it back with "))"
                )
            }
            return .success
        }
    }
}
