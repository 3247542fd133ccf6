import ArgumentParser
import Foundation
import TenantKit

extension Tenantctl {
    /// `tenantctl runs`: the journalled rolls.
    struct Runs: TenantctlCommand {
        static let configuration = CommandConfiguration(
            abstract: "List the journalled roll runs: id, time, what changed, undone or not.",
            discussion: """
                Every roll that changes a remote writes a journal under the superproject's common git directory \
                (.git/tenantctl/journal/<run-id>.json) before it pushes. This lists them, oldest first, with the \
                refs each run published and whether `tenantctl roll --undo <run-id>` has put them back.

                STATE is published (every ref landed), partly published, not published (every push was \
                refused), unknown (a push broke off: --undo asks the remote), or undone.

                Examples:
                  tenantctl runs
                  tenantctl runs --json | jq -r '.runs[-1].runId'
                """)

        @OptionGroup(title: "Global Options") var global: GlobalOptions

        func run(context: CommandContext) throws -> ExitStatus {
            let workspace = try context.workspace()
            let (journals, unreadable) = try RollJournal.all(gitDirectory: workspace.commonDirectory)
            let runs = journals.map(RunSummary.init)
            for (path, reason) in unreadable.sorted(by: { $0.key < $1.key }) {
                context.console.warn("cannot read \(path): \(reason)")
            }
            if context.options.json {
                context.console.data(try JSONOutput.encode(RunsJSON(runs: runs)))
                return .success
            }
            guard !runs.isEmpty else {
                context.console.print("no journalled runs (a roll that changes a remote writes one)")
                return .success
            }
            let rows = runs.map { run -> [String] in
                [
                    // The time with a space, so that a narrow terminal wraps it; the run id is never cut.
                    run.runId, run.createdAt.replacingOccurrences(of: "T", with: " "), run.state,
                    "\(English.count(run.refs.count, "ref")) in \(run.repositories.joined(separator: ", "))",
                ]
            }
            context.console.print(
                context.console.table(
                    TextTable(header: ["RUN", "TIME", "STATE", "CHANGED"], rows: rows, text: [1, 2, 3])))
            return .success
        }
    }
}

/// One run in `tenantctl runs`.
struct RunSummary: Encodable {
    /// One ref the run changed.
    struct Ref: Encodable {
        var repository: String
        var ref: String
        var old: String?
        var new: String
        var published: Bool?
        var undone: Bool
    }

    var runId: String
    var createdAt: String
    /// published, partly published, not published, unknown, undone.
    var state: String
    var undoneAt: String?
    var repositories: [String]
    var refs: [Ref]

    init(_ journal: RollJournal) {
        runId = journal.runId
        createdAt = journal.createdAt
        undoneAt = journal.undoneAt
        var repositories: [String] = []
        for entry in journal.entries where !repositories.contains(entry.repository) {
            repositories.append(entry.repository)
        }
        self.repositories = repositories
        refs = journal.entries.map {
            Ref(
                repository: $0.repository, ref: $0.ref, old: $0.old, new: $0.new, published: $0.published,
                undone: $0.undone == true)
        }
        let published = journal.entries.map(\.published)
        if journal.undoneAt != nil {
            state = "undone"
        } else if published.contains(where: { $0 == nil }) {
            state = "unknown"
        } else if published.allSatisfy({ $0 == true }) {
            state = "published"
        } else if published.allSatisfy({ $0 == false }) {
            state = "not published"
        } else {
            state = "partly published"
        }
    }
}

/// `tenantctl runs --json`.
struct RunsJSON: Encodable {
    var schemaVersion = 1
    var runs: [RunSummary]
}
