import Foundation

/// A review run that got to its end (`waiting`, or `finished` since) took over every proposal open before it, and
/// ends the earlier waiting review runs (`finished`, by it) right after its own end. A kill between those two writes
/// leaves an earlier run `waiting` although a later one follows its proposals: ``settle(in:)`` finishes it, so the
/// next `roll --land` or `roll --review` converges to one waiting run.
enum ReviewTakeover {
    /// Each waiting review run with the later review run that took its proposals over (the latest one that got to
    /// its end), oldest first.
    static func superseded(_ runs: [RunJournal]) -> [(run: RunJournal, by: String)] {
        let reviewRuns = runs.filter { $0.reviews != nil }.sorted { $0.runId < $1.runId }
        return reviewRuns.compactMap { run in
            guard run.state == .waiting else { return nil }
            let later = reviewRuns.filter {
                $0.runId > run.runId && ($0.state == .waiting || $0.state == .finished)
            }
            let by = later.last(where: { $0.state == .waiting }) ?? later.last
            return by.map { (run, $0.runId) }
        }
    }

    /// Finishes every waiting review run that a later one took over (see ``superseded(_:)``).
    static func settle(in workspace: Workspace) throws {
        for (run, by) in superseded(try RunJournal.all(gitDirectory: workspace.commonDirectory).runs) {
            try Transaction.markFinished([run], by: by, in: workspace)
        }
    }
}
