import Foundation

/// The forge kind of a review run, per repository, as its journal records it: a run proposed with `--forge gitlab`
/// (or a `review` object) keeps proposing that way — `roll --land` pushing the tenants' superproject proposals,
/// `resolve <t> --review`, a re-run of `roll --review` taking the run's proposals over.
extension ReviewOptions {
    /// The kinds the proposals of `runs` still followed were proposed with, per repository (the latest run's where
    /// two differ): a proposal that landed, was abandoned or superseded no longer binds its repository.
    public static func recordedKinds(of runs: [RunJournal]) -> [String: RecordedKind] {
        var kinds: [String: RecordedKind] = [:]
        for run in runs.sorted(by: { $0.runId < $1.runId }) {
            for review in run.reviews ?? [] where !ReviewState.ended.contains(review.state) {
                guard let name = review.inferredForge, let forge = Forge(rawValue: name) else { continue }
                kinds[review.repository] = RecordedKind(forge: forge, runId: run.runId)
            }
        }
        return kinds
    }

    /// These options with the kinds the waiting review runs of `workspace` recorded (and `also`'s, which win: the
    /// run `roll --land` follows). An explicit kind (`--forge`) that differs from a recorded one is refused, naming
    /// both and the ways on.
    public func recordingKinds(in workspace: Workspace, also: [String: RecordedKind] = [:]) throws -> ReviewOptions {
        let waiting = try RunJournal.all(gitDirectory: workspace.commonDirectory).runs.filter {
            $0.state == .waiting && $0.reviews != nil
        }
        var options = self
        options.recorded = Self.recordedKinds(of: waiting).merging(also) { _, run in run }
        try options.refusingOtherKind()
        return options
    }

    /// Throws when `--forge` names another kind than a review run recorded for one of its repositories.
    func refusingOtherKind() throws {
        guard let forge else { return }
        for (repository, kind) in recorded.sorted(by: { $0.key < $1.key }) where kind.forge != forge {
            throw RollError(
                "--forge \(forge.rawValue) differs from the kind review run \(kind.runId) proposed \(repository) with "
                    + "(\(kind.forge.rawValue)): its proposals are followed as \(kind.forge.rawValue) reviews; leave "
                    + "--forge out (or give --forge \(kind.forge.rawValue)), or stop following that run first with "
                    + "`tenantctl roll --abandon \(kind.runId)`")
        }
    }

    /// The kind of each proposal, recorded on it.
    package func recordingForge(_ reviews: [RunJournal.Review]) -> [RunJournal.Review] {
        reviews.map { review in
            var review = review
            review.forge = forge(of: review.repository).rawValue
            return review
        }
    }
}
