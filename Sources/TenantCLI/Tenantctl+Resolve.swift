import ArgumentParser
import TenantKit

extension Tenantctl {
    /// `tenantctl resolve <tenant>`, `--continue`, `--abort`: finish a conflicted roll in the working copy.
    struct Resolve: LockingCommand {
        static let configuration = CommandConfiguration(
            commandName: "resolve",
            abstract: "Finish a tenant that roll left conflicted, with your own merge tools, in the working copy.",
            discussion: """
                roll leaves a conflicted tenant untouched and names this command. `resolve <tenant>` plans the \
                tenant's roll exactly as roll does, refuses unless the working copy is clean (as switch) and no \
                untracked file stands where one of its merges would write (naming the file; nothing changes), \
                switches to the tenant and runs a real `git merge` of the general branch into the tenant branch in every \
                module that needs it and in the superproject (gitlinks are set by the pin rule, never left to \
                you). It lists per repository: merged cleanly, the conflicted files, or nothing to do. The \
                resolution is recorded in its run's journal as each step lands (.git/tenantctl/journal; \
                .git/tenantctl/resolve.json only names the tenant and that run): a crash, a kill or a new shell \
                goes on; `tenantctl status` shows it. --continue and --abort run only in the worktree \
                where the resolution started; from another one they are refused, naming it \
                (`tenantctl -C <that worktree> resolve --abort`).

                Resolve the conflicts as in any git merge (your editor, `git mergetool`, Xcode; rerere works) and \
                stage them with `git add` in each repository. Then `resolve --continue` refuses while unmerged \
                paths, conflict markers or unstaged changes remain (naming them); otherwise it commits each \
                merge (roll's messages), sets every pin by the rule (customised: the tenant branch's new tip; \
                others: the general branch's tip), commits the superproject, puts the working copy on the tenant \
                at the new pins and publishes like roll: modules first, then the superproject, each repository in \
                one atomic push with a lease on every ref, each push recorded in the run's own journal \
                (`tenantctl roll --undo <run>` takes a published resolution back). A remote that moved meanwhile is refused: nothing of the tenant is published, your local \
                result stays. `resolve --abort` undoes what the resolution did, like `git merge --abort`: merges \
                aborted, branches and HEADs restored, the working copy on the branch it was on. It never drops a \
                commit you made meanwhile: a branch you created, or one holding your commits, is kept and named; \
                when putting a branch back would lose your commits, it refuses, changing nothing, names them and \
                prints the `git branch` that keeps them. A file you edited, staged or resolved since the \
                resolution left it is yours: it stays as it is where the resolution changed nothing, else it is \
                kept in that repository's stash before the put-back, named with `git -C <path> stash show -p` and \
                `git -C <path> stash pop`.

                Where tenant branches are protected (docs/review.md), `roll --review` proposes nothing for a \
                conflicting tenant and names `resolve <tenant> --review`: it resolves as above, and `--continue` \
                proposes the result as the tenant's review, where and how `roll --review` proposes (the forge kind of \
                modules.json, or --forge), instead of pushing to the tenant's branches. A proposal already open is \
                updated in place, or kept as it is when it holds the same merge: never a second review. Module \
                proposals go first; the superproject's waits until they landed (`tenantctl roll --land` proposes \
                its pin of what landed). The run then waits for the reviews (`tenantctl runs`: waiting), taking \
                over only the tenant's earlier proposals (other tenants' stay followed by their runs), and the \
                working copy goes back to where the resolution started. Every kind is proposed as `roll --review` \
                proposes it: branch with the review object's `create` command (run once per proposal branch), agit \
                `refs/for/<tenant>` with its topic, gitlab's merge request push options, gerrit \
                `refs/for/<tenant>` with a Change-Id (the open review's: a new patch set of the same change). The \
                merges carry roll's `Rolled-by:` trailer, so `roll --land` recognises their landing (merge, \
                fast-forward, squash, rebase). With general_dev's pins behind its modules, the re-pin goes first: \
                `resolve <tenant> --review` names `roll --review` (which proposes it), then `roll --land` until it \
                landed.

                Exit codes: 0 done (start: every merge clean), 2 started with conflicts, 1 refused or failed, \
                64 unknown tenant.

                Every resolve run is journalled (`tenantctl runs`), with each repository's branch and HEAD before it \
                changed anything. Killed or interrupted, or stopped by an error after part of it was pushed, it stays \
                unfinished and the other writing commands refuse, naming the re-run, `tenantctl resolve --abort` and \
                `tenantctl runs --abort <run-id>` (the same abort, by the run's id), until a resolve has run again. A start that was killed is finished by running `resolve <tenant>` \
                again: it puts back what the stopped start did and starts again.

                Examples:
                  # the example's conflict: t2's German strings against a general rewording
                  tenantctl example /tmp/erp-conflict --stage conflict
                  cd /tmp/erp-conflict/workspace
                  tenantctl roll                      # exit 2: t2 conflicts
                  tenantctl resolve t2
                  # resolve Strings.csv in your editor or with git mergetool, then:
                  git -C Modules/Infrastructure add Strings.csv
                  tenantctl status
                  tenantctl resolve --continue
                  tenantctl resolve --abort           # instead: back to the start
                  # protected branches: propose it as t2's review
                  tenantctl resolve t2 --review
                """)

        @OptionGroup(title: "Global Options") var global: GlobalOptions

        @Argument(help: "The tenant (id or branch) to resolve.", completion: NameCompletion.tenants())
        var tenant: String?

        @Flag(name: .customLong("continue"), help: "Commit the resolved merges, pin, publish.")
        var continueResolution = false

        @Flag(help: "Undo the resolution: every repository back as before `resolve <tenant>`, your own commits kept.")
        var abort = false

        @Option(
            name: .customLong("accept-merged-back"),
            help: ArgumentHelp(
                "Start as `roll --accept-merged-back` rolls: this module's (or `superproject`'s) general_dev "
                    + "taking a tenant's commits does not block the tenant (repeatable).", valueName: "module"),
            completion: NameCompletion.modules)
        var acceptMergedBack: [String] = []

        @Flag(
            help: ArgumentHelp(
                "With a tenant: --continue proposes the resolution as the tenant's review (as `roll --review` "
                    + "proposes) instead of pushing to its branches."))
        var review = false

        @Option(
            help: ArgumentHelp(
                "With --review: how the review is proposed (branch, agit, gitlab, gerrit; default: the review "
                    + "object of modules.json, else branch).", valueName: "kind"))
        var forge: String?

        @OptionGroup var fetchOptions: FetchOptions

        @OptionGroup var lockOptions: LockOptions

        func validate() throws {
            let modes = [tenant != nil, continueResolution, abort].filter { $0 }.count
            guard modes == 1 else {
                throw ValidationError("give a tenant, --continue or --abort (exactly one)")
            }
            guard tenant != nil || acceptMergedBack.isEmpty else {
                throw ValidationError("--accept-merged-back goes with a tenant, not with --continue or --abort")
            }
            guard tenant != nil || !review else {
                throw ValidationError("--review goes with a tenant (`resolve <tenant> --review`); --continue knows it")
            }
            if let forge {
                guard review else { throw ValidationError("--forge goes with --review") }
                guard ReviewForge(rawValue: forge) != nil else {
                    throw ValidationError(
                        "unknown forge kind \(forge): " + ReviewForge.allCases.map(\.rawValue).joined(separator: ", "))
                }
            }
        }

        func run(context: CommandContext) throws -> ExitStatus {
            let workspace = try context.workspace()
            let console = context.console
            let action: ResolveRun.Action =
                if let tenant {
                    .start(
                        tenant: tenant, acceptMergedBack: acceptMergedBack, review: review,
                        forge: forge.flatMap(ReviewForge.init(rawValue:)))
                } else if continueResolution {
                    .continueResolution
                } else {
                    .abort
                }
            let report: ResolveReport
            do {
                report = try ResolveRun(
                    action: action, arguments: context.rerunArguments(command: "resolve"), fetch: fetchOptions.fetch,
                    wait: lockOptions.wait
                ).run(workspace: workspace, console: console)
            } catch let error as ResolveError {
                console.error(error.description)
                return error.kind == .unknownTenant ? .usage : .failure
            } catch let refusal as WorkingCopyRefusal {
                console.error(refusal.description)
                return .failure
            }
            if context.options.json {
                console.data(try JSONOutput.encode(report))
            } else {
                console.print(report.renderTable())
            }
            if report.action == "start" { return report.hasConflicts ? .findings : .success }
            if report.action == "continue" && !report.published { return .failure }
            return .success
        }
    }
}
