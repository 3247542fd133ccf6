import Foundation

/// The landing rule: whether, and how, a forge landed a proposal into its target branch.
///
/// Landed at L, the earliest first-parent commit of the target after the proposal's base such that the proposed
/// commit R is an ancestor of L (`merge`; `fast-forward` when L is R), or such that merging R into L changes nothing
/// (`merge-tree --write-tree L R` gives L's tree: `squash`, or `rebase` when L replays one of R's commits by its
/// subject). Not landed: `closed` when the proposal branch is gone, `conflict` when the target moved and R no longer
/// merges cleanly, `open` otherwise.
struct ReviewLanding {
    let repository: GitRepository

    /// The review with its state (and, when landed, the landing commit and method) as the repository now has it.
    /// `target` and `proposal`: where this repository keeps the remote's target and proposal branches (nil: the
    /// proposal is in a forge's review namespace, which cannot be read, so it is never taken as closed).
    func follow(_ review: RunJournal.Review, target: String, proposal: String?) throws -> RunJournal.Review {
        var review = review
        let what = "follow the proposal \(review.ref) of \(review.repository)"
        guard let tip = try repository.refValue(target, context: what), let base = review.base else { return review }
        let proposed = review.proposed
        let line = try repository.firstParentLine(after: base, to: tip, context: what)
        var subjects: Set<String>?
        for commit in line {
            if try repository.isAncestor(proposed, of: commit, context: what) {
                return landed(review, at: commit, method: commit == proposed ? "fast-forward" : "merge")
            }
            let merged = try repository.mergeTrees([(commit, proposed)], what: review.repository)
            guard let result = merged.first, result.clean,
                try result.tree == repository.tree(of: commit, context: what)
            else { continue }
            // A squash writes a commit of its own; a rebase replays R's commits with their subjects.
            let replayed = try subjects ?? repository.subjects(of: proposed, excluding: base, context: what)
            subjects = replayed
            let subject = try repository.subject(of: commit, context: what)
            return landed(review, at: commit, method: replayed.contains(subject) ? "rebase" : "squash")
        }
        if let proposal, try repository.refValue(proposal, context: what) == nil {
            review.state = "closed"
        } else if tip != base,
            let result = try repository.mergeTrees([(tip, proposed)], what: review.repository).first, !result.clean
        {
            review.state = "conflict"
        } else {
            review.state = "open"
        }
        return review
    }

    func landed(_ review: RunJournal.Review, at commit: String, method: String) -> RunJournal.Review {
        var review = review
        review.state = "landed"
        review.landed = commit
        review.method = method
        return review
    }
}
