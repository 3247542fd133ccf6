import Foundation

/// One `resolve`: the workspace lock, the run's journal, then the start of a resolution, its continuation or its
/// abort. The command parses its options and renders the ``ResolveReport``; a ``ResolveError`` or a
/// ``WorkingCopyRefusal`` (nothing changed) is its exit status.
public struct ResolveRun: Sendable {
    /// What resolve is asked.
    public enum Action: Sendable, Equatable {
        /// `resolve <tenant>`: merge the general branch into the tenant's branches, in the working copy.
        /// With `review`, `--continue` proposes the result as the tenant's review (`forge`: the kind, nil as
        /// `modules.json` says) instead of pushing to its branches.
        case start(tenant: String, acceptMergedBack: [String] = [], review: Bool = false, forge: ReviewForge? = nil)
        /// `resolve --continue`: commit the resolved merges, pin, publish.
        case continueResolution
        /// `resolve --abort`: every repository back as before the start.
        case abort
    }

    /// What to do.
    public var action: Action
    /// The words that re-run the command (the journal's arguments).
    public var arguments: [String]
    /// Start: fetch first.
    public var fetch: Bool
    /// Wait for the workspace lock instead of failing fast.
    public var wait: Bool

    public init(action: Action, arguments: [String], fetch: Bool = true, wait: Bool = false) {
        self.action = action
        self.arguments = arguments
        self.fetch = fetch
        self.wait = wait
    }

    /// Runs the action under the lock, journalled. A continuation whose push was refused is returned (its report
    /// says what landed) and its run stays unfinished when something of it landed.
    public func run(workspace: Workspace, console: Console?) throws -> ResolveReport {
        let lock = try WorkspaceLock(gitDirectory: workspace.commonDirectory, wait: wait)
        defer { lock.release() }
        return try Transaction.journalled(
            workspace, command: "resolve", arguments: arguments, aborting: action == .abort,
            stopped: { report in
                // A refused push, reported: the run stays unfinished when something of it landed.
                report.action == "continue" && !report.published
                    ? ResolveError(
                        .refused,
                        "a push of the resolution of \(report.tenant) was refused; nothing after it was pushed")
                    : nil
            }
        ) { transaction in
            switch action {
            case .start(let tenant, let acceptMergedBack, let review, let forge):
                try ResolveStarter(
                    workspace: workspace, fetch: fetch, console: console, transaction: transaction,
                    acceptMergedBack: acceptMergedBack, review: review, forge: forge
                ).run(tenant: tenant)
            case .continueResolution:
                try ResolveContinuer(workspace: workspace, console: console, transaction: transaction).run()
            case .abort:
                try ResolveAborter(workspace: workspace, console: console, transaction: transaction).run()
            }
        }
    }
}

extension ResolveRun {
    /// `tenantctl runs --abort <run-id>` of a resolve run: under the workspace lock, as a journalled run of its own
    /// (command `runs`), the resolution under way is taken back as `resolve --abort` takes it back (only what is still
    /// as the resolution left it; the user's changes and commits are kept and named), and the run ends aborted. With
    /// no resolution under way, nothing of the run is left to take back: it only ends aborted. Returns resolve's
    /// report and the steps in the form `runs --abort` reports for every run; nil when it was not a resolve run
    /// (`RunAbort` takes those back).
    public static func abortRun(runId: String, workspace: Workspace, wait: Bool, console: Console?) throws
        -> (report: ResolveReport, result: RunAbort.Result)?
    {
        let lock = try WorkspaceLock(gitDirectory: workspace.commonDirectory, wait: wait)
        defer { lock.release() }
        let run = try RunAbort.unfinishedRun(runId, in: workspace, action: "--abort")
        guard run.commandName == "resolve" else { return nil }
        let underWay = try ResolveState.read(commonDirectory: workspace.commonDirectory)
        return try Transaction.journalled(
            workspace, command: "runs", arguments: ["--abort", runId], settling: [runId: .aborted]
        ) { transaction in
            guard underWay != nil else {
                try transaction.recordChanged()
                var report = ResolveReport(
                    action: "abort", tenant: "-", branch: "-", repositories: [], runId: runId,
                    notes: ["no resolution is under way: nothing of run \(runId) was left to take back"])
                let others = try endOtherRuns(of: run, by: transaction, in: workspace, report: &report)
                return (
                    report,
                    RunAbort.Result.make(
                        runId: runId, by: transaction.runId, undone: [], kept: [],
                        untouched: untouched(run, excluding: []) + others)
                )
            }
            let aborted = try ResolveAborter(
                workspace: workspace, console: console, transaction: transaction
            ).abort()
            var report = aborted.report
            let steps = aborted.steps
            let others = try endOtherRuns(of: run, by: transaction, in: workspace, report: &report)
            return (
                report,
                RunAbort.Result.make(
                    runId: runId, by: transaction.runId, undone: steps.undone, kept: steps.kept,
                    untouched: untouched(run, excluding: steps.undone + steps.kept) + others)
            )
        }
    }

    /// Ends the other unfinished runs of the resolution `run` belongs to, now that it is taken back
    /// (``RunAbort/endOtherResolveRuns(besides:by:in:)``), naming each in the report's notes; their steps.
    static func endOtherRuns(
        of run: RunJournal, by transaction: Transaction, in workspace: Workspace, report: inout ResolveReport
    ) throws -> [RunAbort.Step] {
        let ended = try RunAbort.endOtherResolveRuns(besides: run, by: transaction, in: workspace)
        for other in ended.runs {
            report.notes.append("run \(other), another run of the same resolution, ends aborted too")
        }
        return ended.steps
    }

    /// The steps of `run` that may have landed and that the abort neither took back nor kept: nothing was left of
    /// them to take back (put back before, or the resolution's later steps replaced them).
    static func untouched(_ run: RunJournal, excluding steps: [RunAbort.Step]) -> [RunAbort.Step] {
        let handled = Set(steps.map { "\($0.repository) \($0.ref)" })
        return run.entries.filter {
            $0.undone != true && ($0.landed == true || $0.published == true)
                && !handled.contains("\($0.repository) \($0.ref)")
        }.map { entry in
            RunAbort.Step.make(
                repository: entry.repository, ref: entry.ref, local: entry.landed == true,
                left: entry.new.isEmpty ? nil : entry.new, before: entry.old, now: nil,
                note: "nothing left of it to take back")
        }
    }
}
