import ArgumentParser
import TenantKit

extension Tenantctl {
    /// `tenantctl switch <tenant>`: the working copy becomes a tenant.
    struct Switch: WritingCommand {
        static let configuration = CommandConfiguration(
            commandName: "switch",
            abstract: "Make the working copy a tenant: superproject and every module on its branch at the pin.",
            discussion: """
                Checks out the tenant's superproject branch (created tracking origin, or fast-forwarded when \
                only behind), then reads modules.json and Tenants/ at that commit (a module or tenant added \
                since the last switch is found), sets up missing modules (an explicit clone and checkout, also \
                for `update = none`), syncs their URLs, and puts every module on a named branch: the tenant's \
                branch where the tenant customised the module, else general_dev. That branch's tip is the \
                pinned commit (annotated tags peeled): it is created at the pin with its upstream set, \
                fast-forwarded to it, or moved back to it. A local branch is moved back only when every commit \
                it leaves is on a remote-tracking branch (e.g. the general_dev `git clone --recurse-submodules` \
                created at the remote tip); the report says how many and where they are. Commits no remote \
                holds are your work: the switch is refused, naming them. switch never reports success with a \
                module off its pin. Nested submodules of the modules are initialised at the commits the modules \
                record (--no-recursive skips them). Only repositories whose state differs are touched. A tenant \
                branch without modules.json (an adopted superproject before its first roll) is planned from the \
                general branch's files and its own gitlinks; a module whose path moved between the branches is \
                found by its submodule name or URL, and its checkout is moved to where the branch has it, \
                with the links of its nested checkouts (.git files and core.worktree) as git mv keeps them. A \
                submodule the branch pins that modules.json does not name (a repository renamed or added with \
                plain git) is checked out at its pin too, as `git submodule update --init` would, and reported.

                Before changing anything, every repository is checked: no modified, staged or conflicted files, \
                no merge/rebase/cherry-pick/revert/bisect in progress, no stale lock file, no detached HEAD \
                holding commits no branch or remote contains, no local branch with commits no remote holds that \
                would have to move back, no untracked file the target would overwrite, no target branch checked \
                out in another worktree, no module directory that has files but is not its own repository or is \
                a symbolic link, no pin of a module to clone that its remote lacks (checked in the module \
                mirrors, fetched first), no local branch whose name clashes with one to create (t3/wip blocks t3), no \
                untracked or ignored file in a module checkout that the target replaces by a file, no \
                tenantctl resolve in progress (finish it with `tenantctl resolve --continue` or undo it with \
                `tenantctl resolve --abort`). On any finding every problem is listed, nothing is changed, and \
                the exit status is 1. Other untracked files are preserved. --dry-run prints the plan per \
                repository (branch, from → to, what would happen) and changes nothing.

                All or nothing: before the first change, the switch's run journal \
                (.git/tenantctl/journal/<run-id>.json) records every repository: its branch and commit, where \
                the switch takes it, and, as it goes, which ones it has started on and each change as it lands. \
                When a step fails, or the \
                switch is interrupted (Ctrl-C, SIGTERM: exit 130), every repository changed so far is put back \
                where it was before it exits. After a kill, the next tenantctl switch in the same worktree puts \
                back what was left, then switches; the stopped run ends aborted. It puts back only what the \
                switch made and is still as it left it: a repository holding changes the switch did not make \
                (an edited file, a commit) is kept as it is and named, the others are put back; \
                from another worktree it refuses, naming the command to run there. Module URLs come from modules.json (a \
                differing .gitmodules URL is reported), module clones use the remote origin whatever \
                clone.defaultRemoteName says, and a module leaving a branch with commits no remote has names \
                them and the push that publishes them.

                A killed switch is listed unfinished by `tenantctl runs` until a switch has run again; \
                meanwhile the other writing commands refuse, naming `tenantctl switch <tenant>`.

                `tenantctl switch -` goes back to the tenant this worktree was on before its last switch, as \
                `git switch -` does (each switch that changes the branch records it in the worktree's git \
                directory, tenantctl/previous-tenant).

                Examples:
                  tenantctl switch t2
                  tenantctl switch t2 --dry-run
                  tenantctl switch general_dev --no-fetch
                  tenantctl switch -                      # back to t2
                  tenantctl switch t3 --no-recursive --json
                """)

        @OptionGroup(title: "Global Options") var global: GlobalOptions

        /// `, with its nested checkout external/x (its links moved too)` for the nested checkouts a move takes along.
        static func nestedMoved(_ paths: [String]) -> String {
            guard !paths.isEmpty else { return "" }
            let listed = paths.map { TerminalText.escaped($0) }.joined(separator: ", ")
            return ", with its nested checkout\(paths.count == 1 ? "" : "s") \(listed) (.git file"
                + "\(paths.count == 1 ? "" : "s") and core.worktree pointed at the new place)"
        }

        @Argument(
            help: "The tenant (id or branch), general_dev for the development view, or - for the previous one.",
            completion: NameCompletion.tenants(general: true))
        var tenant: String

        @Flag(help: "Do not initialise or update the modules' own (nested) submodules.")
        var noRecursive = false

        @OptionGroup var fetchOptions: FetchOptions

        @OptionGroup var writeOptions: WriteOptions

        func run(context: CommandContext) throws -> ExitStatus {
            try context.runOnWorkingCopy { workspace in
                try SwitchRun(
                    target: tenant, dryRun: writeOptions.dryRun, fetch: fetchOptions.fetch, recursive: !noRecursive,
                    wait: lockOptions.wait, arguments: context.rerunArguments(command: "switch")
                ).run(workspace: workspace, console: context.console)
            } text: { report in
                context.console.print(
                    "\(report.dryRun ? "would switch" : "switched") to \(report.tenant) "
                        + "(superproject branch \(report.branch))")
                let rows = report.repositories.map { entry -> [String] in
                    var change = entry.change
                    if entry.aheadOfTarget > 0 {
                        change += " (kept: \(entry.aheadOfTarget) ahead of \(ObjectID.short(entry.target)))"
                    }
                    if entry.leftCommits > 0 {
                        let commits = English.count(entry.leftCommits, "commit")
                        change +=
                            " from \(commits) that \(English.isAre(entry.leftCommits)) on \(entry.leftOn ?? "remote branches")"
                    }
                    if entry.nestedUpdated { change += ", nested submodules updated" }
                    let from = ObjectID.short(entry.from, none: "-")
                    // A branch moved back stands out: commits are left behind (on a remote branch).
                    if entry.change == "moved back" || entry.change == "move back" {
                        change = context.console.styled(change, .yellow)
                    }
                    return [entry.repository, entry.branch, from, ObjectID.short(entry.commit), change]
                }
                context.console.print(
                    context.console.table(
                        TextTable(
                            header: ["REPOSITORY", "BRANCH", "FROM", "TO", report.dryRun ? "PLAN" : "CHANGE"],
                            rows: rows)))
                for module in report.unpinned {
                    context.console.print("\(module): not pinned on \(report.branch), left alone")
                }
                for submodule in report.unnamed {
                    let pin = ObjectID.short(submodule.pin)
                    let done: String
                    switch submodule.change {
                    case "unchanged": done = "already at its pin \(pin)"
                    case "clone", "check out": done = "would \(submodule.change) it at its pin \(pin) (detached)"
                    default:
                        done =
                            "\(submodule.change) at its pin \(pin) (detached, as git submodule update --init leaves it)"
                    }
                    context.console.print(
                        "\(TerminalText.escaped(submodule.path)): a submodule modules.json does not name ("
                            + (submodule.url.map { TerminalText.escaped($0) } ?? "no URL")
                            + "), \(done); tenantctl does not track it: roll and pin leave it as the branch has it")
                }
                for entry in report.repositories {
                    if let from = entry.movedFrom {
                        context.console.print(
                            "\(entry.repository): \(report.dryRun ? "will move" : "moved") its checkout from "
                                + "\(TerminalText.escaped(from)) to \(TerminalText.escaped(entry.path)), where "
                                + "\(report.branch) has it" + Self.nestedMoved(entry.nestedMoved))
                    }
                    if let url = entry.gitmodulesURL {
                        context.console.print(
                            "\(entry.repository): .gitmodules on \(report.branch) names \(RemoteURL.redacted(url)), "
                                + "modules.json another URL; \(report.dryRun ? "would use" : "used") modules.json's")
                    }
                    guard let kept = entry.keptBranch, entry.keptUnpushed > 0 else { continue }
                    let commits = English.count(entry.keptUnpushed, "commit")
                    context.console.print(
                        "\(entry.repository): branch \(kept) \(report.dryRun ? "will keep" : "keeps") \(commits) "
                            + "that no remote has; publish with: git -C \(entry.path) push origin \(kept)")
                    for commit in entry.keptCommits { context.console.print("  \(commit)") }
                    if entry.keptUnpushed > entry.keptCommits.count {
                        context.console.print("  … and \(entry.keptUnpushed - entry.keptCommits.count) more")
                    }
                }
            }
        }
    }
}
