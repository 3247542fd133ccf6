import Foundation

/// `roll --undo` of a review roll after the forge landed some of its proposals. A landing is the forge's: the target
/// branch took the proposal (a merge, a fast-forward, a squash, a rebase), and no push of tenantctl's takes it back
/// without throwing away what came after. The undo takes back the run's proposal branches, names each landing as not
/// undone with the way to revert it (a review that reverts it), and ends the run, so that nothing follows it any more.
extension RollUndo {
    /// A proposal of the undone review run that the forge landed: left as it is.
    public struct LandedLeft: Sendable, Equatable, Encodable {
        /// `superproject` or a module name.
        public var repository: String
        /// The branch it landed into.
        public var target: String
        /// The target's commit that landed it.
        public var landed: String
        /// How it landed: `merge`, `fast-forward`, `squash`, `rebase`.
        public var method: String?
        /// What the user does to take it out.
        public var next: String

        init(_ review: RunJournal.Review) {
            repository = review.repository
            target = review.target
            landed = review.landed ?? ""
            method = review.method
            let commit = ObjectID.short(landed)
            let how =
                method == "merge"
                ? "git revert -m 1 \(commit)"
                : method == "squash" ? "git revert \(commit)" : "git revert the commits it landed, up to \(commit)"
            next =
                "not undone: the forge landed it, and a push cannot take a landing back; to take it out, propose a "
                + "review that reverts it (\(how) on a branch of \(repository), proposed into \(target))"
        }

        /// One line for the report: `Infrastructure t2: landed (merge 8c1e2aa): not undone: …`.
        public var line: String {
            "\(repository) \(target): landed (\(method ?? "") \(ObjectID.short(landed))): \(next)"
        }
    }
}

extension RollRun {
    /// The proposals of the review run `journal` as the forge has them now: each one still followed is followed by
    /// the landing rule (fetched), so that a landing the run has not recorded yet is known too. Empty for a run
    /// that is no review roll.
    static func followedNow(_ journal: RunJournal, in workspace: Workspace) throws -> [RunJournal.Review] {
        guard var reviews = journal.reviews else { return [] }
        let indices = reviews.indices.filter { ["proposed", "open", "conflict"].contains(reviews[$0].state) }
        guard !indices.isEmpty else { return reviews }
        var options = Snapshot.Options(
            purpose: .report, fetch: true, allowLocalRemotes: workspace.git.allowLocalRemotes)
        options.keepBatch = false
        let snapshot = try Snapshot.load(workspace: workspace, options: options)
        for index in indices {
            reviews[index] = try ReviewRun.follow(reviews[index], snapshot: snapshot, workspace: workspace)
        }
        return reviews
    }

    /// Ends the undone review run `runId` (`reviews`: its proposals as the forge has them now): what landed is
    /// recorded so, every other proposal it still followed is `abandoned` (its branch was taken back, or it never was
    /// pushed), and the run ends aborted. A later waiting review run that followed a proposal branch the undo
    /// deleted (`deleted`: `<repository> <ref>` → the commit it held) no longer follows it either.
    static func endReviewRun(
        _ runId: String, reviews: [RunJournal.Review], deleted: [String: String], in workspace: Workspace
    ) throws {
        var ended = reviews
        for index in ended.indices where !ReviewState.ended.contains(ended[index].state) {
            ended[index].state = "abandoned"
        }
        let before = try RunJournal.read(gitDirectory: workspace.commonDirectory, runId: runId)
        try ReviewRun.record(
            ReviewRun.changed(before.reviews ?? [], ended),
            end: before.state == .aborted ? nil : .init(state: .aborted),
            toRun: runId, in: workspace)
        let others = try RunJournal.all(gitDirectory: workspace.commonDirectory).runs.filter {
            $0.state == .waiting && $0.reviews != nil && $0.runId != runId
        }
        for run in others {
            var reviews = run.reviews ?? []
            for index in reviews.indices
            where !ReviewState.ended.contains(reviews[index].state)
                && deleted[reviews[index].repository + " " + reviews[index].ref] == reviews[index].proposed
            {
                reviews[index].state = "abandoned"
            }
            let changed = ReviewRun.changed(run.reviews ?? [], reviews)
            guard !changed.isEmpty else { continue }
            let followed = reviews.contains { !ReviewState.ended.contains($0.state) }
            try ReviewRun.record(changed, end: followed ? nil : .init(state: .aborted), toRun: run.runId, in: workspace)
        }
    }
}
