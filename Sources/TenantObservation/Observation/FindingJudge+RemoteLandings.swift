import Foundation

extension FindingJudge {
    /// The reviews audit judges: those of the run journals (`journal`, oldest run first) and, before them, the
    /// landings by squash or rebase that the remotes show (`remote`, ``ObservedReview/seenOnRemotes``) which no
    /// journal review has already (the same repository, target and general commit, landed): a clone that ran the
    /// review keeps its own record, a clone without it learns the landing from the remotes. Listed first, a landing
    /// seen on the remotes is older than every journal review of its cell, so a newer proposal stays the one shown
    /// beside it (``shownReviews(_:observation:)``).
    public static func reviews(journal: [ObservedReview], remote: [ObservedReview]) -> [ObservedReview] {
        let recorded = Set(
            journal.filter { $0.state == "landed" }.map { $0.repository + "\u{0}" + $0.target + "\u{0}" + $0.general })
        var seen: Set<String> = []
        var added: [ObservedReview] = []
        for review in remote {
            let key = review.repository + "\u{0}" + review.target + "\u{0}" + review.general
            guard !recorded.contains(key), seen.insert(key).inserted else { continue }
            added.append(review)
        }
        return added + journal
    }
}
