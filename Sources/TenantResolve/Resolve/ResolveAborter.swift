import Foundation

/// `tenantctl resolve --abort`: every repository back exactly as before `resolve <tenant>` — merges aborted,
/// branches and HEADs restored, the branch the resolution created deleted, the working copy on the branch it was on —
/// and nothing of the tenant left published (what a stopped `--continue` already pushed, as its run journal
/// records it, is taken back as `roll --undo` does, with a lease). It undoes only what the resolution did: a branch created meanwhile by someone
/// else, or holding commits the resolution did not make, is kept and named; a branch that would lose such commits
/// by being put back refuses the abort before anything changes, naming the commits and how to keep them (as
/// `git rebase --abort` never drops a commit another branch still needs). Only in the worktree where the resolution
/// started. Idempotent: an interrupted abort is run again.
public struct ResolveAborter {
    let workspace: Workspace
    let console: Console?
    /// The run's journal: its before-state is recorded before the first change.
    let transaction: Transaction?
    /// Leaves what the resolution published as it is (its proposals, once `resolve --continue` of a `--review`
    /// resolution proposed them): only the working copy goes back.
    let keepsPublished: Bool

    public init(workspace: Workspace, console: Console? = nil, transaction: Transaction? = nil) {
        self.init(workspace: workspace, console: console, transaction: transaction, keepsPublished: false)
    }

    init(workspace: Workspace, console: Console?, transaction: Transaction? = nil, keepsPublished: Bool) {
        self.workspace = workspace
        self.console = console
        self.transaction = transaction
        self.keepsPublished = keepsPublished
    }

    /// Aborts the resolution under way.
    public func run() throws -> ResolveReport { try abort().report }

    /// What an abort took back and kept, step by step, as `runs --abort` reports it for any run: each branch put back
    /// (`undone`), each branch, and each set of the user's changes, kept and named (`kept`).
    struct Steps {
        var undone: [RunAbort.Step] = []
        var kept: [RunAbort.Step] = []
    }

    /// Aborts the resolution under way: its report, and its steps.
    func abort() throws -> (report: ResolveReport, steps: Steps) {
        let common = workspace.commonDirectory
        var steps = Steps()
        let state = try ResolveState.inProgress(in: workspace, action: "abort")
        let kept = try keptBranches(state)
        let yours = try userChanges(state)
        if let transaction {
            try transaction.recordBefore(try ResolveCheckouts.before(state, workspace: workspace))
        }
        var notes: [String] = []
        var pushes: [PushOutcome] = []
        if !keepsPublished, let runId = state.runId, try landedAnything(runId: runId) {
            console?.progress("taking back what was published (run \(runId))")
            pushes = try RollUndo(workspace: workspace).run(runId: runId)
            guard pushes.allSatisfy(\.accepted) else {
                throw ResolveError(
                    .refused,
                    "cannot abort the resolution of \(state.tenant): taking back what was published was rejected ("
                        + pushes.filter { !$0.accepted }.map { "\($0.repository): \($0.detail)" }
                        .joined(separator: "; ")
                        + "); nothing local changed; run `tenantctl resolve --abort` again")
            }
            notes.append("took back what was published (journal \(runId))")
            steps.undone += try publishedSteps(runId: runId)
        }
        var repositories: [ResolveReport.Repository] = []
        // Modules first, the superproject last (its checkout never touches the modules' working trees).
        for start in state.startPoints.dropFirst() + state.startPoints.prefix(1) {
            let checkout = workspace.repository(relative: start.path)
            guard start.initialised else {
                if try CheckoutPresence.of(checkout) == .repository {
                    notes.append("\(start.repository) was set up (cloned) by the resolution and stays set up")
                }
                continue
            }
            guard try CheckoutPresence.of(checkout) == .repository else {
                notes.append("\(start.repository) at \(start.path) is no longer a repository; not touched")
                continue
            }
            let inPlace = try keepUserChanges(
                yours[start.path] ?? [], of: start, in: checkout, state: state, notes: &notes, steps: &steps)
            let branches = try checkout.branches(under: "refs/heads/", what: start.repository)
            let changed = try restore(
                start, in: checkout, superproject: start.path.isEmpty,
                keeping: Set(kept.filter { $0.path == start.path }.map(\.branch)), dirtyIsTheUsers: inPlace)
            if changed { steps.undone += try recordPutBack(start, in: checkout, from: branches) }
            repositories.append(
                ResolveReport.Repository(
                    repository: start.repository, path: start.path, branch: start.headBranch ?? "(detached)",
                    status: changed ? "restored" : "unchanged", to: start.head))
        }
        // The journal says aborted before the state goes (see ResolveContinuer).
        try transaction?.finish(resumed: .aborted)
        try ResolveState.remove(commonDirectory: common)
        let ordered = repositories.filter { $0.path.isEmpty } + repositories.filter { !$0.path.isEmpty }
        for branch in kept {
            let location = branch.path.isEmpty ? "" : " (\(branch.path))"
            notes.append(
                "kept \(branch.branch) of \(branch.repository)\(location): "
                    + (branch.commits.isEmpty
                        ? "created during the resolution, not by it"
                        : "\(branch.commits.count) commit\(branch.commits.count == 1 ? "" : "s") the resolution did not make ("
                            + branch.commits.joined(separator: "; ") + ")"))
        }
        var report = ResolveReport(
            action: "abort", tenant: state.tenant, branch: state.branch, repositories: ordered, runId: state.runId,
            pushes: pushes, next: nil, notes: notes)
        report.kept = kept.isEmpty ? nil : kept
        steps.kept += Self.keptSteps(kept, state: state)
        return (report, steps)
    }

    /// The runs-abort steps of the branches the abort keeps, each with why.
    static func keptSteps(_ kept: [ResolveReport.KeptBranch], state: ResolveState) -> [RunAbort.Step] {
        kept.map { branch in
            let start = state.startPoints.first { $0.path == branch.path }
            return RunAbort.Step.make(
                repository: branch.repository, ref: "refs/heads/" + branch.branch, local: true, left: nil,
                before: start?.branches[branch.branch], now: nil,
                note: branch.commits.isEmpty
                    ? "created during the resolution, not by it; kept"
                    : "holds \(branch.commits.count) commit\(branch.commits.count == 1 ? "" : "s") the resolution "
                        + "did not make; kept")
        }
    }

    /// The refs a stopped `--continue` had published (its journal `runId`), as steps taken back on their remotes.
    func publishedSteps(runId: String) throws -> [RunAbort.Step] {
        let journal = try RollJournal.read(gitDirectory: workspace.commonDirectory, runId: runId)
        return journal.entries.filter { $0.published != false }.map { entry in
            RunAbort.Step.make(
                repository: entry.repository, ref: entry.ref, local: false, left: entry.new, before: entry.old,
                now: entry.old,
                note: "set back to \(ObjectID.short(entry.old, none: "nothing (deleted)")) from "
                    + ObjectID.short(entry.new) + " on its remote")
        }
    }

    /// Records the branches the put-back of one repository moved, created or deleted as steps of this run (each a
    /// step that took one of the resolution's back), and returns them as steps of the abort.
    func recordPutBack(_ start: ResolveState.StartPoint, in checkout: GitRepository, from branches: [String: String])
        throws -> [RunAbort.Step]
    {
        let now = try checkout.branches(under: "refs/heads/", what: start.repository)
        let refs = try Set(branches.keys).union(now.keys).filter { branches[$0] != now[$0] }.sorted().map {
            try RefUpdate(branch: $0, new: now[$0], old: branches[$0])
        }
        guard !refs.isEmpty else { return [] }
        try transaction?.record(repository: start.repository, refs: refs, published: nil, landed: true)
        return refs.map { ref in
            RunAbort.Step.make(
                repository: start.repository, ref: ref.ref.name, local: true, left: ref.old?.hex, before: ref.new?.hex,
                now: ref.new?.hex,
                note: ref.new == nil
                    ? "deleted: the resolution created it at \(ObjectID.short(ref.old, none: "?"))"
                    : ref.old == nil
                        ? "recreated at \(ObjectID.short(ref.new, none: "?"))"
                        : "set back to \(ObjectID.short(ref.new, none: "?")) from \(ObjectID.short(ref.old, none: "?"))"
            )
        }
    }

    /// Before anything changes: the files the user changed since the resolution left them, by repository path (a
    /// state without that record, of a start stopped before it was written: none known).
    func userChanges(_ state: ResolveState) throws -> [String: [String]] {
        guard let left = state.left else { return [:] }
        var changes: [String: [String]] = [:]
        for start in state.startPoints where start.initialised && start.head != nil {
            let repository = workspace.repository(relative: start.path)
            guard let recorded = left[start.path],
                try CheckoutPresence.of(repository) == .repository
            else { continue }
            let files = try ResolveLeftFiles.changedSince(recorded, in: repository, what: start.repository)
            if !files.isEmpty { changes[start.path] = files }
        }
        return changes
    }

    /// Keeps the user's changed `files` of one repository before it is put back: in place when the resolution left
    /// the repository as it found it (only the user's changes are there: nothing to put back), else in the
    /// repository's stash, on the commit it goes back to. Names them, with what to do, in `notes`. Whether they stay
    /// in place (the put-back then leaves the files alone).
    func keepUserChanges(
        _ files: [String], of start: ResolveState.StartPoint, in checkout: GitRepository, state: ResolveState,
        notes: inout [String], steps: inout Steps
    ) throws -> Bool {
        guard !files.isEmpty, let head = start.head else { return false }
        let name = start.repository
        let location = start.path.isEmpty ? "" : " (\(start.path))"
        let listed = files.prefix(5).joined(separator: ", ") + (files.count > 5 ? " and \(files.count - 5) more" : "")
        let now = try RepositoryState.inspect(checkout, superproject: start.path.isEmpty)
        if state.left?[start.path]?.isEmpty == true, now.currentBranch == start.headBranch, now.head == head,
            now.operations.isEmpty
        {
            notes.append("kept your changes in \(name)\(location) as they are: \(listed)")
            return true
        }
        console?.progress("\(name): keeping your changes in its stash")
        let stash = try ResolveLeftFiles.stash(
            files, in: checkout, base: head, branch: start.headBranch,
            tenant: state.tenant, what: name)
        let command = start.path.isEmpty ? "git" : "git -C \(ResolveState.shellWord(start.path))"
        let note =
            "kept your changes in \(name)\(location) in its stash: \(listed); see them with `\(command) stash show "
            + "-p`, put them back with `\(command) stash pop`"
        notes.append(note)
        steps.kept.append(
            RunAbort.Step.make(
                repository: name, ref: "refs/stash", local: true, left: nil, before: nil, now: stash, note: note))
        return false
    }

    /// Before anything changes: the branches abort keeps (created meanwhile, not by the resolution, or holding
    /// commits it did not make), and a refusal when putting a branch back would leave commits it did not make on no
    /// branch.
    func keptBranches(_ state: ResolveState) throws -> [ResolveReport.KeptBranch] {
        var kept: [ResolveReport.KeptBranch] = []
        var lost: [LostBranch] = []
        var taken: [String: Set<String>] = [:]
        for start in state.startPoints where start.initialised {
            let repository = workspace.repository(relative: start.path)
            guard try CheckoutPresence.of(repository) == .repository else { continue }
            let name = start.repository
            let now = try repository.branches(under: "refs/heads/", what: name)
            taken[start.path] = Set(now.keys)
            let merges = state.merges.filter { $0.path == start.path }
            // Commits the resolution stands on: the start points, the merged tips, the pins before and after.
            var known = Array(start.branches.values) + (start.head.map { [$0] } ?? [])
            known += merges.flatMap { [$0.ours] + ($0.theirs.map { [$0] } ?? []) + ($0.commit.map { [$0] } ?? []) }
            known += state.pins.filter { $0.path == start.path }.flatMap { [$0.old, $0.commit].compactMap { $0 } }
            // Its merge commits (tenantctl's or concluded by hand: both sides as parents), and the superproject's
            // re-pin commit (roll's message on the start tip) where there is nothing to merge.
            func isTheResolutions(_ commit: GitRepository.ListedCommit) -> Bool {
                merges.contains { merge in
                    if commit.id == merge.commit { return true }
                    guard let theirs = merge.theirs else {
                        return merge.isSuperproject && commit.parents == [merge.ours]
                            && commit.subject.hasPrefix(Self.subject(of: merge.message))
                    }
                    return commit.parents == [merge.ours, theirs]
                }
            }
            func foreign(_ tip: String, excluding others: [String]) throws -> [GitRepository.ListedCommit] {
                try repository.commits(from: tip, excluding: known + others, what: name)
                    .filter { !isTheResolutions($0) }
            }
            let unchanged = now.filter { start.branches[$0.key] == $0.value }.map(\.value)
            // Created since the start: the resolution's own branch is deleted unless it holds commits it did not
            // make; any other is kept.
            var keptTips: [String] = []
            for (branch, tip) in now.sorted(by: { $0.key < $1.key }) where start.branches[branch] == nil {
                let commits = try foreign(tip, excluding: unchanged)
                let ours = start.resolutionBranch.map { $0 == branch } ?? true
                guard !ours || !commits.isEmpty else { continue }
                keptTips.append(tip)
                kept.append(
                    ResolveReport.KeptBranch(
                        repository: name, path: start.path, branch: branch, commits: commits.map(Self.describe)))
            }
            // Moved since the start: put back only when no commit of its own is left on no branch.
            for (branch, tip) in now.sorted(by: { $0.key < $1.key }) {
                guard let old = start.branches[branch], old != tip else { continue }
                let commits = try foreign(tip, excluding: unchanged + keptTips)
                if !commits.isEmpty { lost.append((start, branch, tip, commits)) }
            }
        }
        guard !lost.isEmpty else { return kept }
        throw Self.refusal(tenant: state.tenant, lost: lost, taken: taken)
    }

    /// A branch abort would put back, with the commits that would then be on no branch.
    typealias LostBranch = (
        start: ResolveState.StartPoint, branch: String, tip: String, commits: [GitRepository.ListedCommit]
    )

    /// The refusal that lists the commits putting branches back would leave on no branch, with the commands that
    /// keep each on a branch of its own (`taken`: the branch names each repository has, by path).
    static func refusal(tenant: String, lost: [LostBranch], taken: [String: Set<String>]) -> ResolveError {
        var taken = taken
        var lines = [
            "cannot abort the resolution of \(tenant): putting back "
                + (lost.count == 1 ? "a branch" : "\(lost.count) branches")
                + " would leave commits the resolution did not make on no branch; nothing was changed"
        ]
        var commands: [String] = []
        for entry in lost {
            let location = entry.start.path.isEmpty ? "" : " (\(entry.start.path))"
            lines.append(
                "- \(entry.start.repository)\(location) \(entry.branch): "
                    + entry.commits.prefix(5).map(describe).joined(separator: "; ")
                    + (entry.commits.count > 5 ? "; and \(entry.commits.count - 5) more" : ""))
            var rescue = entry.branch + "-kept"
            var number = 2
            while taken[entry.start.path, default: []].contains(rescue) {
                rescue = "\(entry.branch)-kept-\(number)"
                number += 1
            }
            taken[entry.start.path, default: []].insert(rescue)
            let directory = entry.start.path.isEmpty ? "" : " -C \(ResolveState.shellWord(entry.start.path))"
            commands.append("git\(directory) branch \(ResolveState.shellWord(rescue)) \(entry.tip)")
        }
        lines.append("keep them on a branch of their own, then abort again (from the superproject's root):")
        lines += commands.map { "  " + $0 }
        lines.append("  tenantctl resolve --abort")
        lines.append("or finish the resolution instead: tenantctl resolve --continue")
        return ResolveError(.refused, lines.joined(separator: "\n"))
    }

    /// The subject line of a commit message (a review resolution's messages end with a trailer paragraph).
    static func subject(of message: String) -> String {
        String(message.prefix { $0 != "\n" })
    }

    /// `abc1234 subject`.
    static func describe(_ commit: GitRepository.ListedCommit) -> String {
        "\(ObjectID.short(commit.id)) \(commit.subject)"
    }

    /// Whether any ref of the journal `runId` reached its remote (published, or unknown and found there).
    func landedAnything(runId: String) throws -> Bool {
        let common = workspace.commonDirectory
        guard FileManager.default.fileExists(atPath: RollJournal.path(gitDirectory: common, runId: runId)) else {
            return false
        }
        let journal = try RollJournal.read(gitDirectory: common, runId: runId)
        guard journal.undoneAt == nil else { return false }
        let undo = RollUndo(workspace: workspace)
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
    func restore(
        _ start: ResolveState.StartPoint, in repository: GitRepository, superproject: Bool,
        keeping: Set<String> = [], dirtyIsTheUsers: Bool = false
    ) throws -> Bool {
        let name = start.repository
        let message = "tenantctl resolve --abort"
        var changed = false
        var state = try RepositoryState.inspect(repository, superproject: superproject)
        if state.operations.contains("merge") {
            console?.progress("\(name): aborting the merge")
            // `reset --hard` ends the merge like `merge --abort`, and also where the user changed other files since
            // (an abort discards the resolution) or the index only holds stale file times (a copied checkout).
            try repository.resetHard(context: "abort the merge in \(name)")
            changed = true
            state = try RepositoryState.inspect(repository, superproject: superproject)
        }
        // Changes the user made where the resolution changed nothing are theirs, left as they are.
        let dirty = !dirtyIsTheUsers && !state.status.blockingEntries.isEmpty
        if let branch = start.headBranch, let head = start.head {
            if state.currentBranch == branch {
                if state.head != head || dirty {
                    try repository.resetHard(
                        to: head, context: "put \(branch) of \(name) back to \(ObjectID.short(head))")
                    changed = true
                }
            } else {
                if dirty {
                    try repository.resetHard(context: "discard the resolution's changes in \(name)")
                }
                if let tip = state.branches[branch], tip != head {
                    try repository.updateRef(
                        "refs/heads/\(branch)", to: head, from: tip, message: message,
                        context: "put \(branch) of \(name) back to \(ObjectID.short(head))")
                } else if state.branches[branch] == nil {
                    try repository.updateRef(
                        "refs/heads/\(branch)", to: head, message: message,
                        context: "recreate \(branch) of \(name) at \(ObjectID.short(head))")
                }
                try repository.switchTo(
                    branch, recurseSubmodules: false, context: "check out \(branch) in \(name) again")
                changed = true
            }
        } else if let head = start.head, state.currentBranch != nil || state.head != head || dirty {
            try repository.detachDiscardingChanges(
                at: head, recurseSubmodules: false, context: "detach \(name) at \(ObjectID.short(head)) again")
            changed = true
        }
        // Every other branch: moved ones back, created ones deleted (with their upstream configuration).
        let branches = try repository.branches(under: "refs/heads/", what: name)
        for (branch, value) in branches.sorted(by: { $0.key < $1.key })
        where branch != start.headBranch && !keeping.contains(branch) {
            if let old = start.branches[branch] {
                guard old != value else { continue }
                try repository.updateRef(
                    "refs/heads/\(branch)", to: old, from: value, message: message,
                    context: "put \(branch) of \(name) back to \(ObjectID.short(old))")
            } else {
                try repository.deleteBranch(branch, context: "delete \(branch) of \(name), created by the resolution")
            }
            changed = true
        }
        for (branch, old) in start.branches.sorted(by: { $0.key < $1.key }) where branches[branch] == nil {
            try repository.updateRef(
                "refs/heads/\(branch)", to: old, message: message,
                context: "recreate \(branch) of \(name) at \(ObjectID.short(old))")
            changed = true
        }
        return changed
    }
}
