import Foundation

extension RunAbort.Step {
    /// A step as a feature that takes its own runs back reports it (a resolve run, taken back as `resolve --abort`
    /// takes it back), in the same form as the steps `runs --abort` takes back itself.
    package static func make(
        repository: String, ref: String, local: Bool, left: String?, before: String?, now: String?, note: String
    ) -> RunAbort.Step {
        RunAbort.Step(
            repository: repository, ref: ref, local: local, left: left, before: before, now: now, note: note)
    }
}

extension RunAbort.Result {
    /// The result of `runs --abort <run-id>` of a run its own feature took back (a resolve run), with its steps.
    package static func make(
        runId: String, by: String, undone: [RunAbort.Step], kept: [RunAbort.Step], untouched: [RunAbort.Step]
    ) -> RunAbort.Result {
        var result = RunAbort.Result(runId: runId, action: "abort", by: by)
        result.undone = undone
        result.kept = kept
        result.untouched = untouched
        return result
    }
}

extension RunAbort {
    /// Ends with `run`, a resolve run that `runs --abort` took back, every other unfinished resolve run: the starts
    /// and continuations of the same resolution, each of which the next one went on from (a re-run of a stopped
    /// start first puts back what that start did). The abort took back the resolution under way, and with it
    /// all that was left of them, as `resolve --abort` does; each ends `aborted`, by `transaction`'s run, and comes
    /// back as steps with nothing left to take back. A run of another worktree is left to that worktree, and one that
    /// pushed something not taken back since stays unfinished with its own ways out. Returns the runs ended and
    /// their steps.
    package static func endOtherResolveRuns(
        besides run: RunJournal, by transaction: Transaction, in workspace: Workspace
    )
        throws -> (runs: [String], steps: [Step])
    {
        var ended: [String] = []
        var steps: [Step] = []
        for other in try RunJournal.unfinished(gitDirectory: workspace.commonDirectory)
        where other.commandName == "resolve" && other.runId != run.runId && other.worktree == run.worktree
            && !other.entries.contains(where: { $0.published == true && $0.undone != true })
        {
            do {
                try Transaction.settle(
                    other.runId, state: .aborted, by: transaction.runId, in: workspace.commonDirectory)
            } catch {
                throw WorkspaceError(
                    "cannot mark run \(other.runId), another run of the same resolution, aborted: "
                        + "\(error.description); free some space, then run `tenantctl runs --abort \(run.runId)` "
                        + "again")
            }
            ended.append(other.runId)
            steps += other.entries.filter {
                $0.undone != true && ($0.landed == true || $0.published == true)
            }.map { entry in
                Step(
                    repository: entry.repository, ref: entry.ref, local: entry.landed == true,
                    left: entry.new.isEmpty ? nil : entry.new, before: entry.old, now: nil,
                    note: "nothing left of it to take back: run \(other.runId), another run of the same "
                        + "resolution, ends aborted with run \(run.runId)")
            }
        }
        return (ended, steps)
    }
}
