import Foundation

/// `tenantctl resolve --abort`: every repository back exactly as before `resolve <tenant>` — merges aborted,
/// branches and HEADs restored, created branches deleted, the working copy on the branch it was on — and nothing of
/// the tenant left published (what an interrupted `--continue` already pushed is taken back as `roll --undo` does,
/// with a lease). Idempotent: an interrupted abort is run again.
public struct ResolveAborter {
    let workspace: Workspace
    let git: Git
    let console: Console?

    public init(workspace: Workspace, git: Git, console: Console? = nil) {
        self.workspace = workspace
        self.git = git
        self.console = console
    }

    /// Aborts the resolution under way.
    public func run() throws -> ResolveReport {
        let common = workspace.commonDirectory
        guard let state = try ResolveState.read(commonDirectory: common) else {
            throw ResolveError(
                .notInProgress, "no resolution is in progress; start one with `tenantctl resolve <tenant>`")
        }
        var notes: [String] = []
        var pushes: [PushOutcome] = []
        if let runId = state.runId, try landedAnything(runId: runId) {
            console?.progress("taking back what was published (roll --undo \(runId))")
            pushes = try RollUndo(workspace: workspace, git: git).run(runId: runId)
            guard pushes.allSatisfy(\.accepted) else {
                throw ResolveError(
                    .refused,
                    "cannot abort the resolution of \(state.tenant): taking back what was published was rejected ("
                        + pushes.filter { !$0.accepted }.map { "\($0.repository): \($0.detail)" }
                        .joined(separator: "; ")
                        + "); nothing local changed; run `tenantctl resolve --abort` again")
            }
            notes.append("took back what was published (journal \(runId))")
        }
        var repositories: [ResolveReport.Repository] = []
        // Modules first, the superproject last (its checkout never touches the modules' working trees).
        for start in state.startPoints.dropFirst() + state.startPoints.prefix(1) {
            let path = start.path.isEmpty ? workspace.root : workspace.path(start.path)
            guard start.initialised else {
                if try WorkingCopyGit.presence(of: path, git: git) == .repository {
                    notes.append("\(start.repository) was set up (cloned) by the resolution and stays set up")
                }
                continue
            }
            guard try WorkingCopyGit.presence(of: path, git: git) == .repository else {
                notes.append("\(start.repository) at \(start.path) is no longer a repository; not touched")
                continue
            }
            let changed = try restore(start, path: path, superproject: start.path.isEmpty)
            repositories.append(
                ResolveReport.Repository(
                    repository: start.repository, path: start.path, branch: start.headBranch ?? "(detached)",
                    status: changed ? "restored" : "unchanged", to: start.head))
        }
        try ResolveState.remove(commonDirectory: common)
        let ordered = repositories.filter { $0.path.isEmpty } + repositories.filter { !$0.path.isEmpty }
        return ResolveReport(
            action: "abort", tenant: state.tenant, branch: state.branch, repositories: ordered, runId: state.runId,
            pushes: pushes, next: nil, notes: notes)
    }

    /// Whether any ref of the journal `runId` reached its remote (published, or unknown and found there).
    func landedAnything(runId: String) throws -> Bool {
        let common = workspace.commonDirectory
        guard FileManager.default.fileExists(atPath: RollJournal.path(gitDirectory: common, runId: runId)) else {
            return false
        }
        let journal = try RollJournal.read(gitDirectory: common, runId: runId)
        guard journal.undoneAt == nil else { return false }
        let undo = RollUndo(workspace: workspace, git: git)
        for entry in journal.entries where entry.undone != true {
            if entry.published == true { return true }
            if entry.published == nil,
                try undo.remoteValues(of: [entry], repository: entry.repository)[entry.ref] == entry.new
            {
                return true
            }
        }
        return false
    }

    /// Puts one repository back at its start point; returns whether anything changed.
    func restore(_ start: ResolveState.StartPoint, path: String, superproject: Bool) throws -> Bool {
        let name = start.repository
        let noRecurse = ["-c", "submodule.recurse=false"]
        var changed = false
        var state = try RepositoryState.inspect(path: path, git: git, superproject: superproject)
        if state.operations.contains("merge") {
            console?.progress("\(name): aborting the merge")
            // `reset --hard` ends the merge like `merge --abort`, and also where the user changed other files since
            // (an abort discards the resolution) or the index only holds stale file times (a copied checkout).
            try git.run(noRecurse + ["reset", "--quiet", "--hard"], in: path, context: "abort the merge in \(name)")
            changed = true
            state = try RepositoryState.inspect(path: path, git: git, superproject: superproject)
        }
        let dirty = !state.status.blockingEntries.isEmpty
        if let branch = start.headBranch, let head = start.head {
            if state.currentBranch == branch {
                if state.head != head || dirty {
                    try git.run(
                        noRecurse + ["reset", "--quiet", "--hard", head], in: path,
                        context: "put \(branch) of \(name) back to \(ObjectID.short(head))")
                    changed = true
                }
            } else {
                if dirty {
                    try git.run(
                        noRecurse + ["reset", "--quiet", "--hard"], in: path,
                        context: "discard the resolution's changes in \(name)")
                }
                if let tip = state.branches[branch], tip != head {
                    try git.run(
                        ["update-ref", "-m", "tenantctl resolve --abort", "refs/heads/\(branch)", head, tip], in: path,
                        context: "put \(branch) of \(name) back to \(ObjectID.short(head))")
                } else if state.branches[branch] == nil {
                    try git.run(
                        ["update-ref", "-m", "tenantctl resolve --abort", "refs/heads/\(branch)", head], in: path,
                        context: "recreate \(branch) of \(name) at \(ObjectID.short(head))")
                }
                try git.run(
                    noRecurse + ["switch", "--quiet", "--end-of-options", branch], in: path,
                    context: "check out \(branch) in \(name) again")
                changed = true
            }
        } else if let head = start.head, state.currentBranch != nil || state.head != head || dirty {
            try git.run(
                noRecurse + ["switch", "--quiet", "--discard-changes", "--detach", head], in: path,
                context: "detach \(name) at \(ObjectID.short(head)) again")
            changed = true
        }
        // Every other branch: moved ones back, created ones deleted (with their upstream configuration).
        let branches = try GitRefs.branches(under: "refs/heads/", in: path, git: git, what: name)
        for (branch, value) in branches.sorted(by: { $0.key < $1.key }) where branch != start.headBranch {
            if let old = start.branches[branch] {
                guard old != value else { continue }
                try git.run(
                    ["update-ref", "-m", "tenantctl resolve --abort", "refs/heads/\(branch)", old, value], in: path,
                    context: "put \(branch) of \(name) back to \(ObjectID.short(old))")
            } else {
                try git.run(
                    ["branch", "--quiet", "-D", "--", branch], in: path,
                    context: "delete \(branch) of \(name), created by the resolution")
            }
            changed = true
        }
        for (branch, old) in start.branches.sorted(by: { $0.key < $1.key }) where branches[branch] == nil {
            try git.run(
                ["update-ref", "-m", "tenantctl resolve --abort", "refs/heads/\(branch)", old], in: path,
                context: "recreate \(branch) of \(name) at \(ObjectID.short(old))")
            changed = true
        }
        return changed
    }
}
