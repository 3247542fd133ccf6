import Foundation

/// One `status`: the working copy's ``StatusReport`` with the resolution in progress, and the warnings about runs
/// stopped half-way (they block the other writing commands). Reads and changes nothing; the command renders the
/// ``Result``.
public enum StatusRun {
    /// What status found.
    public struct Result: Sendable {
        /// The working copy, with its resolution in progress (if any).
        public var report: StatusReport
        /// One line per unfinished run, with the ways out; or why the journals could not be read.
        public var warnings: [String]
    }

    /// Inspects `workspace`. A journal that cannot be read is a warning, not an error: status goes on without it.
    /// `fetch` (`status --fetch`): first fetches the superproject into tenantctl's copy of its remote branches and
    /// every initialised module checkout from its `origin` (pruned, `jobs` at a time), so every line compares with
    /// what the remotes have now; otherwise nothing is fetched. The fetch runs under the workspace lock, as audit's
    /// and compose's do (`roll` and `switch` fetch into the same refs): it waits for another run up to the bound of a
    /// read-only command, or as long as it takes with `wait`. Without `fetch` no lock is taken: reading needs none.
    public static func run(
        workspace: Workspace, fetch: Bool = false, jobs: Int = 4, wait: Bool = false, console: Console? = nil
    ) throws -> Result {
        if fetch {
            let lock = try WorkspaceLock(
                gitDirectory: workspace.commonDirectory, waiting: .readOnly(wait: wait), console: console)
            defer { lock.release() }
            try fetchRemotes(workspace: workspace, jobs: jobs, console: console)
        }
        var report = try StatusReport.inspect(workspace: workspace)
        report.resolution = try ResolutionStatus.inspect(workspace: workspace)
        return Result(report: report, warnings: unfinishedRunWarnings(workspace) + waitingReviewNotes(workspace))
    }

    /// A review roll waiting for its reviews: one line per such run, with its open proposals and how to follow it.
    static func waitingReviewNotes(_ workspace: Workspace) -> [String] {
        // A journal that cannot be read is already reported by the unfinished runs' warning.
        guard let runs = try? RunJournal.all(gitDirectory: workspace.commonDirectory).runs else { return [] }
        return runs.filter { $0.state == .waiting }.map { run in
            let reviews = run.reviews ?? []
            let open = reviews.filter { ["proposed", "open", "conflict"].contains($0.state) }
            let waiting = reviews.filter { $0.state == "waiting" }
            return "review roll \(run.runId) is waiting: \(English.count(open.count, "open proposal"))"
                + (waiting.isEmpty ? "" : ", \(waiting.count) waiting for them")
                + "; follow it with `tenantctl roll --land`"
        }
    }

    /// Fetches the superproject (tenantctl's refs, as switch and roll do) and every initialised module checkout.
    static func fetchRemotes(workspace: Workspace, jobs: Int, console: Console?) throws {
        let project = try BranchProject.workingTree(
            workspace, options: ValidationOptions(allowLocalRemotes: workspace.git.allowLocalRemotes))
        console?.progress("fetching the superproject")
        try SuperprojectRemote.fetch(workspace)
        var checkouts: [(name: String, repository: GitRepository)] = []
        for module in project.manifest.modules {
            let checkout = workspace.checkout(at: module.path)
            if try CheckoutPresence.of(checkout) == .repository {
                checkouts.append((module.name, checkout))
            }
        }
        guard !checkouts.isEmpty else { return }
        console?.progress("fetching \(English.count(checkouts.count, "module"))")
        _ = try Concurrent.map(checkouts, jobs: jobs) { checkout in
            try checkout.repository.fetchOrigin(prune: true, module: checkout.name)
        }
    }

    /// A run stopped half-way blocks the other writing commands: one line per such run, with the ways out.
    static func unfinishedRunWarnings(_ workspace: Workspace) -> [String] {
        let unfinished: [RunJournal]
        do {
            unfinished = try RunJournal.unfinished(gitDirectory: workspace.commonDirectory)
        } catch {
            // status reads and changes nothing: it reports the journal it cannot read and goes on.
            return [String(describing: error)]
        }
        return unfinished.map { run in
            let ways = run.waysOut(currentWorktree: workspace.root)
            return "tenantctl \(run.commandName) run \(run.runId) is unfinished; finish it: \(ways[0])"
                + (ways.count > 1 ? ", or take it back: \(ways[1])" : "")
        }
    }
}
