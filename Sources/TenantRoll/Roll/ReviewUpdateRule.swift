import Foundation

/// The never-backwards rule for `resolve <t> --review`, which pushes its own proposals: a proposal on the forge that
/// moved past what tenantctl last pushed to it is the team's and is not pushed over; an AGit pull request that still
/// holds tenantctl's commit and that the resolution does not fast-forward is pushed with `-o force-push=true`.
extension ReviewOptions {
    /// What the forge's proposal `current` (its branch's value, or its review's head; nil: none) allows for
    /// `proposal`, made in `repository`: `teams` the commit someone else made, which it must not move off; else
    /// `options`, the push options it needs beyond its own.
    package func updateRule(
        _ proposal: RunJournal.Review, current: String?, in repository: GitRepository, workspace: Workspace
    ) throws -> (teams: String?, options: [String]) {
        guard let current, current != proposal.proposed else { return (nil, []) }
        var last: RunJournal.Review?
        for run in try RunJournal.all(gitDirectory: workspace.commonDirectory).runs.sorted(by: { $0.runId < $1.runId })
        {
            for review in run.reviews ?? [] where ReviewProposer.key(review) == ReviewProposer.key(proposal) {
                if !["waiting", "rejected"].contains(review.state) { last = review }
            }
        }
        var tenantctls = last?.proposed == current
        if last == nil, try repository.hasCommit(current) {
            tenantctls = try repository.body(of: current, context: "read the message of \(ObjectID.short(current))")
                .contains(VirtualBase.trailer)
        }
        guard tenantctls else { return (current, []) }
        guard forge(of: proposal.repository) == .agit, try repository.hasCommit(current),
            try !repository.isAncestor(current, of: proposal.proposed)
        else { return (nil, []) }
        return (nil, [ReviewProposer.agitForcePush])
    }

    /// The review ref tenantctl last recorded for `proposal` (its repository, target and ref), in any run journal.
    package static func lastReviewRef(_ proposal: RunJournal.Review, in workspace: Workspace) throws -> String? {
        var ref: String?
        for run in try RunJournal.all(gitDirectory: workspace.commonDirectory).runs.sorted(by: { $0.runId < $1.runId })
        {
            for review in run.reviews ?? [] where ReviewProposer.key(review) == ReviewProposer.key(proposal) {
                ref = review.reviewRef ?? ref
            }
        }
        return ref
    }
}
