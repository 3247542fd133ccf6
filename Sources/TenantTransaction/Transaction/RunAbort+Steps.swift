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
