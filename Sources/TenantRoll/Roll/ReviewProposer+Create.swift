import Foundation

/// The review's address: what the `create` command printed for a proposal branch, or the address a forge printed
/// in its answer to the push; kept across re-runs while the review is open.
extension ReviewProposer {
    /// Review states after which a proposal ref needs a new review (its last one is over).
    static let overStates: Set<String> = ["landed", "closed", "abandoned", "rejected"]

    /// The proposals with the address their review already has (see ``withKnownAddresses(_:in:)``).
    func withKnownAddresses(_ reviews: [RunJournal.Review]) throws -> [RunJournal.Review] {
        try Self.withKnownAddresses(reviews, in: workspace)
    }

    /// The proposals with the address their review already has: the latest run that knows the same repository and
    /// proposal ref, while that review is not over (a pull request follows its branch; the same topic or Change-Id
    /// updates the same review). A `create` command a run started and whose answer it never recorded is carried over
    /// as started (``RunJournal/Review/createStarted``): its review may exist.
    static func withKnownAddresses(_ reviews: [RunJournal.Review], in workspace: Workspace) throws
        -> [RunJournal.Review]
    {
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
                if earlier.createStarted == true {
                    proposal.createStarted = true
                    break
                }
            }
            return proposal
        }
    }

    /// Runs the `create` command (kind `branch`, when the `review` object sets one) for every open proposal branch
    /// whose review has no address yet. The journal says the command is about to run before it starts, and its
    /// answer (the address) once it ends; the first command that fails stops the run (``ReviewCreate/run(for:)``),
    /// and one that fails opened nothing, so its mark is taken back and the next run runs it again. A proposal
    /// whose command an earlier run started without recording its answer (killed in between, or the command
    /// stopped at its time limit) may have its review already: the command is not run again for it (that would open
    /// a second review); a warning names the proposal branch and the command to open the review by hand if the
    /// forge has none.
    func openReviews(
        _ reviews: inout [RunJournal.Review], snapshot: Snapshot, review: ReviewOptions, transaction: Transaction
    ) throws {
        try Self.openReviews(
            &reviews, review: review, console: console, again: "tenantctl roll --review",
            source: { proposal in
                let remote =
                    proposal.repository == RollPublication.superproject
                    ? try SuperprojectRemote.originURL(workspace) ?? workspace.remoteName
                    : self.remote(of: proposal.repository, snapshot: snapshot)
                return (try self.repository(proposal.repository, snapshot: snapshot), remote)
            },
            record: { try transaction.recordReviews($0) },
            manners: ReviewManners(gitDirectory: workspace.commonDirectory))
    }

    /// Runs the `create` command for every open proposal branch of `reviews` that needs one (see
    /// ``openReviews(_:snapshot:review:transaction:)``): `source` gives the repository a proposal's commit is in and
    /// the remote named to the command, `record` writes proposals to the run's journal, and `again` is the command
    /// that runs the `create` command again after it failed.
    static func openReviews(
        _ reviews: inout [RunJournal.Review], review: ReviewOptions, console: Console?, again: String,
        source: (RunJournal.Review) throws -> (repository: GitRepository, remote: String),
        record: ([RunJournal.Review]) throws -> Void, manners: ReviewManners? = nil
    ) throws {
        for index in reviews.indices {
            let proposal = reviews[index]
            guard proposal.state == "open", proposal.url == nil, proposal.ref.hasPrefix("refs/heads/"),
                review.forge(of: proposal.repository) == .branch,
                let words = review.settings(of: proposal.repository).create
            else { continue }
            let (repository, remote) = try source(proposal)
            let context = "read the message of the proposal \(proposal.ref) of \(proposal.repository)"
            let create = ReviewCreate(words: words, again: again)
            let asked = ReviewCreate.Proposal(
                repository: proposal.repository, tenant: proposal.tenant, remote: remote,
                target: proposal.target, branch: String(proposal.ref.dropFirst("refs/heads/".count)),
                title: try repository.subject(of: proposal.proposed, context: context),
                body: try repository.body(of: proposal.proposed, context: context))
            if proposal.createStarted == true {
                console?.warn(
                    "\(proposal.repository) \(proposal.target): an earlier run started the create command for "
                        + "\(asked.branch) and stopped before it recorded the review's address, so the forge may have "
                        + "opened it: check the forge for a review of \(asked.branch) into \(asked.target); if there is "
                        + "none, open it: `\(ShellWord.line(create.arguments(for: asked)))`. tenantctl does not run the "
                        + "command for it again (that could open a second review) and follows the proposal branch")
                continue
            }
            if let manners, !manners.mayRunCreate(perHour: review.settings(of: proposal.repository).perHour) {
                reviews[index].state = ReviewManners.queued
                try record([reviews[index]])
                continue
            }
            console?.progress("opening the review of \(proposal.repository) \(proposal.target)")
            // Before the command: a run that stops while it runs leaves this mark, and no run repeats it.
            reviews[index].createStarted = true
            try record([reviews[index]])
            let answer: ReviewCreate.Answer
            do {
                answer = try manners?.run(create, for: asked, console: console) ?? create.run(for: asked)
            } catch {
                // It failed (or never started): it opened nothing, and the next run may run it again.
                reviews[index].createStarted = nil
                try record([reviews[index]])
                throw error
            }
            switch answer {
            case .address(let address):
                reviews[index].url = address
                reviews[index].createStarted = nil
                try record([reviews[index]])
            case .rateLimited(let said):
                // Throttled still after the pauses: it opened nothing, and waits for a slot (a later `--land`).
                reviews[index].createStarted = nil
                reviews[index].state = ReviewManners.queued
                try record([reviews[index]])
                console?.warn(ReviewManners.leftForLater(proposal, said: said))
            case .stopped(let error):
                // Stopped at its time limit, it may have opened the review: the mark stays.
                throw error
            }
        }
    }
}
