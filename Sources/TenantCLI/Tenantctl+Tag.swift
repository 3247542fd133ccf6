import ArgumentParser
import Foundation
import TenantKit

extension Tenantctl {
    /// `tenantctl tag <milestone>`.
    struct Tag: WritingCommand {
        static let configuration = CommandConfiguration(
            abstract: "Tag general_dev and every tenant branch at a milestone, in one atomic push.",
            discussion: """
                Creates one tag per superproject branch at its tip on the remote: general_dev as DEV, every \
                tenant as its upper-cased id (the thesis' DEV-ERP-APP-QR, T1-ERP-APP-QR, …). The tags are \
                lightweight and pushed in one atomic push; the superproject's pins record every module's commit, \
                so module repositories are not tagged. Refuses (tagging nothing) when any tag exists on the remote \
                at another commit; a tag already at its branch's tip (left by a run that stopped after its push) \
                is kept, so running the same command again finishes the job.

                Pattern placeholders: {TENANT} (DEV or the upper-cased id), {MILESTONE}, {BRANCH}.

                Killed or interrupted, the run stays unfinished in its journal (`tenantctl runs` lists it): the other \
                writing commands refuse, naming the command that finishes it, until the same tag has run again.

                Examples:
                  tenantctl tag ERP-APP-QR
                  tenantctl tag 2.1 --pattern 'release/{BRANCH}/{MILESTONE}'
                """)

        @OptionGroup(title: "Global Options") var global: GlobalOptions

        @Argument(help: "The milestone name.")
        var milestone: String

        @Option(help: "The tag name pattern.")
        var pattern: String = Milestone.defaultPattern

        @OptionGroup var writeOptions: WriteOptions

        func run(context: CommandContext) throws -> ExitStatus {
            try LifecycleOutput.run(
                .tag(milestone: milestone, pattern: pattern), context: context, options: writeOptions,
                headline: LifecycleHeadline(
                    done: "tagged milestone \(milestone)", wouldDo: "would tag milestone \(milestone)"))
        }
    }
}
