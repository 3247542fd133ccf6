import Foundation

/// The repository-wide lifecycle commands (`tenant add`, `tenant remove`, `module add`, `module remove`, `customize`,
/// `customize --undo`, `tag`), from the workspace to the pushes: the workspace lock, the run's journal
/// (``Transaction``), the fetched ``Snapshot``, the command's planner and ``LifecycleExecutor``. The command parses
/// its options and renders the ``LifecyclePlan`` returned.
public enum LifecycleRun {
    /// What a lifecycle command is asked to change.
    public enum Change: Sendable {
        /// `tenant add`.
        case tenantAdd(TenantLifecycle.AddRequest)
        /// `tenant remove`; `archive`: tag the branches that hold commits of their own before deleting them.
        case tenantRemove(id: String, archive: Bool)
        /// `module add`.
        case moduleAdd(name: String, url: String, path: String?, dependsOn: [String])
        /// `module remove`.
        case moduleRemove(name: String)
        /// `customize`; `from`: the module commit the tenant's branch starts at instead of the pin.
        case customize(tenant: String, module: String, from: String?)
        /// `customize --branch`: the tenant follows the module's existing branch `branch`.
        case adoptBranch(tenant: String, module: String, branch: String)
        /// `customize --undo` (`uncustomize`).
        case uncustomize(tenant: String, module: String)
        /// `tag`.
        case tag(milestone: String, pattern: String)

        /// The command's words: `tenant add`, …, `uncustomize` for `customize --undo`.
        public var command: String {
            switch self {
            case .tenantAdd: "tenant add"
            case .tenantRemove: "tenant remove"
            case .moduleAdd: "module add"
            case .moduleRemove: "module remove"
            case .customize, .adoptBranch: "customize"
            case .uncustomize: "uncustomize"
            case .tag: "tag"
            }
        }
    }

    /// How the run goes.
    public struct Options: Sendable {
        /// Plan only: no journal, no commit, no push.
        public var dryRun: Bool
        /// Wait for the workspace lock instead of failing.
        public var wait: Bool
        /// The words the journal keeps as the command (the ones typed: `customize` for `customize --undo`).
        public var command: String
        /// The words after the command that re-run it, kept in the journal.
        public var arguments: [String]

        public init(dryRun: Bool, wait: Bool, command: String, arguments: [String]) {
            self.dryRun = dryRun
            self.wait = wait
            self.command = command
            self.arguments = arguments
        }
    }

    /// Takes the workspace lock, fetches the remotes, plans `change` and carries the plan out (or only plans it with
    /// ``Options/dryRun``), in a journalled run: every ref the plan changes is journalled before the first push, and
    /// each push as it is accepted.
    ///
    /// A run that goes on from a stopped run of the same command with the same arguments (its journal unfinished)
    /// first asks whether the remotes already hold what the command makes: a run killed after its last push has done
    /// everything, and its re-run then has nothing to change (an empty plan) instead of refusing what its own run
    /// published.
    public static func run(
        _ change: Change, in workspace: Workspace, options: Options, console: Console? = nil
    ) throws -> LifecyclePlan {
        let lock = try WorkspaceLock(gitDirectory: workspace.commonDirectory, wait: options.wait)
        defer { lock.release() }
        if options.dryRun {
            return try plan(change, state: try snapshot(workspace, console: console, change: change))
        }
        let resuming = try !Transaction.unfinishedRuns(
            workspace, allowing: options.command, arguments: options.arguments
        ).isEmpty
        return try Transaction.journalled(workspace, command: options.command, arguments: options.arguments) {
            transaction in
            let state = try snapshot(workspace, console: console, change: change)
            if resuming, isDone(change, state: state) { return LifecyclePlan() }
            let plan = try plan(change, state: state)
            try record(plan, in: transaction, remote: workspace.remoteName, state: state)
            try LifecycleExecutor(state: state).execute(
                plan, console: console,
                landed: { repository, refs in
                    try transaction.record(repository: repository, refs: refs, published: true, landed: nil)
                },
                compensated: { repository, refs in try transaction.recordUndone(repository: repository, refs: refs) })
            return plan
        }
    }

    /// The plan of `change` on the fetched `state` (`tag` also lists the remote's tags).
    public static func plan(_ change: Change, state: Snapshot) throws -> LifecyclePlan {
        switch change {
        case .tenantAdd(let request):
            return try TenantLifecycle.planAdd(request, state: state)
        case .tenantRemove(let id, let archive):
            return try TenantLifecycle.planRemove(id: id, archive: archive, state: state)
        case .moduleAdd(let name, let url, let path, let dependsOn):
            return try ModuleLifecycle.planAdd(
                name: name, url: url, path: path, dependsOn: dependsOn, state: state)
        case .moduleRemove(let name):
            return try ModuleLifecycle.planRemove(name: name, state: state)
        case .customize(let tenant, let module, let from):
            return try Customization.plan(tenant: tenant, module: module, from: from, state: state)
        case .adoptBranch(let tenant, let module, let branch):
            return try Customization.planAdoption(
                tenant: tenant, module: module, branch: branch, state: state)
        case .uncustomize(let tenant, let module):
            return try Customization.planUndo(tenant: tenant, module: module, state: state)
        case .tag(let milestone, let pattern):
            return try Milestone.plan(
                milestone: milestone, pattern: pattern, state: state,
                existingTags: try Milestone.remoteTags(state.workspace))
        }
    }

    /// Whether the remotes in `state` already hold what `change` makes, asked only when the run goes on from a
    /// stopped one. `module add`, `module remove` and `tag` plan a stopped run's rest themselves: false.
    public static func isDone(_ change: Change, state: Snapshot) -> Bool {
        switch change {
        case .tenantAdd(let request): TenantLifecycle.isAdded(request.id, state: state)
        case .tenantRemove(let id, _): TenantLifecycle.isRemoved(id, state: state)
        case .customize(let tenant, let module, _):
            Customization.isCustomised(tenant: tenant, module: module, state: state)
        case .adoptBranch(let tenant, let module, let branch):
            Customization.isAdopted(tenant: tenant, module: module, branch: branch, state: state)
        case .uncustomize(let tenant, let module):
            Customization.isUncustomised(tenant: tenant, module: module, state: state)
        case .moduleAdd, .moduleRemove, .tag: false
        }
    }

    /// The snapshot every lifecycle command plans on: every project file valid, every module remote fetched. The
    /// tenant and module `change` names are checked before any module is fetched where a name the project lacks
    /// can only be a mistake (`customize`, `uncustomize`; removing a tenant or module also finishes what a stopped
    /// removal left, which needs the modules).
    static func snapshot(_ workspace: Workspace, console: Console?, change: Change? = nil) throws
        -> Snapshot
    {
        var checkNames: (@Sendable (Project) throws -> Void)?
        switch change {
        case .customize(let tenant, let module, _), .uncustomize(let tenant, let module):
            checkNames = { project in _ = try Customization.lookUp(tenant: tenant, module: module, in: project) }
        default:
            checkNames = nil
        }
        return try Snapshot.load(
            workspace: workspace,
            options: Snapshot.Options(
                purpose: .strict, allowLocalRemotes: workspace.git.allowLocalRemotes, checkNames: checkNames),
            console: console)
    }

    /// Journals every ref the plan changes before the first push (outcome unknown until its push is accepted), in
    /// the order the pushes land: the modules that come first, the superproject, the modules after it; so that
    /// `runs --abort` takes them back newest first. A new superproject commit's ref is journalled with the value
    /// the remote branch had (nil: the run creates the branch).
    static func record(_ plan: LifecyclePlan, in transaction: Transaction, remote: String, state: Snapshot) throws {
        func recordModules(_ pushes: [ModulePush]) throws {
            for push in pushes {
                try transaction.record(
                    repository: push.module, remote: RemoteURL.redacted(state.specs[push.module]?.url ?? ""),
                    refs: push.refs, published: nil, landed: nil)
            }
        }
        try recordModules(plan.modulesFirst)
        let commits = try plan.commits.flatMap { commit in
            try ([commit.branch] + commit.alsoCreates).map {
                try RefUpdate(branch: $0, new: nil, old: state.branches[$0])
            }
        }
        if !(commits + plan.superprojectRefs).isEmpty {
            try transaction.record(
                repository: "superproject", remote: remote, refs: commits + plan.superprojectRefs, published: nil,
                landed: nil)
        }
        try recordModules(plan.modulesAfter)
    }
}
