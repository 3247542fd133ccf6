import Foundation

extension RunJournal {
    /// The proposals of every review run in the journal directory of `gitDirectory`, oldest run first, as audit
    /// observes them (``ObservedReview``): those of a run still followed (waiting, or stopped half-way) marked so,
    /// the landed ones of a finished run too (audit shows a squash or rebase landing until the target contains the
    /// general commit), those a later run took over (`superseded`) or `--abandon` stopped left out. Only journals
    /// that mention reviews are read whole. The forge kind is the one the run's `--forge` named, else what
    /// `manifest`'s `review` objects say for the repository, else what the proposal's ref shows.
    public static func observedReviews(gitDirectory: String, manifest: ModuleManifest?) throws -> [ObservedReview] {
        let directory = directory(gitDirectory: gitDirectory)
        guard FileManager.default.fileExists(atPath: directory) else { return [] }
        let marker = Data("\"reviews\"".utf8)
        var result: [ObservedReview] = []
        for name in try FileManager.default.contentsOfDirectory(atPath: directory).sorted()
        where name.hasSuffix(".json") && !name.hasPrefix(".") {
            let path = (directory as NSString).appendingPathComponent(name)
            guard let data = FileManager.default.contents(atPath: path), data.range(of: marker) != nil else {
                continue
            }
            let run = try read(gitDirectory: gitDirectory, runId: String(name.dropLast(".json".count)))
            guard let reviews = run.reviews, run.state != .forgotten, run.state != .aborted else { continue }
            let followed = run.state == .waiting || run.isUnfinished
            for review in reviews where !["superseded", "abandoned"].contains(review.state) {
                guard followed || review.state == "landed" else { continue }
                var observed = ObservedReview(
                    runId: run.runId, since: run.createdAt,
                    forge: forgeKind(of: review, arguments: run.arguments ?? [], manifest: manifest),
                    repository: review.repository, tenant: review.tenant, target: review.target, ref: review.ref,
                    state: review.state, general: review.general, proposed: review.proposed)
                observed.landed = review.landed
                observed.method = review.method
                observed.url = review.url
                observed.followed = followed
                result.append(observed)
            }
        }
        return result
    }

    /// The forge kind a proposal was made for: the run's `--forge`, else the `review` objects of `manifest` for its
    /// repository (a module's over the manifest's), else what its ref shows.
    static func forgeKind(of review: Review, arguments: [String], manifest: ModuleManifest?) -> String {
        for (index, word) in arguments.enumerated() {
            if word == "--forge", index + 1 < arguments.count { return arguments[index + 1] }
            if word.hasPrefix("--forge=") { return String(word.dropFirst("--forge=".count)) }
        }
        // A branch is a branch or a GitLab proposal: the review objects tell them apart; a `refs/for` ref says itself.
        let module = manifest?.modules.first { $0.name == review.repository }?.review
        if review.ref.hasPrefix("refs/heads/"),
            (manifest?.review ?? ReviewSettings()).overridden(by: module).forge == .gitlab
        {
            return ReviewForge.gitlab.rawValue
        }
        return ObservedReview.forgeKind(ofRef: review.ref)
    }
}
