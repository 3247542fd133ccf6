import Foundation

/// The trailer that names a review roll's commits, written by `roll --review` and by `tenantctl resolve <t> --review`
/// alike: `Rolled-by: tenantctl <run-id> <general branch> <general commit>`, and a Gerrit `Change-Id` where the
/// repository is proposed to Gerrit. A landing (merge, squash, rebase) is recognised and the virtual base is built
/// from it whoever wrote the commit.
package enum RolledByTrailer {
    /// `\n\nRolled-by: tenantctl <run> <general> <commit>` (and `\nChange-Id: <id>`), to append to a commit message.
    package static func text(run: String, general: String, commit: String, changeId: String?) -> String {
        "\n\nRolled-by: tenantctl \(run) \(general) \(commit)" + (changeId.map { "\nChange-Id: " + $0 } ?? "")
    }

    /// The trailer paragraph of `message` (from its `Rolled-by:` line to the end), or "" when it has none.
    package static func paragraph(of message: String) -> String {
        guard let range = message.range(of: "\n\nRolled-by: tenantctl ") else { return "" }
        return String(message[range.lowerBound...])
    }

    /// The `Change-Id` of a commit message's last paragraph, or nil.
    package static func changeId(in message: String) -> String? {
        let paragraph = message.trimmingCharacters(in: .whitespacesAndNewlines).components(separatedBy: "\n\n").last
        for line in (paragraph ?? "").split(separator: "\n") where line.hasPrefix("Change-Id: ") {
            let value = line.dropFirst("Change-Id: ".count).trimmingCharacters(in: .whitespaces)
            if value.count == 41, value.first == "I", value.dropFirst().allSatisfy(\.isHexDigit) { return value }
        }
        return nil
    }
}

extension ReviewOptions {
    /// The `Change-Id` a proposal of `repository` into `target` made on the target's tip `base` carries: the one
    /// `roll --review` writes; nil when `repository` is not proposed to Gerrit.
    package func changeId(repository: String, target: String, base: String) -> String? {
        forge(of: repository) == .gerrit ? ReviewChangeId.make(repository: repository, target: target, base: base) : nil
    }

    /// The `Change-Id` of a proposal of `repository` into `target` made on `base`, where `open` is
    /// ``ReviewChangeId/open(_:snapshot:workspace:)``'s answer: the one of the review open there (a new patch set),
    /// else the one for `base` (a new change); nil when `repository` is not proposed to Gerrit.
    package func changeId(repository: String, target: String, base: String, open: [String: String]) -> String? {
        guard let fresh = changeId(repository: repository, target: target, base: base) else { return nil }
        return open[ReviewChangeId.key(repository, target)] ?? fresh
    }

    /// Where the forge of `repository` keeps the reviews pushed to `refs/for/…` (`refs/pull/`, `refs/changes/`);
    /// nil for the kinds that propose on branches.
    package func reviewNamespace(of repository: String) -> String? {
        ReviewProposer.reviewNamespace(forge(of: repository))
    }

    /// The newest of `refs` (review refs of one forge): the highest pull request or patch set number.
    package static func newestReview(_ refs: [String]) -> String? {
        refs.max { ReviewProposer.reviewOrder($0).lexicographicallyPrecedes(ReviewProposer.reviewOrder($1)) }
    }

    /// The review refs of `refs`, newest first.
    package static func newestFirst(_ refs: [String]) -> [String] {
        refs.sorted { ReviewProposer.reviewOrder($1).lexicographicallyPrecedes(ReviewProposer.reviewOrder($0)) }
    }

    /// The review's address a forge printed in its answer to a push, or nil.
    package static func address(inServerMessages messages: [String]) -> String? {
        ReviewCreate.address(inServerMessages: messages)
    }
}
