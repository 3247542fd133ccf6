import Foundation

/// What a lifecycle command will do, as values: module pushes that must land before the superproject (new branches
/// the new pins need), superproject commits and refs (one atomic push), and module pushes that must wait until the
/// superproject no longer names them (deletions). Rendered by `--dry-run`; executed by ``LifecycleExecutor``.
public struct LifecyclePlan: Sendable, Equatable {
    /// Module pushes before the superproject push.
    public var modulesFirst: [ModulePush] = []
    /// New superproject commits.
    public var commits: [PlannedCommit] = []
    /// Other superproject refs (tags, deletions; `source` may name an existing commit).
    public var superprojectRefs: [RefUpdate] = []
    /// Module pushes after the superproject push.
    public var modulesAfter: [ModulePush] = []

    /// Creates an empty plan.
    public init() {}

    /// Whether the plan does nothing.
    public var isEmpty: Bool {
        modulesFirst.isEmpty && commits.isEmpty && superprojectRefs.isEmpty && modulesAfter.isEmpty
    }

    /// One line per change, for the report and `--dry-run`.
    public var lines: [String] {
        var lines: [String] = []
        func describe(_ ref: RefUpdate, in repository: String) -> String {
            let name =
                ref.ref.isBranch
                ? "branch " + ref.ref.shortName
                : ref.ref.name.hasPrefix("refs/tags/") ? "tag " + ref.ref.shortName : ref.ref.name
            if let source = ref.new { return "\(repository): \(name) → \(source.short)" }
            return "\(repository): delete \(name) (was \(ObjectID.short(ref.old, none: "?")))"
        }
        for push in modulesFirst { lines += push.refs.map { describe($0, in: push.module) } }
        for commit in commits {
            let paths = commit.edits.map(\.path).joined(separator: ", ")
            lines.append("superproject: \(commit.branch): commit \"\(commit.message)\" (\(paths))")
            lines += commit.alsoCreates.map { "superproject: branch \($0) created at that commit" }
        }
        lines += superprojectRefs.map { describe($0, in: "superproject") }
        for push in modulesAfter { lines += push.refs.map { describe($0, in: push.module) } }
        return lines
    }
}

/// Executes a ``LifecyclePlan``: writes the superproject commits (objects only), pushes the modules that must come
/// first, then the superproject in one atomic push, then the remaining module pushes. Nothing is forced; the user's
/// working tree, index, HEAD and local branches are never touched.
public struct LifecycleExecutor: Sendable {
    let state: Snapshot

    /// Creates an executor for a fetched state (its workspace's repositories, run by the workspace's runner).
    public init(state: Snapshot) {
        self.state = state
    }

    /// Runs the plan; returns superproject branch → new commit.
    /// `landed` is told each repository's refs as its push is accepted (the superproject's with the new commits),
    /// for the run's journal; `compensated` is told the refs of a module push taken back again after the
    /// superproject push failed (each deletion accepted).
    @discardableResult
    public func execute(
        _ plan: LifecyclePlan, console: Console? = nil,
        landed: (_ repository: String, _ refs: [RefUpdate]) throws -> Void = { _, _ in },
        compensated: (_ repository: String, _ refs: [String]) throws -> Void = { _, _ in }
    ) throws -> [String: String] {
        let superproject = state.superproject
        var written: [String: String] = [:]
        var superprojectRefs: [RefUpdate] = []
        if !plan.commits.isEmpty {
            let batch = try superproject.openBatch()
            let trees = try superproject.treeWriter(batch: batch).write(
                plan.commits.map { TreeWriter.Job(base: $0.base + "^{tree}", edits: $0.edits) })
            try batch.close()
            let ids = try superproject.writeCommits(
                zip(plan.commits, trees).map { CommitSpec(tree: $1, parents: [$0.base], message: $0.message) },
                identity: try superproject.commitIdentity())
            for (commit, id) in zip(plan.commits, ids.map(\.hex)) {
                written[commit.branch] = id
                superprojectRefs.append(try RefUpdate(branch: commit.branch, new: id, old: nil))
                for branch in commit.alsoCreates {
                    written[branch] = id
                    superprojectRefs.append(try RefUpdate(branch: branch, new: id, old: nil))
                }
            }
        }
        superprojectRefs += plan.superprojectRefs
        var pushed: [ModulePush] = []
        do {
            for push in plan.modulesFirst {
                try pushModules([push], console: console)
                pushed.append(push)
                try landed(push.module, push.refs)
            }
            if !superprojectRefs.isEmpty {
                console?.progress("pushing the superproject…")
                try superproject.push(
                    superprojectRefs, as: "the superproject", to: state.workspace.remoteName,
                    tracking: try SuperprojectRemote.pushTracking(state.workspace)
                ).requireAccepted()
                try landed("superproject", superprojectRefs)
            }
        } catch let error as PushRecordError {
            // The superproject push landed: the module refs it pins stay.
            throw LifecycleError(String(describing: error))
        } catch {
            throw LifecycleError(
                String(describing: error) + "\n" + rollBack(pushed, console: console, compensated: compensated))
        }
        for push in plan.modulesAfter {
            try pushModules([push], console: console)
            try landed(push.module, push.refs)
        }
        return written
    }

    /// Takes back the new module branches and tags pushed before a failed superproject push (each deletion leased on
    /// the value pushed), so that nothing of the run remains and a re-run starts from the same state.
    /// Each deletion accepted is a step of the run (`compensated`): a run whose every pushed ref was taken back has
    /// nothing left to finish.
    private func rollBack(
        _ pushed: [ModulePush], console: Console?, compensated: (String, [String]) throws -> Void
    ) -> String {
        var kept: [String] = []
        var unrecorded: [String] = []
        for push in pushed {
            let created = push.refs.compactMap { ref in
                ref.new.map { RefUpdate(ref: ref.ref, new: nil, old: $0) }
            }
            guard !created.isEmpty else { continue }
            do {
                try pushModules([ModulePush(module: push.module, refs: created)], console: console)
            } catch {
                kept.append("module \(push.module): " + created.map(\.ref.name).joined(separator: ", "))
                continue
            }
            do {
                try compensated(push.module, created.map(\.ref.name))
            } catch {
                unrecorded.append("module \(push.module): \(error)")
            }
        }
        if !unrecorded.isEmpty {
            kept += unrecorded.map { "\($0) (deleted again, but the journal could not say so)" }
        }
        if kept.isEmpty {
            return pushed.isEmpty
                ? "nothing was changed" : "the module refs pushed before were deleted again; nothing was changed"
        }
        return "these module refs were pushed and could not be taken back (delete them or re-run):\n"
            + kept.map { "  " + $0 }.joined(separator: "\n")
    }

    private func pushModules(_ pushes: [ModulePush], console: Console?) throws {
        for push in pushes {
            guard let mirror = state.existingMirror(of: push.module), let spec = state.specs[push.module] else {
                throw LifecycleError("module \(push.module) has no mirror")
            }
            console?.progress("pushing \(push.module)…")
            try mirror.push(push.refs, as: "module \(push.module)", to: spec.url).requireAccepted()
            // The module's checkout learns what its remote now has, as `git push` would have told it.
            let checkouts = ModuleCheckoutTracking(
                workspace: state.workspace,
                paths: Dictionary(
                    state.project.manifest.modules.map { ($0.name, $0.path) }, uniquingKeysWith: { first, _ in first }))
            for warning in checkouts.record([.init(module: push.module, updates: push.refs, mirror: mirror.path)]) {
                console?.warn(warning)
            }
        }
    }
}
