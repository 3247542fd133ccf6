import Foundation

/// What `tenantctl resolve <tenant> --review` takes from the review layer, so that a resolved tenant is proposed
/// exactly where and how `roll --review` proposes it: the proposal ref of a repository, its push options, and the
/// next step `roll --review` names for a tenant whose merge conflicts.
extension ReviewOptions {
    /// Where `tenant`'s proposal into `target` of `repository` is pushed (a proposal branch, or `refs/for/…`).
    package func proposal(repository: String, tenant: String, target: String) -> String {
        proposalRef(repository: repository, tenant: tenant, target: target)
    }

    /// The push options of that proposal (`title`: its commit's subject).
    package func proposalOptions(repository: String, tenant: String, target: String, title: String) -> [String] {
        pushOptions(repository: repository, tenant: tenant, target: target, title: title)
    }

    /// The proposals with the address their review already has in a run of the workspace (a pull request follows its
    /// branch), or the mark of a `create` command a run started and never recorded the answer of.
    package static func withKnownAddresses(_ reviews: [RunJournal.Review], in workspace: Workspace) throws
        -> [RunJournal.Review]
    {
        try ReviewProposer.withKnownAddresses(reviews, in: workspace)
    }

    /// Runs the `create` command for every open proposal branch of `reviews` whose review has no address yet, as
    /// `roll --review` does: marked in the journal (`record`) before it runs, its address recorded after; never again
    /// for a proposal an earlier run started it for. `source`: the repository a proposal's commit is in and the
    /// remote named to the command; `again`: the command that runs it again after it failed.
    package func openReviews(
        _ reviews: inout [RunJournal.Review], console: Console?, again: String,
        source: (RunJournal.Review) throws -> (repository: GitRepository, remote: String),
        record: ([RunJournal.Review]) throws -> Void
    ) throws {
        try ReviewProposer.openReviews(
            &reviews, review: self, console: console, again: again, source: source, record: record)
    }

    /// Whether a refused proposal push was refused because the forge has that very commit as a review already.
    package static func forgeHasIt(_ outcome: PushOutcome) -> Bool { ReviewProposer.hasItAlready(outcome) }

    /// A review roll's report in which each conflicting tenant (proposed nothing) names `tenantctl resolve <t>
    /// --review` (with `--forge` when it was given): it resolves the tenant as `resolve` does and proposes the result
    /// as the tenant's review.
    func namingResolveForReview(_ report: RollReport) -> RollReport {
        var report = report
        for index in report.tenants.indices where report.tenants[index].status == "conflict" {
            let plain = "tenantctl resolve \(report.tenants[index].id)"
            guard let next = report.tenants[index].next, next.hasPrefix(plain) else { continue }
            report.tenants[index].next =
                plain + " --review" + (forge.map { " --forge \($0.rawValue)" } ?? "") + next.dropFirst(plain.count)
        }
        return report
    }
}
