import Foundation

/// A Gerrit `Change-Id` (`I` and 40 hex digits) per repository and target. A proposal made while the review of the
/// same repository and target is open carries that review's `Change-Id` (``open(_:snapshot:workspace:)``), so a new
/// general change, or the target moving under the open change, uploads a new patch set of it, never a second change.
/// Otherwise (no review yet, or the last one landed, was closed or abandoned) it is made from the repository, the
/// target and the target's tip the proposal was made on (``make(repository:target:base:)``): a new change.
/// `roll --review` and `resolve <t> --review` both ask ``open(_:snapshot:workspace:)``, so a resolution made after the
/// forge merged the change (before `roll --land` saw it) opens a new change, as a roll does.
package enum ReviewChangeId {
    static func make(repository: String, target: String, base: String) -> String {
        let text = Array("tenantctl roll\n\(repository)\n\(target)\n\(base)".utf8)
        var digits = ""
        for seed in UInt64(0)..<3 {
            var hash: UInt64 = 0xcbf2_9ce4_8422_2325 ^ (seed &* 0x9e37_79b9_7f4a_7c15)
            for byte in text {
                hash ^= UInt64(byte)
                hash = hash &* 0x100_0000_01b3
            }
            let hex = String(hash, radix: 16)
            digits += String(repeating: "0", count: 16 - hex.count) + hex
        }
        return "I" + digits.prefix(40)
    }

    /// The key of a repository's target in ``open(_:snapshot:workspace:)``'s answer.
    package static func key(_ repository: String, _ target: String) -> String { repository + " " + target }

    /// The `Change-Id` of the review that is open for each target of `repositories` (those proposed to Gerrit), by
    /// ``key(_:_:)``: the one its latest proposal in the run journals carries (a proposal a later run replaced is
    /// skipped), unless that proposal landed, was closed or abandoned — in the journal, or by the landing rule on
    /// the target as last fetched (a landing `roll --land` has not seen yet). A proposal whose commit is not here
    /// gives none.
    package static func open(_ repositories: Set<String>, snapshot: Snapshot, workspace: Workspace) throws
        -> [String: String]
    {
        guard !repositories.isEmpty else { return [:] }
        let runs = try RunJournal.all(gitDirectory: workspace.commonDirectory).runs.filter { $0.reviews != nil }
            .sorted { $0.runId > $1.runId }
        var seen: Set<String> = []
        var ids: [String: String] = [:]
        for run in runs {
            for review in run.reviews ?? []
            where repositories.contains(review.repository) && review.state != "superseded" {
                guard seen.insert(key(review.repository, review.target)).inserted,
                    !["landed", "closed", "abandoned"].contains(review.state)
                else { continue }
                let repository =
                    review.repository == RollPublication.superproject
                    ? snapshot.superproject : snapshot.existingMirror(of: review.repository)
                guard let repository, try repository.hasCommit(review.proposed) else { continue }
                if ["proposed", "open", "conflict"].contains(review.state),
                    try ReviewRun.follow(review, snapshot: snapshot, workspace: workspace).state == "landed"
                {
                    continue
                }
                let context = "read the Change-Id of the open review of \(review.repository) into \(review.target)"
                if let id = RolledByTrailer.changeId(in: try repository.body(of: review.proposed, context: context)) {
                    ids[key(review.repository, review.target)] = id
                }
            }
        }
        return ids
    }
}
