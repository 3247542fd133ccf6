import Foundation

/// `tenantctl roll` and `roll --undo` from the workspace to the report: the workspace lock, the refusal while another
/// command's run is unfinished, ``RollRunner`` (or ``RollUndo``), and the unfinished rolls this one went on from
/// marked finished. The command parses its options and renders what is returned.
public enum RollRun {
    /// Rolls under the workspace lock (also a dry run: it fetches into the mirrors that a real run pushes from).
    ///
    /// A real run first refuses while a run of another command is unfinished. When it ran to its end (every push
    /// landed; tenants that conflict or are blocked are reported as any roll reports them), the unfinished rolls it
    /// went on from are finished (their refs landed, by them or by it): a roll of every tenant and module
    /// finishes them all, a filtered one only those with its arguments (``RollOptions/arguments``).
    public static func run(
        _ options: RollOptions, in workspace: Workspace, wait: Bool, console: Console? = nil
    ) throws -> RollReport {
        let lock = try WorkspaceLock(gitDirectory: workspace.commonDirectory, wait: wait)
        defer { lock.release() }
        let resumed =
            options.dryRun
            ? [] : try Transaction.unfinishedRuns(workspace, allowing: "roll", arguments: options.arguments)
        let report = try RollRunner(workspace: workspace, console: console).run(options)
        // Conflicted and blocked tenants are what an uninterrupted roll leaves too (resolve, push the commit): they
        // do not keep a stopped roll unfinished. A rejected push or an unreachable module does (something of it may
        // still be to land).
        let ranToItsEnd =
            report.totals.rejected == 0 && report.general.status != "rejected" && report.unreachable.isEmpty
        if !options.dryRun, ranToItsEnd {
            let everything = options.filter.tenants.isEmpty && options.filter.modules.isEmpty
            try Transaction.markFinished(
                resumed.filter { everything || ($0.arguments ?? []) == options.arguments },
                by: report.runId ?? "a later roll", in: workspace)
        }
        return report
    }

    /// `roll --undo <run-id>` under the workspace lock; refused while a run of another command is unfinished.
    /// `arguments`: the words that re-run it (`--undo <run-id>`).
    public static func undo(
        runId: String, in workspace: Workspace, arguments: [String], wait: Bool
    ) throws -> RollUndo.Result {
        let lock = try WorkspaceLock(gitDirectory: workspace.commonDirectory, wait: wait)
        defer { lock.release() }
        // A review roll's proposals as the forge has them now: what landed stays, and is named.
        // (A run id that names no journal is refused by the undo itself, in its words.)
        let undone = try? RunJournal.read(gitDirectory: workspace.commonDirectory, runId: runId)
        let reviews = try undone.map { try followedNow($0, in: workspace) } ?? []
        // The undo is a run of its own: stopped between its pushes it stays unfinished, and only its re-run (which
        // goes on where it stopped) or `runs --forget` lets the other writing commands run again. The re-run puts
        // back what is still where the roll left it and keeps what someone moved since, so it can always end.
        return try Transaction.journalled(
            workspace, command: "roll", arguments: arguments, settling: [runId: .aborted],
            stopped: { result in
                result.outcomes.first { !$0.accepted }.map {
                    RollError("the remote of \($0.repository) refused the undo: \($0.detail)")
                }
            }
        ) { transaction in
            var result = try RollUndo(workspace: workspace, transaction: transaction).undo(
                runId: runId, keepingMoved: true)
            guard undone?.reviews != nil, result.outcomes.allSatisfy(\.accepted) else { return result }
            result.landedLeft = reviews.filter { $0.state == "landed" }.map(RollUndo.LandedLeft.init)
            var deleted: [String: String] = [:]
            for move in result.moved where move.to == nil { deleted[move.repository + " " + move.ref] = move.from }
            try endReviewRun(runId, reviews: reviews, deleted: deleted, in: workspace)
            return result
        }
    }
}
