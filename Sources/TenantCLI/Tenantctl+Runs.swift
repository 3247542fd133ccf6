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
                directory (.git/tenantctl/journal/<run-id>.json), begun before its first change, with one line \
                appended as each step lands (a line cut off by a full disk or a power loss is left out, and the \
                run is taken as unfinished): the command and its arguments, the worktree, each repository's branch and \
                HEAD before (switch, pin, resolve; --json `before`), the refs it changes (old and new value, pushed or \
                not). This lists them, oldest first: on a terminal the newest \(RunsListing.terminalLimit), saying how \
                many older ones it left out (--limit <n> shows the newest <n>, --limit 0 all; off a terminal and \
                with --json every run unless --limit is given).

                STATE is finished, failed (it stopped with an error it reported before anything of it landed, \
                or every step that landed was taken back again: nothing to finish), aborted (taken back by \
                `tenantctl runs --abort`, `tenantctl resolve --abort`, or a stopped switch put back by the next \
                switch), forgotten (`tenantctl runs --forget`), not started (killed while it fetched or checked, \
                before its first change: it changed nothing and blocks nothing), or unfinished: the run was killed \
                or interrupted after its first change, or stopped with an error (in the JSON's error) after part of \
                it landed. While a run is unfinished, every other writing command refuses before it changes \
                anything and names the ways out, each a command that runs as printed from where you are; status \
                mentions it.

                Ways out of an unfinished run, in the order they are printed (docs/GUARANTEES.md explains the \
                recovery model):
                1. Run the same command again: it finishes the job and the run ends finished (a switch's re-run \
                first puts back what the stopped switch moved, and the stopped one ends aborted).
                2. Take it back: `tenantctl runs --abort <run-id>` for a stopped pin or lifecycle command (tenant \
                add/remove, module add/remove, customize, tag) undoes what it left, newest step first, each only \
                while it is still exactly what the run left (a remote ref with a lease on the value the run \
                pushed; a local branch still at the run's commit, in the run's own worktree), and keeps and names \
                anything else (a colleague pushed on top, you committed). For a stopped resolve it takes the \
                resolution back as `tenantctl resolve --abort` does (your edits and commits kept and named). roll \
                has its own: `tenantctl roll --undo <run-id>`. A stopped `roll --undo` is finished by its re-run, \
                which puts back what is still where the roll left it and keeps and names each ref someone pushed \
                to since (exit 2).
                3. Give it up, where neither can succeed (a server that keeps refusing): `tenantctl runs --forget \
                <run-id>` first says what of the run is still on the remotes, then marks it forgotten: it blocks \
                nothing, and what it left stays. A module checkout that a killed switch was moving stays where it \
                is; when the move stopped between its steps, git's pointer to it (core.worktree, or its .git \
                file) is set to where it is, so that git works in it, and listed under "set right" (--json: \
                repaired).
                --abort and --forget are journalled runs themselves: killed half-way, their re-run goes on. With --json \
                they print what became of each step (undone, kept, untouched; docs/schemas/runs-abort.schema.json).

                A finished roll's STATE says what reached the remotes: published (every ref landed), partly \
                published, not published (every push was refused), unknown (a push broke off: --undo asks the \
                remote), partly undone (its `roll --undo` stopped half-way: run it again; or it kept refs someone pushed to \
                since, which it names again), or undone.

                A review roll (roll --review) is waiting while its proposals are open, finished when every one \
                landed, aborted by roll --abandon; its CHANGED column counts its proposals by state, and a waiting \
                one is named with its way on (tenantctl roll --land). --json has them as reviews (open, waiting, \
                landed, attention, the proposals still followed, next).

                Examples:
                  tenantctl runs
                  tenantctl runs --limit 5
                  tenantctl runs --json | jq -r '.runs[-1].runId'
                  tenantctl runs --json | jq '.runs[] | select(.state == "unfinished")'
                  tenantctl runs --json | jq '.runs[] | select(.state == "waiting") | .reviews'
                  tenantctl pin --push               # the re-run finishes a stopped pin
                  tenantctl runs --abort <run-id>    # take back what a stopped run pushed
                  tenantctl runs --forget <run-id>   # unblock; what it pushed stays
                  tenantctl runs --abort <run-id> --json | jq '.kept[].note'
                """)

        @Option(
            help: ArgumentHelp(
                "Show the newest <n> runs (0: all; default on a terminal: \(RunsListing.terminalLimit), else all).",
                valueName: "n"))
        var limit: Int?

        @Option(
            help: ArgumentHelp(
                "Take back the landed steps of that unfinished run, newest first, each only while it is still what "
                    + "the run left (others are kept and named); then it blocks nothing.",
                valueName: "run-id"))
        var abort: String?

        @Option(
            help: ArgumentHelp(
                "Say what of that unfinished run is still on the remotes, then mark it forgotten: it blocks nothing "
                    + "and its changes stay.",
                valueName: "run-id"))
        var forget: String?

        @OptionGroup var lockOptions: LockOptions

        @OptionGroup(title: "Global Options") var global: GlobalOptions

        var pagesOutput: Bool { abort == nil && forget == nil }

        func validate() throws {
            if let limit, limit < 0 { throw ValidationError("--limit \(limit): give 0 (all) or more") }
            if abort != nil && forget != nil { throw ValidationError("--abort and --forget cannot be combined") }
        }

        func run(context: CommandContext) throws -> ExitStatus {
            let workspace = try context.workspace()
            if let runId = abort,
                let (report, result) = try ResolveRun.abortRun(
                    runId: runId, workspace: workspace, wait: lockOptions.wait,
                    console: context.console)
            {
                // A resolve run: its resolution is taken back as `resolve --abort` does, and reported so; the JSON
                // is the one every `runs --abort` prints.
                if context.options.json {
                    context.console.data(try JSONOutput.encode(result))
                } else {
                    context.console.print(report.renderTable())
                }
                return .success
            }
            if let runId = abort ?? forget {
                let result =
                    try abort != nil
                    ? RunAbort.abort(runId: runId, in: workspace, wait: lockOptions.wait)
                    : RunAbort.forget(runId: runId, in: workspace, wait: lockOptions.wait)
                if context.options.json {
                    context.console.data(try JSONOutput.encode(result))
                    return .success
                }
                render(result, console: context.console)
                return .success
            }
            let listing = try RunsListing.run(
                workspace: workspace,
                limit: limit ?? (context.environment.stdoutIsTerminal && !global.json ? RunsListing.terminalLimit : 0))
            let runs = listing.runs
            for warning in listing.warnings { context.console.warn(warning) }
            if context.options.json {
                context.console.data(try JSONOutput.encode(RunsJSON(runs: runs, leftOut: listing.leftOut)))
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
                    // A review roll says how far its proposals are.
                    run.reviews.map { "proposals: \($0.summary)" }
                        ?? (run.refs.isEmpty
                            ? "-"
                            // Every push refused: the run changed nothing on any remote.
                            : run.refs.allSatisfy({ $0.published == false })
                                ? "nothing changed (\(English.count(run.refs.count, "ref")) refused)"
                                : "\(English.count(run.refs.count, "ref")) in \(run.repositories.joined(separator: ", "))"),
                ]
            }
            context.console.print(
                context.console.table(
                    TextTable(
                        header: ["RUN", "TIME", "COMMAND", "STATE", "CHANGED"], rows: rows, text: [1, 2, 3, 4])))
            for run in runs {
                guard let reviews = run.reviews, let next = reviews.next else { continue }
                context.console.print(
                    "\(run.runId) is waiting on reviews (\(reviews.summary)); the way on: \(next)")
                // A proposal closed without landing waits for the user's decision: both ways on.
                for line in reviews.lines().dropFirst() where line.contains("; propose it again: ") {
                    context.console.print(TerminalText.escaped(line))
                }
            }
            for run in listing.unfinished {
                context.console.print(
                    "\(run.runId) is unfinished; its ways out: \(run.waysOut.joined(separator: ", or "))")
            }
            return .success
        }

        /// The steps of a `--abort` or `--forget`, one line each, then what became of the run.
        private func render(_ result: RunAbort.Result, console: Console) {
            let forgetting = result.action == "forget"
            if !result.undone.isEmpty {
                console.print("taken back:")
                for step in result.undone { console.print("  " + TerminalText.escaped(step.line)) }
            }
            if !result.kept.isEmpty {
                console.print(forgetting ? "still as the run left it (it stays so):" : "kept:")
                for step in result.kept { console.print("  " + TerminalText.escaped(step.line)) }
            }
            if !result.untouched.isEmpty {
                console.print(forgetting ? "no longer as the run left it:" : "nothing to take back:")
                for step in result.untouched { console.print("  " + TerminalText.escaped(step.line)) }
            }
            if !result.repaired.isEmpty {
                console.print("set right, so that git works in it again (nothing else in it changed):")
                for step in result.repaired { console.print("  " + TerminalText.escaped(step.line)) }
            }
            console.print(
                "run \(result.runId) is \(forgetting ? "forgotten" : "aborted") (by run \(result.by)); it blocks "
                    + "nothing now")
        }
    }
}
