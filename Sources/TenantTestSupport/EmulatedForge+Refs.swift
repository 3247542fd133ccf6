import Foundation

/// The review refs a forge keeps of its own, after it landed a review and deleted its proposal branch: GitHub and
/// Gitea keep `refs/pull/<n>/head`, GitLab `refs/merge-requests/<n>/head`, Gerrit `refs/changes/<nn>/<n>/<patch set>`
/// — each a ref anyone who fetches can read. The hooks of ``serve(_:in:)`` make them for the AGit, GitLab and Gerrit
/// kinds; ``openPullRequest(from:into:in:)`` makes GitHub's for a proposal branch (what `gh pr create` does), and
/// ``landReview(_:method:in:keepingMessages:deletingBranch:)`` lands a review from its ref as the merge button does.
extension EmulatedForge {
    /// Opens a pull request of `branch` into `target`, as GitHub does when `gh pr create` runs: the next number,
    /// `refs/pull/<n>/head` at the branch's commit, recorded with the forge's other reviews (``reviews(in:)``).
    @discardableResult
    public func openPullRequest(from branch: String, into target: String, in bare: String) throws -> Review {
        let commit = try sandbox.git(["rev-parse", "--verify", "refs/heads/\(branch)^{commit}"], in: bare)
        let number = (try reviews(in: bare).map(\.number).max() ?? 0) + 1
        let review = Review(
            number: number, ref: "refs/pull/\(number)/head", target: target, topic: branch, commit: commit)
        try sandbox.git(["update-ref", review.ref, commit], in: bare)
        let line = [String(number), review.ref, target, branch, commit].joined(separator: "\t") + "\n"
        let file = bare + "/" + Self.reviewsFile
        let existing = (try? String(contentsOfFile: file, encoding: .utf8)) ?? ""
        try (existing + line).write(toFile: file, atomically: true, encoding: .utf8)
        return review
    }

    /// The newest review the forge holds into `target` (the highest number), or nil.
    public func newestReview(into target: String, in bare: String) throws -> Review? {
        try reviews(in: bare).filter { $0.target == target }.max { $0.number < $1.number }
    }

    /// Lands `review` by `method` from the commit its ref holds now, as the forge's merge button does, and, with
    /// `deletingBranch`, deletes that proposal branch ("delete head branch", GitLab's "delete source branch"). The
    /// review ref stays, as on every forge. Returns the target's new tip.
    @discardableResult
    public func landReview(
        _ review: Review, method: Method, in bare: String, keepingMessages: Bool = true, deletingBranch: String? = nil
    ) throws -> String {
        let landed = try land(
            review.ref, into: review.target, method: method, in: bare, keepingMessages: keepingMessages)
        if let deletingBranch { try sandbox.git(["update-ref", "-d", "refs/heads/\(deletingBranch)"], in: bare) }
        return landed
    }
}
