import Foundation

/// `resolve --continue` of a resolution started with `--review`: the committed merges are proposed as the tenant's
/// review, where and how `roll --review` proposes them, and never pushed to the tenant branches (protected there).
/// Module proposals first; the superproject's waits for them to land (`roll --land` then proposes its pin of what
/// landed), so no superproject ref pins an unlanded commit. A proposal branch already there is updated in place
/// (leased on its value), or adopted as it is when it holds the same merge (same parents and tree): never a second
/// review. The run ends `waiting` and takes over what it replaces of the waiting review runs (the tenant's proposals
/// of the same repositories and targets), by the rule of `roll --review --tenant`: the other proposals stay with
/// their runs, and `roll --land` follows every waiting run. The result lives on the proposals: the working copy goes
/// back to where it started.
extension ResolveContinuer {
    /// Proposes the resolution; its report (`published`: every proposal is open).
    func propose(_ state: inout ResolveState) throws -> ResolveReport {
        let common = workspace.commonDirectory
        let review = try reviewOptions(state)
        let merges = updates(state)
        var reviews = review.recordingForge(Self.proposals(state, merges: merges, review: review))
        state.runId = transaction.runId
        state.phase = .publishing
        try state.record(in: transaction, commonDirectory: common)
        var pushes: [PushOutcome] = []
        var rejected = false
        for index in reviews.indices where reviews[index].state == "proposed" {
            guard let merge = merges.first(where: { $0.repository == reviews[index].repository }) else { continue }
            if let outcome = try proposeOne(&reviews[index], merge: merge, review: review) { pushes.append(outcome) }
            if reviews[index].state == "open" { try copyToMirror(reviews[index].proposed, merge: merge) }
            try transaction.recordReviews([reviews[index]])
            if reviews[index].state == "rejected" {
                rejected = true
                break  // the superproject never goes out before every module it pins
            }
        }
        if !rejected {
            // A proposal branch gets its review from the `create` command, once (as `roll --review` opens it).
            reviews = try ReviewOptions.withKnownAddresses(reviews, in: workspace)
            try review.openReviews(
                &reviews, console: console, again: "tenantctl resolve --continue",
                source: { proposal in
                    let merge = merges.first { $0.repository == proposal.repository }
                    let remote =
                        merge?.isSuperproject ?? true
                        ? try SuperprojectRemote.originURL(workspace) ?? workspace.remoteName : merge?.remote ?? ""
                    return (workspace.repository(relative: merge?.path ?? ""), remote)
                },
                record: { try transaction.recordReviews($0) })
        }
        let repositories = Self.repositories(state, reviews: reviews)
        let pins = try pinChanges(state).moved
        if rejected {
            state.phase = .committed
            try state.record(in: transaction, commonDirectory: common)
            return ResolveReport(
                action: "continue", tenant: state.tenant, branch: state.branch, repositories: repositories, pins: pins,
                runId: transaction.runId, published: false, pushes: pushes, next: "tenantctl resolve --abort",
                notes: [
                    "a proposal push was refused; what was proposed is in the journal of run \(transaction.runId) "
                        + "(tenantctl runs). `tenantctl resolve --continue` proposes again; `tenantctl resolve --abort` "
                        + "puts every repository back and takes the proposals back"
                ])
        }
        // The run waits for its reviews and takes over what they replace of the waiting review runs (the same
        // repository and target), as `roll --review --tenant` does: the other tenants' proposals stay with their
        // runs, which `roll --land` goes on following.
        let waiting = try RunJournal.all(gitDirectory: common).runs.filter {
            $0.state == .waiting && $0.reviews != nil && $0.runId != transaction.runId
        }
        do {
            try transaction.recordReviews(reviews)
            try transaction.end(.waiting, error: nil)
        } catch {
            throw ResolveError(
                .refused,
                "cannot record the proposals in the journal of run \(transaction.runId): \(error.description); free "
                    + "some space, then run `tenantctl resolve --continue` again: it adopts what was proposed")
        }
        try ReviewTakeover.takeOver(waiting, by: transaction.runId, reviews: reviews, in: workspace)
        // The working copy goes back to where the resolution started (what was proposed stays proposed).
        let back = try ResolveAborter(workspace: workspace, console: console, keepsPublished: true).run()
        return ResolveReport(
            action: "continue", tenant: state.tenant, branch: state.branch, repositories: repositories, pins: pins,
            runId: transaction.runId, published: true, pushes: pushes, next: "tenantctl roll --land",
            notes: [
                "proposed as the review of \(state.tenant) (review run \(transaction.runId)): "
                    + reviews.map { "\($0.repository) \($0.state) \(Self.shortRef($0.ref))" }.joined(separator: ", ")
                    + "; nothing was pushed to \(state.branch)",
                "the working copy is back where the resolution started; follow the reviews with `tenantctl roll "
                    + "--land`",
            ] + back.notes)
    }

    /// How the resolution is proposed: the working tree's review settings, the kinds the waiting review runs recorded
    /// (their proposals are updated the same way), and the `create` command of git config over the review object's.
    func reviewOptions(_ state: ResolveState) throws -> ReviewOptions {
        let project = try ProjectReader.workingTree(
            workspace, options: ValidationOptions(allowLocalRemotes: workspace.git.allowLocalRemotes))
        var review = try ReviewOptions(forge: state.forge.flatMap(ReviewForge.init(rawValue:))).reading(
            project.manifest
        ).recordingKinds(in: workspace)
        review.userCreate = try ReviewOptions.configuredCreate(workspace)
        return review
    }

    /// The tenant's proposals: every module merge, then the superproject commit, which waits while module
    /// proposals have to land first.
    static func proposals(_ state: ResolveState, merges: [ResolveState.Merge], review: ReviewOptions)
        -> [RunJournal.Review]
    {
        let modulesFirst = merges.contains { !$0.isSuperproject }
        return merges.compactMap { merge in
            guard let new = merge.commit else { return nil }
            return RunJournal.Review(
                repository: merge.repository, tenant: state.tenant, target: merge.branch,
                ref: review.proposal(repository: merge.repository, tenant: state.tenant, target: merge.branch),
                base: merge.ours, general: merge.theirs ?? state.superproject.theirs ?? merge.ours, proposed: new,
                state: merge.isSuperproject && modulesFirst ? "waiting" : "proposed")
        }
    }

    /// Pushes one proposal (leased on the proposal branch's value on its remote), or adopts the one there when it
    /// holds the same merge: on the proposal branch, or as the current state of a review in the forge's review
    /// namespace (`refs/for` kinds). Records the push in the run's journal and the proposal's new state, address and
    /// review ref, as `roll --review` does. Nil: adopted.
    func proposeOne(_ proposal: inout RunJournal.Review, merge: ResolveState.Merge, review: ReviewOptions) throws
        -> PushOutcome?
    {
        let from = workspace.repository(relative: merge.path)
        let remote = try ModuleRemotes.reachable(merge.remote, workspace: workspace)
        let branch = proposal.ref.hasPrefix("refs/heads/")
        var old: String?
        if branch {
            let context = "read the proposal \(proposal.ref) of \(merge.repository)"
            old = try from.remoteValues(of: [proposal.ref], on: remote, context: context)[proposal.ref]
            if let old, try Self.holdsTheSameMerge(old, as: proposal.proposed, in: from, context: context) {
                proposal.proposed = old
                proposal.state = "open"
                return nil
            }
        } else if try adoptHeldReview(&proposal, from: from, remote: remote, review: review) {
            return nil
        }
        // Never backwards: a proposal that moved past tenantctl's last push is the team's.
        let rule = try review.updateRule(
            proposal, current: branch ? old : try heldHead(of: proposal, from: from, remote: remote, review: review),
            in: from, workspace: workspace)
        if let teams = rule.teams {
            proposal.state = "rejected"
            let detail =
                "\(Self.shortRef(proposal.ref)) moved past tenantctl's last push to \(ObjectID.short(teams)), a commit "
                + "tenantctl did not make: it is the team's, and the resolution is not pushed over it; merge it into "
                + "the proposal yourself, or land it and resolve again"
            console?.warn(TerminalText.escaped("\(merge.repository) \(proposal.target): " + detail))
            return PushOutcome(repository: merge.repository, accepted: false, detail: detail, remoteMessages: [])
        }
        let update = try RefUpdate(checking: proposal.ref, new: proposal.proposed, old: old)
        try transaction.record(
            repository: merge.repository, remote: merge.remote, refs: [update], published: nil, landed: nil)
        let title = try from.subject(of: proposal.proposed, context: "read the subject of the proposal")
        console?.progress("proposing \(merge.branch) of \(merge.repository)")
        let outcome: PushOutcome
        do {
            outcome = try from.propose(
                update, lease: branch,
                options: review.proposalOptions(
                    repository: merge.repository, tenant: proposal.tenant, target: proposal.target, title: title)
                    + rule.options,
                as: merge.repository, to: remote)
        } catch {
            try transaction.record(repository: merge.repository, refs: [update], published: nil, landed: nil)
            throw error
        }
        try transaction.record(repository: merge.repository, refs: [update], published: outcome.accepted, landed: nil)
        let open = outcome.accepted || ReviewOptions.forgeHasIt(outcome)
        proposal.state = open ? "open" : "rejected"
        if open, review.forge(of: merge.repository) != .branch,
            let address = ReviewOptions.address(inServerMessages: outcome.remoteMessages)
        {
            proposal.url = address
        }
        if open, !branch {
            let held = try heldReviews(of: merge.repository, from: from, remote: remote, review: review)
            proposal.reviewRef = ReviewOptions.newestReview(held.filter { $0.value == proposal.proposed }.map(\.key))
        }
        return outcome
    }

    /// Adopts the review the forge holds in its review namespace when its current commit (an AGit pull request's
    /// head, a Gerrit change's newest patch set) holds the same merge as `proposal`: nothing is pushed again.
    func adoptHeldReview(
        _ proposal: inout RunJournal.Review, from: GitRepository, remote: String, review: ReviewOptions
    ) throws -> Bool {
        let held = try heldReviews(of: proposal.repository, from: from, remote: remote, review: review)
        let context = "compare the proposal of \(proposal.repository) with the reviews its forge holds"
        for ref in Self.currentReviews(Array(held.keys)) {
            guard let commit = held[ref],
                try Self.holdsTheSameMerge(commit, as: proposal.proposed, in: from, context: context)
            else { continue }
            proposal.proposed = commit
            proposal.reviewRef = ref
            proposal.state = "open"
            return true
        }
        return false
    }

    /// The head of the review tenantctl last pushed `proposal` to (its pull request's, or its Gerrit change's newest
    /// patch set), as the forge holds it now; nil when no journal names that review.
    func heldHead(of proposal: RunJournal.Review, from: GitRepository, remote: String, review: ReviewOptions) throws
        -> String?
    {
        guard let reviewRef = try ReviewOptions.lastReviewRef(proposal, in: workspace) else { return nil }
        let held = try heldReviews(of: proposal.repository, from: from, remote: remote, review: review)
        guard reviewRef.hasPrefix("refs/changes/"), let slash = reviewRef.lastIndex(of: "/") else {
            return held[reviewRef]
        }
        let change = String(reviewRef[...slash])
        return ReviewOptions.newestReview(held.keys.filter { $0.hasPrefix(change) }).flatMap { held[$0] }
    }

    /// The review refs the forge of `repository` holds (ref → commit), from one `ls-remote` of its review namespace;
    /// empty for the kinds that propose on branches.
    func heldReviews(of repository: String, from: GitRepository, remote: String, review: ReviewOptions) throws
        -> [String: String]
    {
        guard let namespace = review.reviewNamespace(of: repository) else { return [:] }
        return try from.remoteValues(
            of: [namespace + "*"], on: remote, context: "read the reviews of \(repository) on its forge (\(namespace)*)"
        )
    }

    /// Each review's current ref among `refs`, newest review first: a Gerrit change's newest patch set
    /// (`refs/changes/01/1/2` over `…/1/1`); every other ref is a review of its own.
    static func currentReviews(_ refs: [String]) -> [String] {
        var newest: [String: String] = [:]
        for ref in ReviewOptions.newestFirst(refs) {
            let review = ref.hasPrefix("refs/changes/") ? String(ref[..<(ref.lastIndex(of: "/") ?? ref.endIndex)]) : ref
            if newest[review] == nil { newest[review] = ref }
        }
        return ReviewOptions.newestFirst(Array(newest.values))
    }

    /// Puts a module's proposed commit into the module's mirror, where `roll --land` follows the proposal (a commit
    /// proposed into a forge's review namespace is on no branch the mirror fetches), as roll's own proposals are.
    func copyToMirror(_ commit: String, merge: ResolveState.Merge) throws {
        guard !merge.isSuperproject else { return }
        let path = ModuleMirrors(workspace: workspace).path(for: merge.repository)
        guard FileManager.default.fileExists(atPath: path) else { return }
        let mirror = workspace.superproject.repository(at: path)
        guard try !mirror.hasCommit(commit) else { return }
        try mirror.fetchCommits(
            [commit], from: workspace.path(merge.path),
            context: "copy the proposal of \(merge.repository) into its mirror")
    }

    /// Whether the proposal `existing` holds the same merge as `proposed`: the same commit, or one with the same
    /// parents and tree (a resolution made again the same way).
    static func holdsTheSameMerge(
        _ existing: String, as proposed: String, in repository: GitRepository, context: String
    )
        throws -> Bool
    {
        guard existing != proposed else { return true }
        guard try repository.hasCommit(existing) else { return false }
        return try repository.parents(of: existing, context: context)
            == repository.parents(of: proposed, context: context)
            && repository.tree(of: existing, context: context) == repository.tree(of: proposed, context: context)
    }

    /// Each repository of the resolution with its proposal's state, the superproject first.
    static func repositories(_ state: ResolveState, reviews: [RunJournal.Review]) -> [ResolveReport.Repository] {
        let repositories = state.merges.map { merge -> ResolveReport.Repository in
            let proposal = reviews.first { $0.repository == merge.repository }
            let status: String
            switch proposal?.state {
            case nil: status = "up-to-date"
            case "waiting": status = "waiting"
            case "open": status = "proposed"
            default: status = "committed"
            }
            var entry = ResolveReport.Repository(
                repository: merge.repository, path: merge.path, branch: merge.branch, status: status,
                from: merge.ours, to: merge.commit ?? merge.ours)
            entry.url = proposal?.url
            return entry
        }
        return repositories.filter { $0.path.isEmpty } + repositories.filter { !$0.path.isEmpty }
    }

    /// `tenantctl/roll/t2` for a proposal branch, the ref itself otherwise.
    static func shortRef(_ ref: String) -> String {
        ref.hasPrefix("refs/heads/") ? String(ref.dropFirst("refs/heads/".count)) : ref
    }
}
