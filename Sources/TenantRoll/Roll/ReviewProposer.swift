import Foundation

/// How a review roll proposes: the forge kind and where its proposal branches live.
public struct ReviewOptions: Sendable, Equatable {
    /// What is pushed where. Only `branch` (a proposal branch per repository and tenant, as for GitHub, Bitbucket
    /// or any host) exists so far.
    public enum Forge: String, Sendable, Equatable, CaseIterable {
        case branch
    }

    /// The default prefix of the proposal branches.
    public static let defaultPrefix = "tenantctl/roll"

    public var forge: Forge
    /// Proposal branches are `<prefix>/<tenant>` in every repository.
    public var branchPrefix: String

    public init(forge: Forge = .branch, branchPrefix: String = ReviewOptions.defaultPrefix) {
        self.forge = forge
        self.branchPrefix = branchPrefix
    }

    /// The proposal branch of `tenant` (`refs/heads/tenantctl/roll/t2`).
    public func ref(for tenant: String) -> String { "refs/heads/\(branchPrefix)/\(tenant)" }
}

/// Review states that mean "people still have to act": a run with one of them is waiting.
enum ReviewState {
    static let open: Set<String> = ["proposed", "open", "waiting"]
    static let attention: Set<String> = ["conflict", "closed", "rejected"]
}

/// `roll --review`: the merges plain roll computes, pushed to tenantctl's own proposal branches instead of the
/// tenant branches. Module proposals first; a tenant's superproject proposal only once it needs no module commit
/// that has not landed (so no superproject ref ever pins a commit that is only on a proposal branch); re-runs adopt
/// what is already proposed and update a proposal that a new general change made stale.
struct ReviewProposer {
    let workspace: Workspace
    let git: Git
    let console: Console?

    /// Proposes the execution's merges; returns the report with every proposal. A dry run pushes nothing.
    func propose(
        plan: RollPlan, execution: RollExecution, snapshot: Snapshot, options: RollOptions, review: ReviewOptions,
        runId newRun: String, start: Date
    ) throws -> RollReport {
        let (adopted, previous) = try adopt(
            proposals(plan: plan, execution: execution, review: review), snapshot: snapshot)
        var reviews = adopted
        let runId = options.dryRun ? nil : newRun
        var report = RollReport.make(
            plan: plan, execution: execution, publication: RollPublication(), runId: runId, dryRun: options.dryRun,
            start: start)
        guard !options.dryRun, let runId, !reviews.isEmpty else {
            report.reviews = reviews
            return Self.marked(report, reviews: reviews)
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
        let recorder = try RollJournalRecorder(journal, gitDirectory: workspace.commonDirectory)
        InterruptNote.set(
            "review roll \(runId) may have pushed part of its proposals: run `tenantctl roll --review` again")
        var pushes: [PushOutcome] = []
        // Modules first, then the superproject: a superproject proposal pins only commits on module branches.
        let repositories = plan.modules.map(\.name) + [RollPublication.superproject]
        for repository in repositories {
            let updates = journal.entries.filter { $0.repository == repository }.map {
                RefUpdate(ref: $0.ref, new: $0.new, old: $0.old)
            }
            guard !updates.isEmpty else { continue }
            try recorder.requireWritable()
            let outcome = try push(updates, repository: repository, snapshot: snapshot, recorder: recorder)
            pushes.append(outcome)
            for index in reviews.indices
            where reviews[index].repository == repository
                && updates.contains(where: { $0.ref == reviews[index].ref })
            {
                reviews[index].state = outcome.accepted ? "open" : "rejected"
            }
        }
        var final = recorder.current
        final.reviews = reviews
        final.state = reviews.contains { ReviewState.open.contains($0.state) } ? .waiting : .finished
        try final.write(gitDirectory: workspace.commonDirectory)
        // This run took over every open proposal (adopted or updated): earlier waiting review runs end here.
        let earlier = try RunJournal.all(gitDirectory: workspace.commonDirectory).runs.filter {
            $0.state == .waiting && $0.runId != runId
        }
        try Transaction.markFinished(earlier, by: runId, in: workspace)
        report.pushes = pushes
        report.reviews = reviews
        return Self.marked(report, reviews: reviews)
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
                    ref: review.ref(for: outcome.merge.tenant), base: outcome.merge.ours,
                    general: outcome.merge.theirs, proposed: commit, state: "proposed"))
        }
        let owners = Dictionary(
            plan.tenants.map { ("refs/heads/" + $0.tenant.branch, $0.tenant.id) },
            uniquingKeysWith: { first, _ in first })
        for update in execution.superprojectUpdates {
            guard let new = update.new else { continue }
            let tenant = owners[update.ref] ?? plan.generalBranch
            // A tenant waits for its module proposals, and for the general branch's re-pin, which its merge
            // must take from the general branch as it landed.
            let waits =
                owners[update.ref] != nil
                && (!(execution.tenantNeeds[tenant] ?? []).isEmpty || execution.generalCommit != nil)
            reviews.append(
                .init(
                    repository: RollPublication.superproject, tenant: tenant,
                    target: String(update.ref.dropFirst("refs/heads/".count)), ref: review.ref(for: tenant),
                    base: update.old, general: execution.generalCommit ?? plan.generalTip, proposed: new,
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
        for index in adopted.indices where adopted[index].state == "proposed" {
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
                adopted[index].proposed = existing
                adopted[index].state = "open"
            }
        }
        return (adopted, values)
    }

    /// The repository a proposal's objects are in: the superproject, or the module's mirror.
    func repository(_ name: String, snapshot: Snapshot) throws -> GitRepository {
        if name == RollPublication.superproject { return GitRepository(workspace.root, git: git) }
        guard let mirror = snapshot.mirrors[name] else { throw RollError("no mirror of module \(name)") }
        return GitRepository(mirror, git: git)
    }

    /// Where a repository is pushed: the superproject's remote name, or the module's URL.
    func remote(of name: String, snapshot: Snapshot) -> String {
        name == RollPublication.superproject ? workspace.remoteName : (snapshot.specs[name]?.url ?? "")
    }

    /// One atomic push of a repository's proposals, each leased on the value it had (a proposal branch is
    /// tenantctl's own: it moves only from where tenantctl left it).
    func push(_ updates: [RefUpdate], repository: String, snapshot: Snapshot, recorder: RollJournalRecorder) throws
        -> PushOutcome
    {
        let source = try self.repository(repository, snapshot: snapshot).path
        let remote = self.remote(of: repository, snapshot: snapshot)
        console?.progress("proposing \(English.count(updates.count, "branch")) of \(repository)")
        let refs = updates.map(\.ref)
        let outcome: PushOutcome
        do {
            outcome = try AtomicPush.push(
                updates, repository: repository, from: source, to: remote, mode: .restore, git: git)
        } catch {
            try recorder.record(repository: repository, refs: refs, published: nil)
            throw error
        }
        try recorder.record(repository: repository, refs: refs, published: outcome.accepted)
        return outcome
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
            } else if mine.contains(where: { $0.state == "waiting" }) {
                report.tenants[index].status = "waiting"
            } else {
                report.tenants[index].status = "proposed"
            }
            report.totals.rolled -= 1
        }
        return report
    }
}
