import ArgumentParser
import Foundation
import TenantKit

extension Tenantctl {
    /// `tenantctl roll`: propagate general_dev to every tenant without working trees.
    struct Roll: WritingCommand {
        static let configuration = CommandConfiguration(
            abstract: "Merge general_dev into every tenant, in every repository, without touching a working tree.",
            discussion: """
                Fetches the superproject and every module (into private mirrors under the superproject's git \
                directory), then for each tenant: merges the module's general_dev into each customised module's \
                tenant branch, re-pins general_dev to the modules' general_dev tips, merges general_dev into the \
                tenant's superproject branch and pins every module (customised: its tenant branch; otherwise its \
                general_dev). Everything is done with git plumbing: your working tree, index, HEAD and local \
                branches are never changed.

                A tenant is all-or-nothing: a content conflict in any of its merges leaves all of its branches \
                unchanged and lists the conflicting paths; the other tenants still roll (exit 2). Module \
                repositories are pushed first, then the superproject, each in one atomic fast-forward push. \
                Every remote ref change is journalled under .git/tenantctl/journal/ before publishing.

                A tenant is blocked (nothing of it changes, the others roll, exit 2) when rolling it would drop or \
                spread a customisation; each reason has a finding code and the command that fixes it: \
                missing-commit (it pins a module commit the remote does not have: push it), \
                undeclared-customisation (it pins its own commit of an undeclared module: tenantctl customize \
                <t> <m> --from <pin>), tenant-merged-back (the module's or the superproject's general_dev \
                contains another tenant's commits: --accept-merged-back <module> or --accept-merged-back \
                superproject, after reverting their changes on general_dev if they were not meant for every \
                tenant), \
                invalid-tenant-file, unreachable-remote. A conflicted tenant names `tenantctl resolve <t>`.

                Protected branches: a push the server refuses as protected (a hook's "protected branch", \
                GitHub GH006, GitLab "not allowed to push") leaves that tenant rejected (protected) with next: \
                tenantctl roll --review; the other tenants roll. --review pushes the same merges to tenantctl's \
                own proposal branches (tenantctl/roll/<tenant>) for the forge to review and land; a tenant's \
                superproject proposal comes once its module proposals and general_dev's re-pin landed, pinning \
                exactly what landed. --land follows the proposals (merge, fast-forward, squash, rebase) and \
                proposes what became possible; --abandon <run-id> stops following that run: it deletes the proposal \
                branches that still point where tenantctl left them and marks every proposal of the run that did \
                not land abandoned (also those waiting for their module proposals, closed or rejected), and the \
                run ends. The forge kind (branch, agit for Gitea and Forgejo, gitlab, gerrit) and \
                the proposal branch prefix come from the review object of the checked-out modules.json \
                ({"forge": "gitlab", "branchPrefix": "tenantctl/roll"}, also per module), or --forge; the run \
                records the kind and every later push of it (--land, a re-run, resolve --review) uses it. A review \
                object on the fetched general branch that differs from the checked-out one is refused. With the \
                kind branch, the create command (an argument vector such as ["gh", "pr", "create", "--base", \
                "{target}", "--head", "{branch}", "--title", "{title}", "--body", "{body}"], from the review \
                object or git config tenantctl.review.create) opens each new review; the address it prints (or \
                the one the forge prints for agit, gitlab, gerrit) is recorded and shown. A re-run reads back what \
                the forge holds and pushes only changed proposals, never over a commit tenantctl did not make (a \
                colleague's on the proposal is left and named). --undo of a review run deletes its proposal branches (each only while where the run left it) and names the \
                refs/for reviews it cannot take back, to close on the forge. After a landing by squash or rebase \
                every roll (any clone) takes the tenant branch as containing what landed, found in the run \
                journal, the Rolled-by trailer, the proposal branch and, where the review object names a forge \
                kind, the forge's own review refs (refs/pull/*/head, refs/merge-requests/*/head, refs/changes/*, \
                fetched into refs/tenantctl/reviews/), so the next change to the same lines merges cleanly. See \
                docs/review.md.

                --undo <run-id> puts back each ref of that run still where the run left it (superproject first, \
                with a lease: never over someone's push). When a ref moved since, it refuses and changes nothing \
                (a stopped undo that had put nothing back either ends with that refusal). An undo stopped half-way (killed after a push) is a run of its own; its re-run goes on: it puts \
                back what is still where the roll left it, keeps and names each ref someone pushed to since (the \
                modules too while a superproject branch of the roll is kept), and ends (exit 2), so nothing stays \
                blocked. Revert the roll's commits on a kept branch by hand if they should go as well.

                Exit codes: 0 rolled or up to date (with --review/--land: everything landed), 2 completed with \
                conflicts, blocked tenants or rejected pushes (or a review that needs attention, or an undo that \
                kept a ref someone moved), 75 reviews still open (run --land again later), 1 failure.

                Examples:
                  tenantctl roll                             # every tenant
                  tenantctl roll --dry-run                   # what would change
                  tenantctl roll --tenant t3                 # t3 and general_dev's pins
                  tenantctl roll --module Article --json     # Article's pins; JSON
                  tenantctl roll --accept-merged-back Order  # general_dev took t3's
                  tenantctl runs                             # the journalled runs
                  tenantctl roll --undo <run-id>             # put a run back
                  tenantctl roll --review                    # propose on protected branches
                  tenantctl roll --land                      # follow the waiting review runs
                  tenantctl roll --abandon <run-id>          # stop following it
                  tenantctl roll --review --forge gerrit     # as Gerrit changes (refs/for)
                """)

        @OptionGroup(title: "Global Options") var global: GlobalOptions

        @Option(
            name: .customLong("tenant"), help: ArgumentHelp("Roll only this tenant (repeatable).", valueName: "id"),
            completion: NameCompletion.tenants())
        var tenants: [String] = []

        @Option(
            name: .customLong("module"),
            help: ArgumentHelp("Move only this module's pins and branches (repeatable).", valueName: "name"),
            completion: NameCompletion.modules)
        var modules: [String] = []

        @Option(
            name: .customLong("accept-merged-back"),
            help: ArgumentHelp(
                "Roll this module (or `superproject`: the superproject) although its general_dev contains a "
                    + "tenant's commits: the customisation was promoted to general on purpose (repeatable).",
                valueName: "module"),
            completion: NameCompletion.modules)
        var acceptMergedBack: [String] = []

        @OptionGroup var writeOptions: WriteOptions

        @OptionGroup var fetchOptions: FetchOptions

        @OptionGroup var jobsOptions: JobsOptions

        @Option(
            help: ArgumentHelp("Reset the remote refs changed by that run to their old values.", valueName: "run-id"))
        var undo: String?

        @Flag(
            help: ArgumentHelp(
                "Propose the merges as reviews on tenantctl's own proposal branches (tenantctl/roll/<tenant>) "
                    + "instead of pushing to protected tenant branches; exit 75 while reviews are open."))
        var review = false

        @Option(
            help: ArgumentHelp(
                "How reviews are proposed with --review (default: the review object of the checked-out modules.json, "
                    + "else branch): branch (a proposal branch per repository and tenant), agit (refs/for/<tenant> with "
                    + "a topic: Gitea, Forgejo), gitlab (a proposal branch with merge-request push options), gerrit "
                    + "(refs/for/<tenant>%topic=…, commits with a Change-Id). A review run keeps the kind it recorded "
                    + "for every later push; with --land (or a re-run) only that kind is taken.",
                valueName: "kind"))
        var forge: String?

        @Flag(
            help: ArgumentHelp(
                "Follow every waiting review run (or [run-id]): recognise landed proposals (merge, fast-forward, "
                    + "squash, rebase) and propose the superproject pin of what landed. Exit 0 all landed, 75 open, "
                    + "2 needs attention."))
        var land = false

        @Option(
            help: ArgumentHelp(
                "Stop following that review run: delete tenantctl's own proposal branches that still point where it "
                    + "left them and mark every proposal that did not land abandoned (waiting, closed and rejected "
                    + "ones too); with --tenant, only those tenants'.", valueName: "run-id"))
        var abandon: String?

        @Argument(
            help: ArgumentHelp("The review run for --land (default: every waiting one).", valueName: "run-id"))
        var runId: String?

        @Flag(
            help: ArgumentHelp(
                "List every merge and pin with its commit ids, also above \(RollReport.compactAbove) tenants (where "
                    + "the table is compact: the branches that need attention first, pins counted)."))
        var details = false

        func validate() throws {
            let modes = [review, land, abandon != nil, undo != nil].filter { $0 }.count
            if modes > 1 { throw ValidationError("--review, --land, --abandon and --undo exclude each other") }
            if runId != nil && !land { throw ValidationError("a run id as argument goes with --land") }
            if let forge, ReviewOptions.Forge(rawValue: forge) == nil {
                throw ValidationError(
                    "unknown forge kind \(forge): "
                        + ReviewOptions.Forge.allCases.map(\.rawValue).joined(separator: ", "))
            }
            if forge != nil && !review && !land { throw ValidationError("--forge goes with --review or --land") }
            if land && !tenants.isEmpty {
                throw ValidationError(
                    "--land follows every proposal of the run; --tenant goes with --review or --abandon")
            }
            if (land || abandon != nil) && (writeOptions.dryRun || !modules.isEmpty || !acceptMergedBack.isEmpty) {
                throw ValidationError(
                    "--land and --abandon cannot be combined with --dry-run, --module or --accept-merged-back")
            }
            if undo != nil && (writeOptions.dryRun || !tenants.isEmpty || !modules.isEmpty || !acceptMergedBack.isEmpty)
            {
                throw ValidationError(
                    "--undo cannot be combined with --dry-run, --tenant, --module or --accept-merged-back")
            }
        }

        func run(context: CommandContext) throws -> ExitStatus {
            let workspace = try context.workspace()
            let console = context.console
            let arguments = context.rerunArguments(command: "roll")
            if let undo {
                let result = try RollRun.undo(
                    runId: undo, in: workspace, arguments: arguments, wait: lockOptions.wait)
                if context.options.json {
                    console.data(try JSONOutput.encode(result))
                } else {
                    for outcome in result.outcomes {
                        console.print(
                            "\(outcome.repository): \(outcome.accepted ? "restored" : "rejected: \(outcome.detail)")")
                        for move in result.moved where move.repository == outcome.repository {
                            let name = move.ref.hasPrefix("refs/heads/") ? String(move.ref.dropFirst(11)) : move.ref
                            console.print(
                                "  \(name): \(ObjectID.short(move.from)) → \(ObjectID.short(move.to, none: "deleted"))")
                        }
                    }
                    if !result.kept.isEmpty {
                        console.print("kept (not put back):")
                        for kept in result.kept { console.print("  " + TerminalText.escaped(kept.line)) }
                    }
                    for left in result.reviewsLeft {
                        console.print(
                            TerminalText.escaped("\(left.repository) \(left.ref): not taken back: \(left.next)"))
                    }
                    for landed in result.landedLeft { console.print(TerminalText.escaped(landed.line)) }
                }
                guard result.outcomes.allSatisfy(\.accepted) else { return .failure }
                return result.kept.isEmpty && result.landedLeft.isEmpty ? .success : .findings
            }
            var options = RollOptions(
                filter: RollFilter(tenants: tenants, modules: modules, acceptMergedBack: acceptMergedBack),
                dryRun: writeOptions.dryRun, jobs: jobsOptions.jobs, fetch: fetchOptions.fetch,
                arguments: arguments)
            // Without --forge, the `review` object of modules.json says how (else proposal branches); a review
            // run's recorded kind wins, and --land takes --forge only where it agrees with it.
            if review || land { options.review = ReviewOptions(forge: forge.flatMap(ReviewOptions.Forge.init)) }
            if land || abandon != nil {
                let result =
                    try abandon.map {
                        try ReviewRun.abandon(
                            runId: $0, tenants: tenants, in: workspace, wait: lockOptions.wait, console: console)
                    }
                    ?? ReviewRun.land(
                        runId: runId, options: options, in: workspace, wait: lockOptions.wait, console: console)
                if context.options.json {
                    console.data(try JSONOutput.encode(result))
                } else {
                    console.print(result.renderText())
                }
                return abandon != nil ? .success : (ExitStatus(rawValue: result.exitCode) ?? .failure)
            }
            let report = try RollRun.run(
                options, in: workspace, wait: lockOptions.wait, console: console)
            if context.options.json {
                console.data(try JSONOutput.encode(report))
            } else if console.quiet, let runId = report.runId {
                // The one thing a quiet run must still say: the id `--undo` needs.
                console.data(runId)
            } else {
                console.print(report.renderTable(console: console, compact: details ? false : nil))
            }
            // A dry run proposed nothing, so no review is open to wait for.
            if let reviews = report.reviews, report.isComplete, !report.dryRun {
                return ExitStatus(rawValue: ReviewReport.exitCode(reviews)) ?? .failure
            }
            return report.isComplete ? .success : .findings
        }
    }
}
