import Foundation

/// What `roll --land` and `roll --abandon` found and did: the run followed and each of its proposals.
public struct ReviewReport: Sendable, Equatable, Codable {
    /// Format version of this JSON.
    public var schemaVersion = 1
    /// The review run followed.
    public var runId: String
    /// The review run that took over its open proposals and proposed what became possible (a tenant's superproject
    /// pin once its module proposals landed); nil when none was needed.
    public var followedBy: String?
    /// Every proposal, with its state.
    public var reviews: [RunJournal.Review]
    /// Proposal branches removed (`--abandon`), as `<repository> <ref>`.
    public var removed: [String] = []
    /// Every review run followed, oldest first, when `--land` followed more than one (each waits for its own
    /// tenants' proposals); `runId` is the last of them and `reviews` holds the proposals of all.
    public var runs: [String]?
    /// Each proposal closed on the forge without landing, with its two ways on (propose it again, or stop following
    /// it): the run waits on that decision.
    public var closed: [String] = []

    /// 2 when a proposal needs attention (conflict, closed, rejected), 75 while some are open, 0 when all landed.
    public var exitCode: Int32 { ReviewReport.exitCode(reviews) }

    /// The exit code of a set of proposals (see ``exitCode``).
    public static func exitCode(_ reviews: [RunJournal.Review]) -> Int32 {
        if reviews.contains(where: { ReviewState.attention.contains($0.state) }) { return 2 }
        if reviews.contains(where: { ReviewState.open.contains($0.state) }) { return 75 }
        return 0
    }

    /// One line per proposal: `Infrastructure t2: landed (merge 8c1e2aa) tenantctl/roll/t2 1f2e3d4`, and the review's
    /// address when it is known.
    static func line(_ review: RunJournal.Review) -> String {
        var state =
            review.reviewOpened == false
            ? "pushed, no review opened" : review.state == ReviewManners.queued ? "waiting for a slot" : review.state
        if let landed = review.landed { state += " (\(review.method ?? "") \(ObjectID.short(landed)))" }
        let branch = review.ref.hasPrefix("refs/heads/") ? String(review.ref.dropFirst(11)) : review.ref
        let address = review.url.map { " " + $0 } ?? review.compare.map { " (open it: \($0))" } ?? ""
        return
            "  \(review.repository) \(review.target): \(state) \(branch) \(ObjectID.short(review.proposed))\(address)"
    }

    /// The proposals under a review roll's table, and how to follow them.
    static func proposalLines(_ reviews: [RunJournal.Review], runId: String?) -> String {
        guard !reviews.isEmpty else { return "\nnothing to propose" }
        var text = "\nproposals:\n" + reviews.map { TerminalText.escaped(line($0)) }.joined(separator: "\n")
        if reviews.contains(where: { $0.reviewOpened == false }) { text += "\n" + ReviewCompare.advice }
        if let slot = ReviewManners.slotLine(reviews) { text += "\n" + slot }
        if let runId {
            text +=
                "\nreview run: \(runId) (follow with `tenantctl roll --land`, stop with `tenantctl roll --abandon \(runId)`)"
        }
        return text
    }

    /// The run's proposals, one line each, and what to do next.
    public func renderText() -> String {
        var lines = [runs.map { "review runs " + $0.joined(separator: ", ") } ?? "review run \(runId)"]
        lines += reviews.map(Self.line)
        if reviews.contains(where: { $0.reviewOpened == false }) { lines.append(ReviewCompare.advice) }
        if !removed.isEmpty { lines.append("removed: " + removed.joined(separator: ", ")) }
        if let followedBy { lines.append("proposals made now are followed by review run \(followedBy)") }
        switch exitCode {
        case 75:
            lines.append("reviews are still open: run `tenantctl roll --land` again once they landed")
            if let slot = ReviewManners.slotLine(reviews) { lines.append(slot) }
        case 2:
            lines.append("a proposal needs attention (conflict, closed or rejected)")
            lines += closed
        default: break
        }
        return lines.map { TerminalText.escaped($0) }.joined(separator: "\n")
    }
}

/// `roll --land` and `roll --abandon`: following a review run's proposals under the workspace lock.
public enum ReviewRun {
    /// Follows the review run `runId` (default: every waiting one, oldest first): fetches, applies the landing rule
    /// to every open proposal, and when a tenant's module proposals all landed, proposes its superproject pin of what
    /// landed (a new review run that takes over the open proposals). A run is finished once every proposal landed.
    public static func land(
        runId: String?, options: RollOptions, in workspace: Workspace, wait: Bool, console: Console? = nil
    ) throws -> ReviewReport {
        let lock = try WorkspaceLock(gitDirectory: workspace.commonDirectory, wait: wait)
        defer { lock.release() }
        // It may propose (a tenant's superproject pin): refused while another command's run is unfinished.
        // A review run it started and that was killed is unfinished: the proposal made now finishes it.
        var resumed = try Transaction.unfinishedRuns(workspace, allowing: "roll", arguments: ["--review"])
        // A review run killed right after its end leaves what it took over waiting: that ends now.
        try ReviewTakeover.settle(in: workspace)
        let runs = try waitingRuns(runId, in: workspace)
        // `--forge` is taken where it agrees with the kind each followed run recorded, refused where it differs.
        if let requested = options.review?.forge {
            var check = ReviewOptions(forge: requested)
            check.recorded = ReviewOptions.recordedKinds(of: runs)
            try check.refusingOtherKind()
        }
        var snapshotOptions = Snapshot.Options(
            purpose: .report, fetch: options.fetch, jobs: options.jobs,
            allowLocalRemotes: workspace.git.allowLocalRemotes)
        snapshotOptions.keepBatch = false
        let snapshot = try Snapshot.load(workspace: workspace, options: snapshotOptions, console: console)
        var reports: [ReviewReport] = []
        for run in runs {
            // A proposal made for an earlier run took over what it replaces: a run it ended is not followed again.
            let journal = try RunJournal.read(gitDirectory: workspace.commonDirectory, runId: run.runId)
            guard runId != nil || journal.state == .waiting else { continue }
            reports.append(
                try land(
                    journal, snapshot: snapshot, resumed: &resumed, options: options, in: workspace, console: console))
        }
        guard var report = reports.last else {
            throw RollError("no review roll is waiting: propose one with `tenantctl roll --review`")
        }
        if reports.count > 1 {
            report.runs = reports.map(\.runId)
            report.reviews = Self.once(reports.flatMap(\.reviews))
            report.followedBy = reports.compactMap(\.followedBy).last
            report.closed = reports.flatMap(\.closed)
        }
        return report
    }

    /// Follows one review run (see ``land(runId:options:in:wait:console:)``); `resumed`: the killed review runs
    /// that a proposal made now finishes (emptied once one did).
    static func land(
        _ journal: RunJournal, snapshot: Snapshot, resumed: inout [RunJournal], options: RollOptions,
        in workspace: Workspace, console: Console?
    ) throws -> ReviewReport {
        let before = journal.reviews ?? []
        var reviews = before
        for index in reviews.indices where ["proposed", "open", "conflict"].contains(reviews[index].state) {
            reviews[index] = try follow(reviews[index], snapshot: snapshot, workspace: workspace)
        }
        var report = ReviewReport(runId: journal.runId, followedBy: nil, reviews: reviews)
        report.closed = reviews.compactMap { $0.closedSentence(runId: journal.runId) }
        // A tenant whose module proposals all landed gets its superproject proposal now (pinning what landed).
        let ready = Set(
            reviews.filter { $0.state == "waiting" }.map(\.tenant).filter { tenant in
                reviews.filter {
                    ($0.tenant == tenant && $0.repository != RollPublication.superproject) || $0.isGeneralRepin
                }
                .allSatisfy { $0.state == "landed" }
            })
        // What the forge did is recorded first: a proposal that follows may stop, and what landed stays known. A
        // proposal that needs a person (closed, in conflict, refused) keeps the run waiting on their decision.
        let settings = (options.review ?? ReviewOptions()).reading(snapshot.project.manifest)
        let followed = reviews.contains { !ReviewState.ended.contains($0.state) }
        let state: RunJournal.State = followed ? .waiting : .finished
        try record(
            changed(before, reviews), end: state == journal.state ? nil : .init(state: state), toRun: journal.runId,
            in: workspace)
        // A proposal waiting for a slot goes out once one is free (a new proposal run, as for a ready tenant), seen
        // once what landed is recorded.
        let slotted = ReviewManners.slotted(reviews, review: settings, in: workspace)
        if !ready.isEmpty || !slotted.isEmpty {
            var propose = options
            // The run's proposals go on as the run proposed them: its forge kind, per repository.
            var review = options.review ?? ReviewOptions()
            review.recorded = ReviewOptions.recordedKinds(of: [journal])
            propose.review = review
            propose.fetch = false
            propose.arguments = ["--review"]
            // A proposal closed on the forge waits for the user's decision: it is not proposed again on the way.
            if reviews.contains(where: { $0.state == "closed" }) {
                propose.filter.tenants = ready.union(slotted).sorted()
                propose.arguments += ready.union(slotted).sorted().flatMap { ["--tenant", $0] }
            }
            // The new run takes the open proposals over and ends this one finished, by it.
            let next = try RollRunner(workspace: workspace, console: console).run(propose)
            let landed = reviews.filter { $0.state == "landed" }
            let taken = next.reviews ?? []
            report.followedBy = next.runId
            report.reviews = landed + taken
            if let runId = next.runId, next.totals.rejected == 0 {
                try Transaction.markFinished(resumed, by: runId, in: workspace)
                resumed = []
            }
        }
        report.reviews = ReviewCompare.marking(report.reviews, review: settings) { name in
            name == RollPublication.superproject
                ? (try? SuperprojectRemote.originURL(workspace)) ?? nil : snapshot.specs[name]?.url
        }
        return report
    }

    /// Stops following the review run `runId`: ends every proposal of it (of `tenants`, or all) that did not land.
    /// tenantctl's own proposal branches it pushed are removed, each only while it still points at what tenantctl
    /// pushed (a leased delete); a proposal never pushed (waiting on its module proposals), closed or rejected is
    /// marked abandoned. The run ends aborted once none of its proposals is followed any more.
    public static func abandon(
        runId: String, tenants: [String], in workspace: Workspace, wait: Bool, console: Console? = nil
    ) throws -> ReviewReport {
        let lock = try WorkspaceLock(gitDirectory: workspace.commonDirectory, wait: wait)
        defer { lock.release() }
        let journal = try RunJournal.read(gitDirectory: workspace.commonDirectory, runId: runId)
        guard journal.reviews != nil else {
            throw RollError("run \(runId) is no review roll: `tenantctl runs` lists the runs")
        }
        var reviews = journal.reviews ?? []
        let snapshot = try Snapshot.load(
            workspace: workspace,
            options: Snapshot.Options(
                purpose: .report, fetch: false, allowLocalRemotes: workspace.git.allowLocalRemotes),
            console: console)
        var removed: [String] = []
        let chosen = reviews.indices.filter {
            (tenants.isEmpty || tenants.contains(reviews[$0].tenant)) && !ReviewState.ended.contains(reviews[$0].state)
        }
        // Only a pushed proposal has something on the remote to take back: one that waits on its module proposals
        // was never pushed, a closed one is gone already, a rejected one never landed. They simply end here.
        var selected = chosen.filter { ["proposed", "open", "conflict"].contains(reviews[$0].state) }
        for index in chosen where !selected.contains(index) { reviews[index].state = "abandoned" }
        // A review in a forge's namespace (`refs/for`) is closed on the forge: tenantctl only stops following it.
        for index in selected where !reviews[index].ref.hasPrefix("refs/heads/") {
            reviews[index].state = "abandoned"
            console?.warn(
                "\(reviews[index].repository) \(reviews[index].target): close its review on the forge "
                    + "(\(reviews[index].ref)); tenantctl no longer follows it")
        }
        selected = selected.filter { reviews[$0].ref.hasPrefix("refs/heads/") }
        for repository in Set(selected.map { reviews[$0].repository }).sorted() {
            let indices = selected.filter { reviews[$0].repository == repository }
            let updates = try indices.map {
                try RefUpdate(checking: reviews[$0].ref, new: nil, old: reviews[$0].proposed)
            }
            let remote =
                repository == RollPublication.superproject
                ? workspace.remoteName : (snapshot.specs[repository]?.url ?? "")
            let source =
                repository == RollPublication.superproject
                ? workspace.superproject : (snapshot.existingMirror(of: repository) ?? workspace.superproject)
            let outcome = try source.push(updates, as: repository, to: remote, mode: .restore)
            for index in indices {
                reviews[index].state = outcome.accepted ? "abandoned" : reviews[index].state
            }
            if outcome.accepted {
                removed += updates.map { "\(repository) \($0.ref)" }
            } else {
                console?.warn(
                    "\(repository): a proposal branch moved since tenantctl pushed it, so it stays: \(outcome.detail)")
            }
        }
        // The run ends once no proposal of it is followed any more: finished when all landed, else aborted.
        let ended = reviews.allSatisfy { ReviewState.ended.contains($0.state) }
        let state: RunJournal.State = reviews.allSatisfy { $0.state != "abandoned" } ? .finished : .aborted
        try record(
            changed(journal.reviews ?? [], reviews), end: ended && state != journal.state ? .init(state: state) : nil,
            toRun: runId, in: workspace)
        var report = ReviewReport(runId: runId, followedBy: nil, reviews: reviews)
        report.removed = removed
        return report
    }

    /// `reviews` with each proposal once (the same repository, ref, target and commit): two runs followed together
    /// may both list one (general_dev's re-pin that both proposed); the later run's entry is kept, in its place.
    static func once(_ reviews: [RunJournal.Review]) -> [RunJournal.Review] {
        var seen: Set<[String]> = []
        let kept = reviews.reversed().filter { seen.insert([$0.repository, $0.ref, $0.target, $0.proposed]).inserted }
        return kept.reversed()
    }

    /// The proposals of `after` that differ from the same one in `before`.
    static func changed(_ before: [RunJournal.Review], _ after: [RunJournal.Review]) -> [RunJournal.Review] {
        after.filter { review in
            !before.contains(review)
        }
    }

    /// Adds to the followed run's journal (one line: its proposals' new states and how it now stands), never a
    /// rewrite of what is there; nothing when nothing changed.
    static func record(
        _ reviews: [RunJournal.Review], end: RunJournal.End?, toRun runId: String, in workspace: Workspace
    ) throws {
        guard !reviews.isEmpty || end != nil else { return }
        do {
            try Transaction.append(
                [RunJournal.Line(end: end, reviews: reviews.isEmpty ? nil : reviews)], toRun: runId,
                gitDirectory: workspace.commonDirectory)
        } catch {
            throw RollError(
                "cannot record the proposals' states in the journal of review run \(runId): \(error.description); "
                    + "free some space, then run the command again")
        }
    }

    /// The run `runId`, or every review run that is waiting, oldest first (several after `roll --review --tenant`:
    /// each follows its own tenants' proposals).
    static func waitingRuns(_ runId: String?, in workspace: Workspace) throws -> [RunJournal] {
        if let runId {
            let run = try RunJournal.read(gitDirectory: workspace.commonDirectory, runId: runId)
            guard run.reviews != nil else {
                throw RollError("run \(runId) is no review roll: `tenantctl runs` lists the runs")
            }
            return [run]
        }
        let runs = try RunJournal.all(gitDirectory: workspace.commonDirectory).runs
            .filter { $0.state == .waiting && $0.reviews != nil }.sorted { $0.runId < $1.runId }
        guard !runs.isEmpty else {
            throw RollError("no review roll is waiting: propose one with `tenantctl roll --review`")
        }
        return runs
    }

    /// One proposal followed by the landing rule, in the repository that has the remote's branches.
    static func follow(_ review: RunJournal.Review, snapshot: Snapshot, workspace: Workspace) throws
        -> RunJournal.Review
    {
        // A proposal in a review namespace (`refs/for`) is the forge's: closed or not, only the forge knows.
        let branch = review.ref.hasPrefix("refs/heads/") ? String(review.ref.dropFirst("refs/heads/".count)) : nil
        if review.repository == RollPublication.superproject {
            let prefix = SuperprojectRemote.refPrefix(workspace)
            return try ReviewLanding(repository: snapshot.superproject).follow(
                review, target: prefix + review.target, proposal: branch.map { prefix + $0 })
        }
        guard let mirror = snapshot.existingMirror(of: review.repository) else {
            throw RollError("no mirror of module \(review.repository): `tenantctl verify` checks the workspace")
        }
        return try ReviewLanding(repository: mirror).follow(
            review, target: "refs/heads/" + review.target, proposal: branch.map { _ in review.ref })
    }
}
