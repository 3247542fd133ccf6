import Foundation

/// `roll --undo` of a review roll. Its proposal branches (kinds `branch`, `gitlab`) are put back as any ref is: each
/// only while it still holds what the run pushed (a leased push, never a forced one), a branch the run created is
/// deleted. A push into a forge's review namespace (`refs/for/…`, kinds `agit`, `gerrit`) cannot be taken back: the
/// forge keeps no ref of that name, only its review, which a push can neither delete nor move back. The undo leaves
/// those and says which, with what to do instead: close (abandon) the review on the forge.
extension RollUndo {
    /// A proposal the undo cannot take back.
    public struct ReviewLeft: Sendable, Equatable, Encodable {
        /// `superproject` or a module name.
        public var repository: String
        /// Where the run pushed it (`refs/for/t2`).
        public var ref: String
        /// The commit pushed.
        public var commit: String
        /// The review, as the run knew it: its address or its ref on the forge; nil when unknown.
        public var review: String?
        /// What the user does instead.
        public var next: String
    }

    /// Whether `ref` is in a forge's review namespace (never a ref the remote keeps under that name).
    static func isReviewPush(_ ref: String) -> Bool { ref.hasPrefix("refs/for/") }

    /// The pushes of `journal` into a review namespace that may have landed, one each: what the undo leaves.
    static func reviewsLeft(_ journal: RollJournal) -> [ReviewLeft] {
        journal.entries.filter { isReviewPush($0.ref) && $0.published != false }.map { entry in
            let proposal = (journal.reviews ?? []).first {
                $0.repository == entry.repository && $0.ref == entry.ref
            }
            let review = proposal?.url ?? proposal?.reviewRef
            let next =
                "close the review on the forge"
                + (review.map { " (\($0))" }
                    ?? " (its topic or Change-Id is in the commit \(ObjectID.short(entry.new)))")
                + ": a push cannot take it back"
            return ReviewLeft(
                repository: entry.repository, ref: entry.ref, commit: entry.new, review: review, next: next)
        }
    }
}
