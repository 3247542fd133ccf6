import ArgumentParser
import Foundation
import TenantKit

/// What a lifecycle command says it did, or would do with `--dry-run` (the conditional: "would add tenant t5").
struct LifecycleHeadline {
    /// After the change: "added tenant t5".
    var done: String
    /// For a dry run: "would add tenant t5".
    var wouldDo: String
}

/// Shared steps of the repository-wide lifecycle commands: lock, fetch, plan, print, execute.
enum LifecycleRun {
    /// Takes the workspace lock (waiting for it with `--wait`), fetches the remotes, plans with `makePlan`, and
    /// executes the plan (or only prints it with `--dry-run`). Prints the changes on stdout (as JSON with `--json`,
    /// docs/schemas/lifecycle.schema.json).
    ///
    /// `done` says whether the remotes already hold what the command makes; it is asked only when this run goes on
    /// from a stopped run of the same command (its journal is unfinished): a run killed after its last push has done
    /// everything, and its re-run then has nothing to change instead of refusing what its own run published.
    static func run(
        context: CommandContext, options: WriteOptions, command: String, headline: LifecycleHeadline,
        done: ((Snapshot) throws -> Bool)? = nil, makePlan: (Snapshot) throws -> LifecyclePlan
    ) throws -> ExitStatus {
        let workspace = try context.workspace()
        let lock = try context.lock(workspace, wait: options.wait)
        defer { lock.release() }
        let plan: LifecyclePlan
        if options.dryRun {
            plan = try makePlan(try context.snapshot(workspace))
        } else {
            // `uncustomize` is `customize --undo`: the journal keeps the words that were typed.
            let words =
                command == "uncustomize" && context.environment.arguments.first == "customize"
                ? "customize" : command
            let resuming = try !context.unfinishedRuns(workspace, command: words).isEmpty
            plan = try context.journalled(workspace, command: words) { transaction in
                let state = try context.snapshot(workspace)
                if resuming, let done, try done(state) { return LifecyclePlan() }
                let plan = try makePlan(state)
                try record(plan, in: transaction, remote: workspace.remoteName, state: state)
                try LifecycleExecutor(state: state, git: context.git).execute(plan, console: context.console) {
                    repository, refs in
                    try transaction.record(repository: repository, refs: refs, published: true, landed: nil)
                }
                return plan
            }
        }
        if context.options.json {
            context.console.data(
                try JSONOutput.encode(
                    LifecycleJSON(
                        command: command, dryRun: options.dryRun,
                        summary: options.dryRun ? headline.wouldDo : headline.done, plan: plan)))
            return .success
        }
        context.console.print(
            options.dryRun ? "\(headline.wouldDo) (dry run, nothing written):" : headline.done + ":")
        for line in plan.lines { context.console.print("  " + TerminalText.escaped(line)) }
        if plan.isEmpty { context.console.print("  nothing to change: the remote has it already") }
        return .success
    }
}

extension LifecycleRun {
    /// Journals every ref the plan changes before the first push (outcome unknown until its push is accepted).
    static func record(_ plan: LifecyclePlan, in transaction: Transaction, remote: String, state: Snapshot) throws {
        for push in plan.modulesFirst + plan.modulesAfter {
            try transaction.record(
                repository: push.module, remote: RemoteURL.redacted(state.specs[push.module]?.url ?? ""),
                refs: push.refs, published: nil, landed: nil)
        }
        let commits = plan.commits.flatMap { commit in
            ([commit.branch] + commit.alsoCreates).map { RefUpdate(ref: "refs/heads/\($0)", new: nil, old: nil) }
        }
        if !(commits + plan.superprojectRefs).isEmpty {
            try transaction.record(
                repository: "superproject", remote: remote, refs: commits + plan.superprojectRefs, published: nil,
                landed: nil)
        }
    }
}

/// The JSON report of a lifecycle command (`tag`, `customize`, `uncustomize`, `tenant add|remove`,
/// `module add|remove`).
struct LifecycleJSON: Encodable {
    /// One ref change (full ids).
    struct Ref: Encodable {
        var repository: String
        var ref: String
        /// Nil: created.
        var old: String?
        /// Nil: deleted.
        var new: String?
    }

    /// One superproject commit.
    struct Commit: Encodable {
        var branch: String
        var message: String
        var paths: [String]
        var alsoCreates: [String]
    }

    var schemaVersion = 1
    var command: String
    var dryRun: Bool
    var summary: String
    /// The changes as the text report lists them.
    var changes: [String]
    var commits: [Commit]
    var refs: [Ref]

    init(command: String, dryRun: Bool, summary: String, plan: LifecyclePlan) {
        self.command = command
        self.dryRun = dryRun
        self.summary = summary
        changes = plan.lines
        commits = plan.commits.map {
            Commit(branch: $0.branch, message: $0.message, paths: $0.edits.map(\.path), alsoCreates: $0.alsoCreates)
        }
        var refs: [Ref] = []
        for push in plan.modulesFirst {
            refs += push.refs.map { Ref(repository: push.module, ref: $0.ref, old: $0.old, new: $0.new) }
        }
        refs += plan.superprojectRefs.map { Ref(repository: "superproject", ref: $0.ref, old: $0.old, new: $0.new) }
        for push in plan.modulesAfter {
            refs += push.refs.map { Ref(repository: push.module, ref: $0.ref, old: $0.old, new: $0.new) }
        }
        self.refs = refs
    }
}
