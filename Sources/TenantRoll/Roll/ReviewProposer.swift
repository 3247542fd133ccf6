import Foundation

/// `roll --review`: the merges plain roll computes, pushed to tenantctl's own proposal branches instead of the
/// tenant branches. Module proposals first; a tenant's superproject proposal only once it needs no module commit
/// that has not landed (so no superproject ref ever pins a commit that is only on a proposal branch); re-runs adopt
/// what is already proposed and update a proposal that a new general change made stale.
struct ReviewProposer {
    let workspace: Workspace
    let console: Console?

    /// Proposes the execution's merges; returns the report with every proposal. A dry run pushes nothing.
    func propose(
        plan: RollPlan, execution: RollExecution, snapshot: Snapshot, options: RollOptions, review: ReviewOptions,
        runId newRun: String, start: Date
    ) throws -> RollReport {
        let (adopted, previous) = try adopt(
            review.recordingForge(proposals(plan: plan, execution: execution, review: review)), snapshot: snapshot)
        // Never backwards: a proposal that moved past tenantctl's last push is the team's, and stays as it is.
        let (kept, forcing) = try keepingTheTeams(
            try adoptReviews(adopted, snapshot: snapshot, review: review), previous: previous, snapshot: snapshot,
            review: review)
        var reviews = try withKnownAddresses(kept)
        try ReviewManners(gitDirectory: workspace.commonDirectory).limit(&reviews, previous: previous, review: review)
        let runId = options.dryRun ? nil : newRun
        var report = RollReport.make(
            plan: plan, execution: execution, publication: RollPublication(), runId: runId, dryRun: options.dryRun,
            start: start)
        guard !options.dryRun, let runId, !reviews.isEmpty else {
            report.reviews = reviews
            return review.namingResolveForReview(Self.marked(report, reviews: reviews))
        }
        var journal = RollJournal(runId: runId, createdAt: ISO8601DateFormatter().string(from: start), entries: [])
        journal.command = "roll"
        journal.arguments = options.arguments
        journal.worktree = workspace.root
        journal.state = .running
        journal.reviews = reviews
        let pushing = reviews.filter { $0.state == "proposed" }
        journal.entries = pushing.map { proposal in
            RollJournal.Entry(
                repository: proposal.repository, remote: remote(of: proposal.repository, snapshot: snapshot),
                ref: proposal.ref, old: previous[proposal.repository + " " + proposal.ref],
                new: proposal.proposed)
        }
        let transaction: Transaction
        do {
            transaction = try Transaction.begin(planned: journal, gitDirectory: workspace.commonDirectory)
        } catch {
            throw RollError("cannot write the journal of the review roll: \(error.description); nothing was proposed")
        }
        InterruptNote.set(
            "review roll \(runId) may have pushed part of its proposals: run `tenantctl roll --review` again")
        var pushes: [PushOutcome] = []
        var ended = RunJournal.State.running
        do {
            pushes = try pushAll(
                journal.entries, reviews: &reviews, plan: plan, snapshot: snapshot, review: review,
                forcing: forcing, transaction: transaction)
            try openReviews(&reviews, snapshot: snapshot, review: review, transaction: transaction)
            ended = Self.endState(reviews, pushes: pushes)
            try transaction.end(ended, error: Self.refusal(reviews, pushes: pushes))
        } catch let failure as DurableFileError {
            throw RollError(
                "cannot record the review roll's proposals in its journal: \(failure.description); free some space, "
                    + "then run `tenantctl roll --review` again: it adopts what was proposed")
        } catch {
            // Interrupted, the run stays unfinished (its re-run adopts what landed); otherwise it ends as the journal
            // model says: failed when nothing landed, unfinished with the error when a proposal push landed.
            if !Cancellator.shared.isCancelled { transaction.fail(error) }
            throw error
        }
        // This run took over the open proposals it replaces (adopted or updated): an earlier waiting review run
        // ends here when that is all it followed; another tenant's proposals stay with their run.
        let earlier = try RunJournal.all(gitDirectory: workspace.commonDirectory).runs.filter {
            $0.state == .waiting && $0.reviews != nil && $0.runId != runId && ended != .failed
        }
        try ReviewTakeover.takeOver(earlier, by: runId, reviews: reviews, in: workspace)
        report.pushes = pushes
        report.reviews = ReviewCompare.marking(reviews, review: review) { webRemote(of: $0, snapshot: snapshot) }
        return review.namingResolveForReview(Self.marked(report, reviews: reviews))
    }

    /// Pushes the proposals of `entries`, modules first, and records each answer and each proposal's new state
    /// (`open`, or `rejected` when refused) in the journal as it lands; returns every push's outcome. `forcing`: the
    /// keys (``key(_:)``) of the AGit updates pushed with `-o force-push=true`.
    func pushAll(
        _ entries: [RunJournal.Entry], reviews: inout [RunJournal.Review], plan: RollPlan, snapshot: Snapshot,
        review: ReviewOptions, forcing: Set<String> = [], transaction: Transaction
    ) throws -> [PushOutcome] {
        var pushes: [PushOutcome] = []
        // Modules first, then the superproject: a superproject proposal pins only commits on module branches.
        for repository in plan.modules.map(\.name) + [RollPublication.superproject] {
            let updates = try entries.filter { $0.repository == repository }.map {
                try RefUpdate(checking: $0.ref, new: $0.new, old: $0.old)
            }
            guard !updates.isEmpty else { continue }
            // Branches go in one atomic push per repository; push options and `refs/for` one proposal a push.
            let groups = review.forge(of: repository) == .branch ? [updates] : updates.map { [$0] }
            for group in groups {
                let refs = Set(group.map(\.ref.name))
                let answered = reviews.indices.filter {
                    reviews[$0].repository == repository && refs.contains(reviews[$0].ref)
                }
                let options = try answered.first.map { index in
                    let proposal = reviews[index]
                    let title = try self.repository(repository, snapshot: snapshot).subject(
                        of: proposal.proposed, context: "read the subject of the proposal \(proposal.ref)")
                    return review.pushOptions(
                        repository: repository, tenant: proposal.tenant, target: proposal.target, title: title)
                        + (forcing.contains(Self.key(proposal)) ? [Self.agitForcePush] : [])
                }
                let outcome = try push(
                    group, options: options ?? [], repository: repository, snapshot: snapshot,
                    transaction: transaction)
                pushes.append(outcome)
                // A forge that has this very commit already (Gerrit's "no new changes") has the review open.
                let open = outcome.accepted || Self.hasItAlready(outcome)
                let address = ReviewCreate.address(inServerMessages: outcome.remoteMessages)
                for index in answered {
                    reviews[index].state = open ? "open" : ReviewManners.refusedState(outcome)
                    if open, review.forge(of: repository) != .branch, let address { reviews[index].url = address }
                    if open, reviews[index].ref.hasPrefix("refs/for/") {
                        reviews[index].reviewRef = try reviewRef(
                            holding: reviews[index].proposed, of: repository, snapshot: snapshot, review: review)
                    }
                }
                try transaction.recordReviews(answered.map { reviews[$0] })
            }
        }
        return pushes
    }

    /// Every proposal of the execution: each module merge of a tenant that rolls, then the superproject commits —
    /// the general branch's re-pin, and each tenant's commit when it needs no new module commit and no re-pin
    /// (otherwise it waits for those proposals to land).
    func proposals(plan: RollPlan, execution: RollExecution, review: ReviewOptions) -> [RunJournal.Review] {
        var reviews: [RunJournal.Review] = []
        for outcome in execution.moduleMerges {
            guard let commit = outcome.commit, case .rolled = execution.tenants[outcome.merge.tenant] else { continue }
            reviews.append(
                .init(
                    repository: outcome.merge.module, tenant: outcome.merge.tenant, target: outcome.merge.branch,
                    ref: review.proposalRef(
                        repository: outcome.merge.module, tenant: outcome.merge.tenant, target: outcome.merge.branch),
                    base: outcome.merge.ours.hex,
                    general: outcome.merge.theirs.hex, proposed: commit, state: "proposed"))
        }
        let owners = Dictionary(
            plan.tenants.map { ("refs/heads/" + $0.tenant.branch, $0.tenant.id) },
            uniquingKeysWith: { first, _ in first })
        for update in execution.superprojectUpdates {
            guard let new = update.new else { continue }
            let tenant = owners[update.ref.name] ?? plan.generalBranch
            // A tenant waits for its module proposals, and for the general branch's re-pin, which its merge
            // must take from the general branch as it landed.
            let waits =
                owners[update.ref.name] != nil
                && (!(execution.tenantNeeds[tenant] ?? []).isEmpty || execution.generalCommit != nil)
            reviews.append(
                .init(
                    repository: RollPublication.superproject, tenant: tenant,
                    target: String(update.ref.name.dropFirst("refs/heads/".count)),
                    ref: review.proposalRef(
                        repository: RollPublication.superproject, tenant: tenant,
                        target: String(update.ref.name.dropFirst("refs/heads/".count))),
                    base: update.old?.hex, general: execution.generalCommit ?? plan.generalTip.hex, proposed: new.hex,
                    state: waits ? "waiting" : "proposed"))
        }
        return reviews
    }

    /// Adopts what the remotes already have (as last fetched): a proposal branch whose commit has the same parents
    /// and tree as the new proposal is kept as it is (no push, no duplicate); one that differs is updated in place.
    /// Also returns each proposal branch's value before (`<repository> <ref>` → commit; absent: it is created).
    func adopt(_ reviews: [RunJournal.Review], snapshot: Snapshot) throws -> (
        [RunJournal.Review], [String: String]
    ) {
        var adopted = reviews
        var values: [String: String] = [:]
        // A review namespace (`refs/for`) is read back apart (``adoptReviews(_:snapshot:review:)``).
        for index in adopted.indices
        where adopted[index].state == "proposed" && adopted[index].ref.hasPrefix("refs/heads/") {
            let proposal = adopted[index]
            let repository = try self.repository(proposal.repository, snapshot: snapshot)
            let local =
                proposal.repository == RollPublication.superproject
                ? SuperprojectRemote.refPrefix(workspace) + String(proposal.ref.dropFirst("refs/heads/".count))
                : proposal.ref
            let context = "read the proposal \(proposal.ref) of \(proposal.repository)"
            let existing = try repository.refValue(local, context: context)
            guard let existing else { continue }
            values[proposal.repository + " " + proposal.ref] = existing
            if try repository.parents(of: existing, context: context)
                == repository.parents(of: proposal.proposed, context: context),
                try repository.tree(of: existing, context: context)
                    == repository.tree(of: proposal.proposed, context: context)
            {
                // The general branch's re-pin rolls in what it proposes: adopted, it rolls in the adopted commit.
                if proposal.isGeneralRepin { adopted[index].general = existing }
                adopted[index].proposed = existing
                adopted[index].state = "open"
            }
        }
        return (adopted, values)
    }

    /// The repository a proposal's objects are in: the superproject, or the module's mirror.
    func repository(_ name: String, snapshot: Snapshot) throws -> GitRepository {
        if name == RollPublication.superproject { return snapshot.superproject }
        guard let mirror = snapshot.existingMirror(of: name) else { throw RollError("no mirror of module \(name)") }
        return mirror
    }

    /// A repository's remote URL, for the host's address that opens a review (``ReviewCompare``); nil when unknown.
    func webRemote(of name: String, snapshot: Snapshot) -> String? {
        name == RollPublication.superproject
            ? (try? SuperprojectRemote.originURL(workspace)) ?? nil : snapshot.specs[name]?.url
    }

    /// Where a repository is pushed: the superproject's remote name, or the module's URL.
    func remote(of name: String, snapshot: Snapshot) -> String {
        name == RollPublication.superproject ? workspace.remoteName : (snapshot.specs[name]?.url ?? "")
    }

    /// One atomic push of a repository's proposals, each leased on the value it had (a proposal branch is
    /// tenantctl's own: it moves only from where tenantctl left it).
    func push(
        _ updates: [RefUpdate], options: [String], repository: String, snapshot: Snapshot, transaction: Transaction
    ) throws -> PushOutcome {
        let source = try self.repository(repository, snapshot: snapshot)
        let remote = self.remote(of: repository, snapshot: snapshot)
        console?.progress("proposing \(English.count(updates.count, "proposal")) of \(repository)")
        let refs = updates.map(\.ref.name)
        let outcome: PushOutcome
        do {
            if let update = updates.first, updates.count == 1,
                !options.isEmpty || update.ref.name.hasPrefix("refs/for/")
            {
                // A review namespace is no branch: nothing to lease.
                outcome = try source.propose(
                    update, lease: update.ref.isBranch, options: options, as: repository, to: remote)
            } else {
                outcome = try source.push(updates, as: repository, to: remote, mode: .restore)
            }
        } catch {
            try transaction.recordAnswer(repository: repository, refs: refs, published: nil)
            throw error
        }
        try transaction.recordAnswer(repository: repository, refs: refs, published: outcome.accepted)
        return outcome
    }

    /// Whether a refused proposal push was refused because the forge has that commit as a review already.
    static func hasItAlready(_ outcome: PushOutcome) -> Bool {
        let text = (outcome.remoteMessages + [outcome.detail]).joined(separator: "\n").lowercased()
        return !outcome.accepted && text.contains("no new changes")
    }

    /// How a review run that pushed its proposals ends: `waiting` while one is open, `failed` when every push was
    /// refused (nothing was proposed), `finished` otherwise.
    static func endState(_ reviews: [RunJournal.Review], pushes: [PushOutcome]) -> RunJournal.State {
        let proposedNothing =
            !pushes.isEmpty && pushes.allSatisfy { !$0.accepted && !hasItAlready($0) }
            && !reviews.contains { $0.state == "open" || $0.state == ReviewManners.queued }
        if proposedNothing { return .failed }
        if reviews.contains(where: { ReviewState.open.contains($0.state) }) { return .waiting }
        return .finished
    }

    /// The refusals of the proposal pushes, for the journal (nil when none was refused).
    static func refusal(_ reviews: [RunJournal.Review], pushes: [PushOutcome]) -> String? {
        let refused = pushes.filter { !$0.accepted }
        guard !refused.isEmpty else { return nil }
        return "proposals refused: " + refused.map { "\($0.repository): \($0.detail)" }.joined(separator: "; ")
    }

    /// The report with each tenant's status from its proposals: `proposed` (a superproject proposal is open),
    /// `waiting` (its module proposals must land first), `rejected` when a proposal push was refused.
    static func marked(_ report: RollReport, reviews: [RunJournal.Review]) -> RollReport {
        var report = report
        for index in report.tenants.indices where ["rolled", "would-roll"].contains(report.tenants[index].status) {
            let mine = reviews.filter { $0.tenant == report.tenants[index].id }
            if mine.contains(where: { $0.state == "rejected" }) {
                report.tenants[index].status = "rejected"
                report.totals.rejected += 1
            } else if mine.contains(where: { $0.state == "waiting" || $0.state == ReviewManners.queued }) {
                report.tenants[index].status = "waiting"
            } else {
                report.tenants[index].status = "proposed"
            }
            report.totals.rolled -= 1
        }
        // general_dev's re-pin, when it goes through a review, is proposed (or refused), not rolled.
        if let repin = reviews.first(where: \.isGeneralRepin), ["rolled", "would-roll"].contains(report.general.status)
        {
            report.general.status = repin.state == "rejected" ? "rejected" : "proposed"
            // A conflicting tenant's resolve merges the general branch as it landed: it waits for the re-pin.
            for index in report.tenants.indices where report.tenants[index].status == "conflict" {
                report.tenants[index].after =
                    "once \(report.generalBranch)'s re-pin landed (tenantctl roll --land)"
            }
        }
        return report
    }
}
