import Foundation

/// Never backwards. A proposal is tenantctl's only while it holds what tenantctl last pushed to it (its latest
/// proposal in the run journals): a proposal branch, AGit pull request, GitLab source branch or Gerrit change that
/// moved past that commit holds someone's work, and no push of tenantctl's moves it off it. The run leaves such a
/// proposal as the team left it, names its commit, and goes on following tenantctl's commit on it (the landing rule
/// finds it in what lands). An AGit pull request tenantctl updates is moved by a fast-forward on top of its head where
/// the new merge allows it (the same tree, with the head as first parent), else pushed with `-o force-push=true`, which
/// Gitea asks for any other update.
extension ReviewProposer {
    /// The push option an AGit forge (Gitea, Forgejo) needs for an update that is no fast-forward of the review's head.
    static let agitForcePush = "force-push=true"

    /// A proposal's key: its repository, target and ref.
    static func key(_ review: RunJournal.Review) -> String { "\(review.repository)\t\(review.target)\t\(review.ref)" }

    /// The latest proposal tenantctl pushed for each key, from every run journal (a proposal that waited or whose push
    /// was refused was never on the forge).
    func lastPushed() throws -> [String: RunJournal.Review] {
        var last: [String: RunJournal.Review] = [:]
        for run in try RunJournal.all(gitDirectory: workspace.commonDirectory).runs.sorted(by: { $0.runId < $1.runId })
        {
            for review in run.reviews ?? [] where !["waiting", "rejected"].contains(review.state) {
                last[Self.key(review)] = review
            }
        }
        return last
    }

    /// The proposals as the team left them (see the type's description): each proposal to push, or adopted from a
    /// review namespace, whose proposal on the forge moved past tenantctl's last push keeps that proposal (followed
    /// as it was), with a warning that names the commit; an AGit update becomes a fast-forward where it can. Returns
    /// the proposals and the keys of the AGit updates that must be forced.
    func keepingTheTeams(
        _ reviews: [RunJournal.Review], previous: [String: String], snapshot: Snapshot, review: ReviewOptions
    ) throws -> (reviews: [RunJournal.Review], forcing: Set<String>) {
        var reviews = reviews
        var forcing: Set<String> = []
        let last = try lastPushed()
        var held: [String: [String: String]] = [:]
        for index in reviews.indices {
            let proposal = reviews[index]
            guard proposal.state == "proposed" || (proposal.state == "open" && proposal.reviewRef != nil) else {
                continue
            }
            let earlier = last[Self.key(proposal)]
            if held[proposal.repository] == nil, !proposal.ref.hasPrefix("refs/heads/") {
                held[proposal.repository] = try reviewRefs(of: proposal.repository, snapshot: snapshot, review: review)
            }
            guard
                let current = Self.forgeValue(
                    of: proposal, earlier: earlier, previous: previous, held: held[proposal.repository] ?? [:])
            else {
                // No journal names its pull request (a fresh clone): an AGit update may be forced only where every
                // review the forge holds is tenantctl's own, so that no one else's commit can be pushed over.
                if proposal.state == "proposed", review.forge(of: proposal.repository) == .agit,
                    try onlyTenantctls(held[proposal.repository] ?? [:], of: proposal.repository, snapshot: snapshot)
                {
                    forcing.insert(Self.key(proposal))
                }
                continue
            }
            let repository = try self.repository(proposal.repository, snapshot: snapshot)
            let mine = Set([earlier?.proposed, proposal.state == "open" ? proposal.proposed : nil].compactMap { $0 })
            let tenantctls = try mine.contains(current) || (earlier == nil && isTenantctls(current, in: repository))
            if tenantctls {
                guard proposal.state == "proposed" else { continue }
                if let holding = try holdsAlready(current, proposal, in: repository) {
                    reviews[index] = holding
                } else if review.forge(of: proposal.repository) == .agit,
                    !(try repository.isAncestor(current, of: proposal.proposed))
                {
                    if let forward = try fastForward(current, proposal, in: repository) {
                        reviews[index].proposed = forward
                    } else {
                        forcing.insert(Self.key(proposal))
                    }
                }
                continue
            }
            warnTeams(proposal, current: current, earlier: earlier)
            if let earlier, ["proposed", "open", "conflict"].contains(earlier.state) {
                var kept = earlier
                kept.forge = proposal.forge
                reviews[index] = kept
            } else {
                reviews[index].state = "kept"
            }
        }
        return (reviews.filter { $0.state != "kept" }, forcing)
    }

    /// The commit the forge shows for `proposal` now: its proposal branch as fetched, else its review's head (the
    /// newest patch set of a Gerrit change) as the forge lists it; nil when there is none or it cannot be known.
    static func forgeValue(
        of proposal: RunJournal.Review, earlier: RunJournal.Review?, previous: [String: String],
        held: [String: String]
    ) -> String? {
        if proposal.ref.hasPrefix("refs/heads/") { return previous[proposal.repository + " " + proposal.ref] }
        guard let reviewRef = proposal.reviewRef ?? earlier?.reviewRef else { return nil }
        guard reviewRef.hasPrefix("refs/changes/"), let slash = reviewRef.lastIndex(of: "/") else {
            return held[reviewRef]
        }
        let change = String(reviewRef[...slash])
        let sets = held.keys.filter { $0.hasPrefix(change) }
        return ReviewOptions.newestReview(sets).flatMap { held[$0] }
    }

    /// Whether every review head of `held` is a commit tenantctl made (and there is one at least).
    func onlyTenantctls(_ held: [String: String], of name: String, snapshot: Snapshot) throws -> Bool {
        let repository = try self.repository(name, snapshot: snapshot)
        guard !held.isEmpty else { return false }
        for commit in Set(held.values) where !(try isTenantctls(commit, in: repository)) { return false }
        return true
    }

    /// Whether `commit` is one tenantctl made (its message carries the `Rolled-by: tenantctl` trailer), for a clone
    /// whose journals do not know the proposal; false when the commit is not here.
    func isTenantctls(_ commit: String, in repository: GitRepository) throws -> Bool {
        guard try repository.hasCommit(commit) else { return false }
        let body = try repository.body(of: commit, context: "read the message of \(ObjectID.short(commit))")
        return body.contains(VirtualBase.trailer)
    }

    /// `proposal` adopted as `current` when tenantctl's commit there holds it already: the same tree, both parents of
    /// the new merge in it (an earlier fast-forward of the same merge); nil otherwise.
    func holdsAlready(_ current: String, _ proposal: RunJournal.Review, in repository: GitRepository) throws
        -> RunJournal.Review?
    {
        let context = "compare the proposal \(proposal.ref) of \(proposal.repository) with the forge's"
        guard try repository.hasCommit(current),
            try repository.tree(of: current, context: context)
                == repository.tree(of: proposal.proposed, context: context)
        else { return nil }
        for parent in try repository.parents(of: proposal.proposed, context: context) {
            guard try repository.isAncestor(parent, of: current, context: context) else { return nil }
        }
        var adopted = proposal
        if adopted.isGeneralRepin { adopted.general = current }
        adopted.proposed = current
        adopted.state = "open"
        return adopted
    }

    /// The new merge of `proposal` made on top of the review's head `head` (first parent `head`, second the general
    /// commit), when merging the general commit into the head gives the merge's very tree; nil otherwise.
    func fastForward(_ head: String, _ proposal: RunJournal.Review, in repository: GitRepository) throws -> String? {
        let context = "make the update of \(proposal.ref) of \(proposal.repository) a fast-forward"
        guard try repository.hasCommit(head) else { return nil }
        let parents = try repository.parents(of: proposal.proposed, context: context)
        guard parents.count == 2, let ours = parents.first, let general = parents.last,
            try repository.isAncestor(ours, of: head, context: context)
        else { return nil }
        guard let merged = try repository.mergeTrees([(ours: head, theirs: general)], what: context).first,
            merged.clean, merged.tree == (try repository.tree(of: proposal.proposed, context: context))
        else { return nil }
        let message =
            try repository.subject(of: proposal.proposed, context: context) + "\n\n"
            + repository.body(of: proposal.proposed, context: context)
        return try repository.writeCommit(
            CommitSpec(tree: merged.tree, parents: [head, general], message: message),
            identity: workspace.superproject.commitIdentity()
        ).hex
    }

    /// Says that `proposal` stays as the team left it, naming the commits.
    func warnTeams(_ proposal: RunJournal.Review, current: String, earlier: RunJournal.Review?) {
        let name = proposal.ref.hasPrefix("refs/heads/") ? String(proposal.ref.dropFirst(11)) : proposal.ref
        let from = earlier.map { "tenantctl's commit \(ObjectID.short($0.proposed))" } ?? "what tenantctl pushed"
        console?.warn(
            TerminalText.escaped(
                "\(proposal.repository) \(proposal.target): \(name) moved past \(from) to \(ObjectID.short(current)), "
                    + "a commit tenantctl did not make: it is the team's, and tenantctl leaves it as it is (the merge of "
                    + "general commit \(ObjectID.short(proposal.general)) is not proposed there); merge the general "
                    + "branch into it yourself, or land it and run `tenantctl roll --review` again"))
    }
}
