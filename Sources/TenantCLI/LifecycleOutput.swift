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

/// What the lifecycle commands share in the CLI: they parse their options into a ``LifecycleRun/Change``, run it
/// (``LifecycleRun/run(_:in:options:console:)``) and print the plan.
enum LifecycleOutput {
    /// Runs `change` in the workspace (``LifecycleRun``) and prints the changes on stdout (as JSON with `--json`,
    /// docs/schemas/lifecycle.schema.json), or with `--dry-run` the changes it would make.
    static func run(
        _ change: LifecycleRun.Change, context: CommandContext, options: WriteOptions, headline: LifecycleHeadline
    ) throws -> ExitStatus {
        let workspace = try context.workspace()
        // `uncustomize` is `customize --undo`: the journal keeps the words that were typed.
        let words =
            change.command == "uncustomize" && context.environment.arguments.first == "customize"
            ? "customize" : change.command
        let plan = try LifecycleRun.run(
            change, in: workspace,
            options: LifecycleRun.Options(
                dryRun: options.dryRun, wait: options.wait, command: words,
                arguments: context.rerunArguments(command: words)),
            console: context.console)
        if context.options.json {
            context.console.data(
                try JSONOutput.encode(
                    LifecycleJSON(
                        command: change.command, dryRun: options.dryRun,
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
            refs += push.refs.map { Ref(repository: push.module, ref: $0.ref.name, old: $0.old?.hex, new: $0.new?.hex) }
        }
        refs += plan.superprojectRefs.map {
            Ref(repository: "superproject", ref: $0.ref.name, old: $0.old?.hex, new: $0.new?.hex)
        }
        for push in plan.modulesAfter {
            refs += push.refs.map { Ref(repository: push.module, ref: $0.ref.name, old: $0.old?.hex, new: $0.new?.hex) }
        }
        self.refs = refs
    }
}
