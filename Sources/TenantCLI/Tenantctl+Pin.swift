import ArgumentParser
import TenantKit

extension Tenantctl {
    /// `tenantctl pin [module…] [--push]`: record module HEADs as the pins of the current branch.
    struct Pin: LockingCommand {
        static let configuration = CommandConfiguration(
            commandName: "pin",
            abstract: "Record the modules' HEADs as the pins of the current superproject branch, in one commit.",
            discussion: """
                Every named module (all when none is named) whose HEAD differs from its pin is recorded in one \
                superproject commit whose message lists old → new per module. Refused, before anything changes, \
                when the superproject is on a detached HEAD or has staged or modified files, or a module is \
                detached, on the wrong branch for this tenant, or dirty. Without --push, a module commit that \
                is not on the module's remote is refused (a pin must never point at a commit others cannot \
                fetch). --push pushes the module branches first, then the superproject branch; never forced, \
                and never to a branch that no longer exists on the remote (a branch deleted there is not \
                recreated); a module branch behind its remote (someone pushed to it) is refused before any \
                push, with the git merge that fixes it. From a tenant view, a module the tenant does not customise is on general_dev, \
                which every tenant shares: pushing it is refused unless --to-general says that is meant. An \
                annotated tag as pin counts as the commit it names.

                Stopped half-way (killed, a failed push), pin --push is finished by running it again: a gitlink \
                it staged is taken as its own, and a pin commit whose push did not land is published. When the \
                remote branch moved on (a roll ran; pin fetches it first) and changed no pin this pin changes, \
                the pin commit is made on the remote's new tip and the local branch moves onto it, with or \
                without --push (without, it is one commit ahead, never diverged); the modules whose pins the \
                roll moved are named, and `tenantctl switch <branch>` brings them up. When the roll moved a pin \
                this pin changes, or the branch has commits of its own, it refuses before any change and prints \
                the git command that merges the new state in, then the pin to run again.

                Before its first change, pin records the branch and commit of the superproject and of each \
                module it pins in its run journal. Killed or interrupted, also right after its last push or \
                commit, pin stays unfinished in its journal (`tenantctl runs` lists it): the other writing \
                commands refuse until the same pin has run again, which finishes it.

                Examples:
                  tenantctl pin Infrastructure
                  tenantctl pin --push
                  tenantctl pin Article --push --to-general
                """)

        @OptionGroup(title: "Global Options") var global: GlobalOptions

        @Argument(help: "Modules to pin (default: every module).", completion: NameCompletion.modules)
        var modules: [String] = []

        @Flag(help: "Push the module branches, then the superproject branch.")
        var push = false

        @Flag(help: "With --push from a tenant view: allow pushing a module's shared general branch.")
        var toGeneral = false

        @OptionGroup var fetchOptions: FetchOptions

        @OptionGroup var lockOptions: LockOptions

        func run(context: CommandContext) throws -> ExitStatus {
            try context.runOnWorkingCopy { workspace in
                try PinRun(
                    modules: modules, push: push, toGeneral: toGeneral, fetch: fetchOptions.fetch,
                    wait: lockOptions.wait, arguments: context.rerunArguments(command: "pin")
                ).run(workspace: workspace, console: context.console)
            } text: { report in
                if let commit = report.commit, report.changes.isEmpty {
                    context.console.print(
                        "published \(report.branch) at \(ObjectID.short(commit)): its pins were committed by an "
                            + "earlier run whose push had not landed")
                } else if let commit = report.commit {
                    context.console.print(
                        "pinned \(English.count(report.changes.count, "module")) on \(report.branch) "
                            + "in \(ObjectID.short(commit))\(report.pushed ? " (pushed)" : "")")
                    for change in report.changes {
                        context.console.print(
                            "  \(change.module): \(ObjectID.short(change.old, none: "none")) → "
                                + "\(ObjectID.short(change.new))\(change.pushed ? " (module pushed)" : "")")
                    }
                    if let landedOn = report.landedOn {
                        context.console.print(
                            "\(report.branch) had moved on the remote; the pin landed on its tip "
                                + "\(ObjectID.short(landedOn))")
                    }
                } else if let landedOn = report.landedOn {
                    context.console.print(
                        "\(report.branch) moved to the remote's tip \(ObjectID.short(landedOn)), which already has "
                            + "these pins")
                } else {
                    context.console.print("nothing to pin on \(report.branch): every module is at its pin")
                }
                if let behind = report.behind, !behind.isEmpty {
                    context.console.print(
                        "\(behind.joined(separator: ", ")) \(behind.count == 1 ? "is" : "are") behind the new "
                            + "pins; bring the working copy up: tenantctl switch \(report.branch)")
                }
            }
        }
    }
}
