import Foundation

/// A review run that got to its end (`waiting`, or `finished` since) takes over the proposals it replaces: those of
/// earlier waiting review runs for the same repository and target. An earlier run all of whose followed proposals are
/// replaced ends (`finished`, by the later run); one that still follows proposals nobody replaced (another tenant's,
/// after `roll --review --tenant t2`) stays waiting, its replaced proposals marked `superseded`, and `roll --land`
/// goes on following the rest. A kill between the later run's end and those writes leaves the earlier run as it was:
/// ``settle(in:)`` finishes the work, so the next `roll --land` or `roll --review` converges. `tenantctl resolve <t>
/// --review` takes over by the same rule.
package enum ReviewTakeover {
    /// What later review runs replaced of an earlier waiting one.
    struct Takeover {
        /// The earlier waiting run.
        var run: RunJournal
        /// The latest run that replaced some of it.
        var by: String
        /// Its followed proposals that later runs replaced, marked `superseded`.
        var replaced: [RunJournal.Review]
        /// Whether every followed proposal of it is replaced: then it ends, `finished` by ``by``.
        var ends: Bool
    }

    /// The followed proposals of `run` (not landed, superseded or abandoned) that `later` (a later run's proposals,
    /// those it could push) replace — the same repository and target — and whether that is all of them. The general branch's re-pin is
    /// replaced only with all the others: a tenant's superproject proposal left waiting in `run` is made once that
    /// re-pin landed, which `run` must go on following to see.
    static func replaced(in run: RunJournal, by later: [RunJournal.Review]) -> (
        replaced: [RunJournal.Review], all: Bool
    ) {
        let followed = (run.reviews ?? []).filter { !ReviewState.ended.contains($0.state) }
        // A proposal the later run could not push (refused) replaces nothing.
        let replacing = later.filter { $0.state != "rejected" }
        let covered = followed.filter { review in
            replacing.contains { $0.repository == review.repository && $0.target == review.target }
        }
        if covered.count == followed.count { return (covered, true) }
        return (covered.filter { !$0.isGeneralRepin }, false)
    }

    /// Each waiting review run with what the later review runs that got to their end (waiting or finished) replaced
    /// of it, oldest first; a run nothing replaced is left out.
    static func superseded(_ runs: [RunJournal]) -> [Takeover] {
        let reviewRuns = runs.filter { $0.reviews != nil }.sorted { $0.runId < $1.runId }
        return reviewRuns.compactMap { run in
            guard run.state == .waiting else { return nil }
            let later = reviewRuns.filter {
                $0.runId > run.runId && ($0.state == .waiting || $0.state == .finished)
            }
            guard let by = later.last(where: { $0.state == .waiting }) ?? later.last else { return nil }
            let (replaced, all) = Self.replaced(in: run, by: later.flatMap { $0.reviews ?? [] })
            let pending = replaced.filter { $0.state != "superseded" }
            guard all || !pending.isEmpty else { return nil }
            return Takeover(run: run, by: by.runId, replaced: pending, ends: all)
        }
    }

    /// Ends what the run `runId` (its proposals: `reviews`) replaced of the `earlier` waiting review runs: a run all
    /// of whose followed proposals it replaced ends `finished` by it; of any other run, the replaced proposals are
    /// marked `superseded` and the run stays waiting.
    package static func takeOver(
        _ earlier: [RunJournal], by runId: String, reviews: [RunJournal.Review], in workspace: Workspace
    ) throws {
        for run in earlier {
            let (replaced, all) = Self.replaced(in: run, by: reviews)
            try apply(Takeover(run: run, by: runId, replaced: replaced, ends: all), in: workspace)
        }
    }

    /// Writes one takeover: the end of the earlier run, or its replaced proposals `superseded`.
    static func apply(_ takeover: Takeover, in workspace: Workspace) throws {
        if takeover.ends {
            try Transaction.markFinished([takeover.run], by: takeover.by, in: workspace)
            return
        }
        guard !takeover.replaced.isEmpty else { return }
        try ReviewRun.record(
            takeover.replaced.map { review in
                var review = review
                review.state = "superseded"
                return review
            }, end: nil, toRun: takeover.run.runId, in: workspace)
    }

    /// Finishes every takeover a kill left half-written (see ``superseded(_:)``).
    static func settle(in workspace: Workspace) throws {
        for takeover in superseded(try RunJournal.all(gitDirectory: workspace.commonDirectory).runs) {
            try apply(takeover, in: workspace)
        }
    }
}
