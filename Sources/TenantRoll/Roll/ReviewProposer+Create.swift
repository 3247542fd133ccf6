import Foundation

/// The review's address: what the `create` command printed for a proposal branch, or the address a forge printed
/// in its answer to the push; kept across re-runs while the review is open.
extension ReviewProposer {
    /// Review states after which a proposal ref needs a new review (its last one is over).
    static let overStates: Set<String> = ["landed", "closed", "abandoned", "rejected"]

    /// The proposals with the address their review already has: the latest earlier run that knows the same
    /// repository and proposal ref, while that review is not over (a pull request follows its branch; the same
    /// topic or Change-Id updates the same review).
    func withKnownAddresses(_ reviews: [RunJournal.Review]) throws -> [RunJournal.Review] {
        let runs = try RunJournal.all(gitDirectory: workspace.commonDirectory).runs.sorted { $0.runId > $1.runId }
        return reviews.map { proposal in
            var proposal = proposal
            guard proposal.url == nil, ["proposed", "open"].contains(proposal.state) else { return proposal }
            for run in runs {
                guard
                    let earlier = (run.reviews ?? []).first(where: {
                        $0.repository == proposal.repository && $0.ref == proposal.ref && $0.target == proposal.target
                    })
                else { continue }
                if Self.overStates.contains(earlier.state) { break }
                if let url = earlier.url {
                    proposal.url = url
                    break
                }
            }
            return proposal
        }
    }

    /// Runs the `create` command (kind `branch`, when the `review` object sets one) for every open proposal branch
    /// whose review has no address yet, records each address in the journal as it is known; the first command that
    /// fails stops the run (``ReviewCreate/run(for:)``).
    func openReviews(
        _ reviews: inout [RunJournal.Review], snapshot: Snapshot, review: ReviewOptions, transaction: Transaction
    ) throws {
        for index in reviews.indices {
            let proposal = reviews[index]
            guard proposal.state == "open", proposal.url == nil, proposal.ref.hasPrefix("refs/heads/"),
                review.forge(of: proposal.repository) == .branch,
                let words = review.settings(of: proposal.repository).create
            else { continue }
            let repository = try self.repository(proposal.repository, snapshot: snapshot)
            let context = "read the message of the proposal \(proposal.ref) of \(proposal.repository)"
            let remote =
                proposal.repository == RollPublication.superproject
                ? try SuperprojectRemote.originURL(workspace) ?? workspace.remoteName
                : self.remote(of: proposal.repository, snapshot: snapshot)
            console?.progress("opening the review of \(proposal.repository) \(proposal.target)")
            let address = try ReviewCreate(words: words).run(
                for: .init(
                    repository: proposal.repository, tenant: proposal.tenant, remote: remote,
                    target: proposal.target, branch: String(proposal.ref.dropFirst("refs/heads/".count)),
                    title: try repository.subject(of: proposal.proposed, context: context),
                    body: try repository.body(of: proposal.proposed, context: context)))
            reviews[index].url = address
            try transaction.recordReviews([reviews[index]])
        }
    }
}
