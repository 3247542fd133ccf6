import Foundation

/// What `tenantctl switch` did (or, with `--dry-run`, would do), per repository.
public struct SwitchReport: Sendable, Equatable, Codable {
    /// One repository's outcome.
    public struct Entry: Sendable, Equatable, Codable {
        /// `superproject` or the module name.
        public var repository: String
        /// Path relative to the superproject root ("" for the superproject).
        public var path: String
        /// The branch it is on now.
        public var branch: String
        /// The commit it is on now.
        public var commit: String
        /// The commit HEAD was on before (nil when the module was not initialised).
        public var from: String?
        /// The pin (modules) or remote tenant branch tip (superproject) it had to reach.
        public var target: String
        /// `unchanged`, `checked out`, `fast-forwarded`, `moved back`, `created`, `cloned` (with `--dry-run`:
        /// `unchanged`, `check out`, `fast-forward`, `move back`, `create`, `clone`).
        public var change: String
        /// Commits the superproject's local branch has beyond the target (kept, never reset).
        public var aheadOfTarget: Int
        /// Commits the local branch left when it was moved back to the pin (all on remote-tracking branches).
        public var leftCommits: Int
        /// A remote-tracking branch that holds the commits left (`origin/general_dev`).
        public var leftOn: String?
        /// Nested submodules initialised or moved to their recorded commits.
        public var nestedUpdated: Bool
        /// The branch the module left that keeps commits no remote holds (nil: none).
        public var keptBranch: String? = nil
        /// How many commits `keptBranch` has that no remote holds.
        public var keptUnpushed: Int = 0
        /// The first ten of them, as `<short id> <subject>`.
        public var keptCommits: [String] = []
        /// The URL the target's `.gitmodules` gives this module when it differs from `modules.json`'s (switch
        /// uses `modules.json`'s).
        public var gitmodulesURL: String? = nil
        /// The path the module's checkout was moved from: the target branch has the module at `path`.
        public var movedFrom: String? = nil
        /// The nested checkouts the move took along, their links (`.git` file, `core.worktree`) pointed at the new
        /// place (paths inside the module's checkout; empty when it did not move or holds none).
        public var nestedMoved: [String] = []
    }

    /// Report format version.
    public var schemaVersion = 1
    /// The tenant id, or the general branch name for the development view.
    public var tenant: String
    /// The superproject branch.
    public var branch: String
    /// True for `--dry-run`: nothing was changed.
    public var dryRun: Bool
    /// The superproject first, then every module in manifest order.
    public var repositories: [Entry]
    /// Modules with no pin on this branch (left alone).
    public var unpinned: [String]
    /// Submodules the branch pins that `modules.json` does not name, each checked out at its pin.
    public var unnamed: [UnnamedSubmodule] = []
}

/// `tenantctl switch`: pre-flight (collects every problem, changes nothing on a finding), fetch, plan, execute.
public struct WorkingCopySwitch: Sendable {
    /// The superproject (its runner runs every git call of the switch).
    public var workspace: Workspace
    /// Whether to fetch the remotes first.
    public var fetch: Bool
    /// Whether to initialise and update nested submodules of the modules (`--no-recursive` turns it off).
    public var recursive: Bool
    /// Progress output.
    public var console: Console?
    /// The run journal of this switch: it records each repository before the first change, and which ones the
    /// switch has started changing (what the next switch needs to put a stopped one back). Nil: a switch inside
    /// another command (resolve), whose own journal covers it.
    public var transaction: Transaction?

    public init(
        workspace: Workspace, fetch: Bool = true, recursive: Bool = true, console: Console? = nil,
        transaction: Transaction? = nil
    ) {
        self.workspace = workspace
        self.fetch = fetch
        self.recursive = recursive
        self.console = console
        self.transaction = transaction
    }

    /// A module and where it is.
    struct ModuleContext {
        var module: Module
        var absolutePath: String
        var presence: CheckoutPresence
        var state: RepositoryState?
    }

    /// The whole plan of a switch.
    public struct Plan: Sendable, Equatable {
        public var tenant: String
        public var superproject: RepositoryPlan
        public var modules: [RepositoryPlan]
        public var unpinned: [String]
        /// HEAD before the switch, per repository name (nil: not initialised).
        public var heads: [String: String]
        /// Per module: the branch it leaves that keeps commits no remote holds (said in the report).
        public var leftUnpushed: [String: UnpushedBranch] = [:]
        /// Per module: the URL `.gitmodules` of the target names when it differs from `modules.json`'s.
        public var urlDrift: [String: String] = [:]
        /// Per module: the URL switch gives it (`modules.json`'s, relative URLs resolved).
        public var urls: [String: String] = [:]
        /// Per module whose checkout moves: its nested checkouts whose links move with it.
        public var movedNested: [String: [String]] = [:]
        /// Per repository name: the branch checked out before (for putting it back).
        public var before: [String: Before] = [:]
        /// The target's submodules `modules.json` does not name, as they will be checked out.
        public var unnamed: [UnnamedSubmodule] = []
        /// Per path of a repository the switch clones: tenantctl's mirror of it, fetched by the pin check, which the
        /// clone copies its objects from instead of downloading them a second time.
        public var cloneSources: [String: String] = [:]
    }

    /// Where a repository was before the switch.
    public struct Before: Sendable, Equatable {
        /// The branch checked out (nil: detached).
        public var branch: String?
    }

    /// A branch a module leaves that holds commits no remote-tracking branch has.
    public struct UnpushedBranch: Sendable, Equatable, Codable {
        /// The branch.
        public var branch: String
        /// How many commits no remote holds.
        public var count: Int
        /// The first ten, as `<short id> <subject>`.
        public var commits: [String]
    }

    /// Switches the working copy to `target` (a tenant id or branch, or the general branch); with `dryRun`, only
    /// plans and reports what it would do.
    public func run(target name: String, dryRun: Bool = false) throws -> SwitchReport {
        let stopped = try StoppedSwitch.unfinished(workspace, excluding: transaction?.runId)
        for moved in stopped where dryRun && !moved.moved.isEmpty {
            if let worktree = moved.worktree, !Self.sameDirectory(worktree, workspace.root) {
                // Put back only in its own worktree: what the switch would do here, said without doing it.
                guard FileManager.default.fileExists(atPath: (worktree as NSString).appendingPathComponent(".git"))
                else {
                    console?.progress(
                        "a switch to \(moved.target) stopped part-way in the worktree \(worktree), which no longer "
                            + "exists: the switch would put nothing of it back, and touch nothing here for it")
                    continue
                }
                let rerun =
                    moved.run.rerunCommand(currentWorktree: workspace.root)
                    ?? "tenantctl runs --abort \(moved.run.runId)"
                throw WorkingCopyRefusal(
                    action: "plan a switch to \(name)",
                    problems: [
                        WorkingCopyProblem(
                            repository: "superproject", path: worktree,
                            reason: "a switch to \(moved.target) stopped part-way in that worktree (run "
                                + "\(moved.run.runId)); it is left to that worktree and put back only there: run `"
                                + rerun + "` (it puts that worktree back, then switches it), then run this command "
                                + "again")
                    ])
            }
            throw WorkingCopyRefusal(
                action: "plan a switch to \(name)",
                problems: [
                    WorkingCopyProblem(
                        repository: "superproject", path: "",
                        reason: "a switch to \(moved.target) stopped part-way (it changed "
                            + "\(moved.moved.joined(separator: ", "))); run tenantctl switch \(name) without "
                            + "--dry-run: it puts that back first")
                ])
        }
        var putBack: [String] = []
        if !dryRun {
            for switchRun in stopped { putBack += try recover(switchRun) }
        }
        let plan: Plan
        do {
            plan = try makePlan(target: name)
        } catch var refusal as WorkingCopyRefusal where !putBack.isEmpty {
            refusal.note =
                "the stopped switch was put back first (\(putBack.joined(separator: ", "))), nothing else was changed"
            throw refusal
        }
        if dryRun {
            var report = SwitchReport(
                tenant: plan.tenant, branch: plan.superproject.branch, dryRun: true,
                repositories: ([plan.superproject] + plan.modules).map {
                    var planned = entry(
                        $0, change: Self.plannedChange($0.action), from: plan.heads[$0.repository], nested: false)
                    if let kept = plan.leftUnpushed[$0.repository] {
                        planned.keptBranch = kept.branch
                        planned.keptUnpushed = kept.count
                        planned.keptCommits = kept.commits
                    }
                    planned.gitmodulesURL = plan.urlDrift[$0.repository]
                    planned.movedFrom = $0.movedFrom
                    planned.nestedMoved = plan.movedNested[$0.repository] ?? []
                    return planned
                }, unpinned: plan.unpinned)
            report.unnamed = plan.unnamed.map {
                var planned = $0
                planned.change = ["cloned": "clone", "checked out": "check out"][$0.change] ?? $0.change
                return planned
            }
            return report
        }
        return try execute(plan)
    }

    /// The repository whose working tree (or git directory) is at the absolute `path`: a module checkout, a nested
    /// submodule, a mirror; handed out by the workspace, with its runner.
    func gitRepository(at path: String) -> GitRepository { workspace.superproject.repository(at: path) }

    /// The words `--dry-run` uses for an action.
    static func plannedChange(_ action: BranchAction) -> String {
        switch action {
        case .none: return "unchanged"
        case .checkout: return "check out"
        case .fastForward: return "fast-forward"
        case .moveBack: return "move back"
        case .create: return "create"
        case .initialise: return "clone"
        }
    }

    /// Inspects one module directory: where it stands, its state and what forbids changing it.
    private func inspectModule(_ module: Module, superOrigin: String) throws -> (ModuleContext, [WorkingCopyProblem]) {
        let path = workspace.path(module.path)
        let presence = try CheckoutPresence.of(gitRepository(at: path))
        var problems: [WorkingCopyProblem] = []
        var state: RepositoryState?
        switch presence {
        case .repository:
            let inspected = try RepositoryState.inspect(gitRepository(at: path))
            problems += inspected.problems(repository: module.name, relativePath: module.path)
            if let problem = try originMismatch(module, at: path, superOrigin: superOrigin) {
                problems.append(problem)
            }
            state = inspected
        case .notARepository(let reason):
            problems.append(WorkingCopyProblem(repository: module.name, path: module.path, reason: reason))
        case .notInitialised:
            break
        }
        return (ModuleContext(module: module, absolutePath: path, presence: presence, state: state), problems)
    }

    /// Inspects everything and returns the plan; throws ``WorkingCopyRefusal`` listing every problem.
    ///
    /// The plan is made from the target commit: `modules.json` and `Tenants/` are read at the superproject commit
    /// the switch ends on, so modules and tenants added (or customised) since the working tree's files were
    /// checked out are found. The tenant is looked up in the working tree's files, then on the fetched general
    /// branch. A branch without `modules.json` (an adopted tenant before its first roll) is planned from the
    /// general branch's files and its own gitlinks (``BranchProject``).
    public func makePlan(target name: String) throws -> Plan {
        let options = ValidationOptions(allowLocalRemotes: workspace.git.allowLocalRemotes)
        let current = try BranchProject.workingTree(workspace, options: options)
        let general = current.manifest.generalBranch
        let fetchedBranches = try branchesForAName(name, notIn: current, options: options)
        let local = try localPreflight(current, target: name)
        let remoteBranches =
            try fetchedBranches ?? WorkingCopyRemote.branches(workspace, fetch: fetch, console: console)
        let lookedUp = try lookUpTenant(name, in: current, remoteBranches: remoteBranches, options: options)
        let branch = lookedUp?.branch ?? general
        let action = "switch to \(lookedUp?.id ?? branch)"
        var problems: [WorkingCopyProblem] = []
        let (plannedSuper, superproject) = try planSuperproject(
            local, branch: branch, remoteBranches: remoteBranches, action: action, problems: &problems)

        // 3. The project and pins at the target commit; fetch and plan every module it has.
        let target = try BranchProject.revision(
            plannedSuper.finalCommit, general: general, workspace: workspace, options: options)
        let tenant = lookedUp.map { found in target.tenant(id: found.id) ?? found }
        let pins = try workspace.superproject.pins(
            at: plannedSuper.finalCommit, paths: target.manifest.modules.map(\.path))
        var modules = ModulesPlanned()
        let urlDrift = try gitmodulesDrift(
            target.manifest.modules, at: plannedSuper.finalCommit, superOrigin: local.superOrigin)
        if let head = superproject.head { modules.heads["superproject"] = head }
        modules.before["superproject"] = Before(branch: superproject.currentBranch)
        try planModules(
            target, pins: pins, tenant: tenant, superproject: plannedSuper, superHead: superproject.head,
            local: local, into: &modules)
        problems += modules.problems
        let unnamed = try planUnnamed(
            target: plannedSuper.finalCommit, branch: branch, modules: target.manifest.modules)
        problems += unnamed.problems
        modules.before.merge(unnamed.before) { $1 }
        // A clone that cannot reach its pin would stop the switch half-way: found now, before any change.
        let pinCheck = try missingPinProblems(
            modules.cloning + unnamed.cloning, superOrigin: local.superOrigin, target: branch)
        problems += pinCheck.problems
        guard problems.isEmpty else { throw WorkingCopyRefusal(action: action, problems: problems) }
        var plan = Plan(
            tenant: tenant?.id ?? branch, superproject: plannedSuper, modules: modules.plans,
            unpinned: modules.unpinned, heads: modules.heads, leftUnpushed: modules.leftUnpushed, urlDrift: urlDrift,
            urls: target.manifest.modules.reduce(into: [:]) { urls, module in
                if !module.url.isEmpty {
                    urls[module.name] = Self.resolved(module.url, superOrigin: local.superOrigin)
                }
            }, before: modules.before, unnamed: unnamed.submodules)
        plan.cloneSources = pinCheck.mirrors
        plan.movedNested = modules.movedNested
        return plan
    }

    /// What the local pre-flight found: the superproject's state, each module of the working tree's manifest where
    /// it stands (by path), and the superproject's origin URL.
    struct LocalState {
        var superproject: RepositoryState
        var contexts: [String: ModuleContext]
        var superOrigin: String
    }

    /// The modules' plans as they are made, with what the report and the put-back need of each.
    struct ModulesPlanned {
        var plans: [RepositoryPlan] = []
        var unpinned: [String] = []
        var heads: [String: String] = [:]
        var leftUnpushed: [String: UnpushedBranch] = [:]
        var cloning: [CloneToCheck] = []
        var before: [String: Before] = [:]
        var problems: [WorkingCopyProblem] = []
        /// The working tree's submodule names by path, once read (``checkoutElsewhere(of:in:)``).
        var submoduleNames: [String: String]?
        /// Per module whose checkout moves: its nested checkouts whose links move with it.
        var movedNested: [String: [String]] = [:]
    }

    /// Step 0. A name the working tree's tenant files do not know: one fetch of the superproject (a colleague may
    /// have added the tenant), then the general branch's files; still unknown, refused before any module is looked
    /// at. Returns the fetched branches (nil: the name is known, nothing fetched yet).
    private func branchesForAName(_ name: String, notIn current: Project, options: ValidationOptions) throws
        -> [String: String]?
    {
        let general = current.manifest.generalBranch
        guard name != general, current.tenant(id: name) == nil else { return nil }
        let branches = try WorkingCopyRemote.branches(workspace, fetch: fetch, console: console)
        let known =
            branches[general] == nil
            ? nil
            : try ProjectReader.revision(
                WorkingCopyRemote.ref(of: general, in: workspace), in: workspace.superproject,
                options: options
            ).tenant(id: name)
        guard known != nil else {
            throw UnknownNameError(kind: "tenant", names: [name], known: [general] + current.tenants.map(\.id))
        }
        return branches
    }

    /// Step 1. Local pre-flight: nothing is changed when the working copy is not safe (every problem refused at
    /// once).
    private func localPreflight(_ current: Project, target name: String) throws -> LocalState {
        var problems: [WorkingCopyProblem] = []
        let superState = try RepositoryState.inspect(workspace.superproject, superproject: true)
        problems += superState.problems(repository: "superproject", relativePath: "")
        var contexts: [String: ModuleContext] = [:]
        let superOrigin = try SuperprojectRemote.originURL(workspace) ?? workspace.root
        for module in current.manifest.modules {
            let (context, found) = try inspectModule(module, superOrigin: superOrigin)
            contexts[module.path] = context
            problems += found
        }
        guard problems.isEmpty else { throw WorkingCopyRefusal(action: "switch to \(name)", problems: problems) }
        return LocalState(superproject: superState, contexts: contexts, superOrigin: superOrigin)
    }

    /// Step 2. The tenant: in the working tree's files, then on the fetched general branch (nil: the general
    /// branch itself).
    private func lookUpTenant(
        _ name: String, in current: Project, remoteBranches: [String: String], options: ValidationOptions
    ) throws -> Tenant? {
        let general = current.manifest.generalBranch
        guard name != general else { return nil }
        var lookedUp = current.tenant(id: name)
        if lookedUp == nil, remoteBranches[general] != nil {
            lookedUp = try ProjectReader.revision(
                WorkingCopyRemote.ref(of: general, in: workspace), in: workspace.superproject,
                options: options
            ).tenant(id: name)
        }
        guard lookedUp != nil else {
            throw UnknownNameError(kind: "tenant", names: [name], known: [general] + current.tenants.map(\.id))
        }
        return lookedUp
    }

    /// The superproject's plan (to the remote tenant branch, else the local one) and its state after the fetch;
    /// the problems of a superproject that changes are added to `problems`.
    private func planSuperproject(
        _ local: LocalState, branch: String, remoteBranches: [String: String], action: String,
        problems: inout [WorkingCopyProblem]
    ) throws -> (RepositoryPlan, RepositoryState) {
        var superproject = local.superproject
        if fetch {
            superproject = try RepositoryState.inspect(workspace.superproject, superproject: true)
        }
        guard let superTarget = remoteBranches[branch] ?? superproject.branches[branch] else {
            throw WorkingCopyRefusal(
                action: action,
                problems: [
                    WorkingCopyProblem(
                        repository: "superproject", path: "",
                        reason: "branch \(branch) exists neither locally nor on origin")
                ])
        }
        let superPlan = try plan(
            state: superproject, repository: "superproject", relativePath: "", absolutePath: workspace.root,
            branch: branch, target: superTarget, movesBack: false)
        guard case .success(let plannedSuper) = superPlan else {
            if case .failure(let problem) = superPlan { problems.append(problem) }
            throw WorkingCopyRefusal(action: action, problems: problems)
        }
        if plannedSuper.changes {
            problems += try preflight(
                plannedSuper, absolutePath: workspace.root, state: superproject, repository: "superproject")
            problems += try replacedModuleProblems(local.contexts.values, target: plannedSuper.finalCommit)
        }
        return (plannedSuper, superproject)
    }

    /// Plans every module of the target's manifest (`pins` by path) into `modules`.
    private func planModules(
        _ target: Project, pins: [String: String], tenant: Tenant?, superproject: RepositoryPlan,
        superHead: String?, local: LocalState, into modules: inout ModulesPlanned
    ) throws {
        for module in target.manifest.modules {
            guard
                let found = try moduleContext(
                    module, superproject: superproject, superHead: superHead, local: local, into: &modules)
            else { continue }
            guard let pin = pins[module.path] else {
                modules.unpinned.append(module.name)
                continue
            }
            try planModule(
                module, context: found.context, branch: target.branch(of: module, for: tenant), pin: pin,
                movedFrom: found.movedFrom, into: &modules)
            if found.movedFrom != nil {
                let nested = try ModuleCheckoutMove.linkedNestedCheckouts(
                    in: found.context.absolutePath, outside: workspace.superproject)
                if !nested.isEmpty { modules.movedNested[module.name] = nested }
            }
        }
    }

    /// Where a module of the target stands: the working tree's checkout at its path, a checkout of it at another
    /// path (the module moved between the branches), or looked at now. Nil when it has a problem (added to
    /// `modules`).
    private func moduleContext(
        _ module: Module, superproject: RepositoryPlan, superHead: String?, local: LocalState,
        into modules: inout ModulesPlanned
    ) throws -> (context: ModuleContext, movedFrom: String?)? {
        if let known = local.contexts[module.path], known.module.name == module.name {
            guard known.presence == .notInitialised, let elsewhere = try checkoutElsewhere(of: module, in: &modules)
            else { return (known, nil) }
            // Its git directory's checkout stands at another path (a put-back kept it there, holding changes of
            // the user's): initialising it here would give that git directory a second checkout. It moves here
            // instead, once nothing of the user's is in it.
            var moved = module
            moved.path = elsewhere
            let (inspected, found) = try inspectModule(moved, superOrigin: local.superOrigin)
            modules.problems += found
            return found.isEmpty ? (inspected, elsewhere) : nil
        }
        if superproject.changes, local.contexts[module.path] == nil,
            let checkout = local.contexts.values.first(where: {
                $0.module.name == module.name && $0.presence == .repository
            })
        {
            // The module moved between the branches: its checkout moves to where the target has it.
            return (checkout, checkout.module.path)
        }
        var (inspected, found) = try inspectModule(module, superOrigin: local.superOrigin)
        if case .notARepository = inspected.presence, superproject.changes,
            try trackedAsFile(module.path, at: superHead)
        {
            // A file the superproject tracks stands where the target has this module: the superproject's
            // checkout replaces it, then the module is set up.
            inspected.presence = .notInitialised
            found = []
        }
        modules.problems += found
        return found.isEmpty ? (inspected, nil) : nil
    }

    /// The path (relative to the workspace) of a checkout of `module` other than at `module.path`: its git
    /// directory exists, and its `core.worktree` names a directory inside the workspace whose `.git` file names that
    /// git directory. Nil when there is none (the usual case: a module not initialised has no checkout anywhere).
    /// `.gitmodules` is read once per plan (`modules.submoduleNames`), and only when some module has a git
    /// directory at all.
    private func checkoutElsewhere(of module: Module, in modules: inout ModulesPlanned) throws -> String? {
        let gitDirectories = (workspace.gitDirectory as NSString).appendingPathComponent("modules")
        guard FileManager.default.fileExists(atPath: gitDirectories) else { return nil }
        let names = try modules.submoduleNames ?? submoduleNames()
        modules.submoduleNames = names
        guard let name = names[module.path] else { return nil }
        let gitDirectory = (gitDirectories as NSString).appendingPathComponent(name)
        let config = (gitDirectory as NSString).appendingPathComponent("config")
        guard FileManager.default.fileExists(atPath: config) else { return nil }
        guard
            let worktree = try workspace.superproject.configValue(
                "core.worktree", inFile: config, context: "read core.worktree of \(gitDirectory)")
        else { return nil }
        let checkout = URL(
            fileURLWithPath: worktree.hasPrefix("/")
                ? worktree : (gitDirectory as NSString).appendingPathComponent(worktree)
        ).standardizedFileURL.path
        let root = workspace.root + "/"
        guard checkout.hasPrefix(root), !Self.sameDirectory(checkout, workspace.path(module.path)),
            let named = StoppedCheckoutMove.gitDirectory(
                namedIn: (checkout as NSString).appendingPathComponent(".git"), from: checkout),
            Self.sameDirectory(named, gitDirectory)
        else { return nil }
        return String(checkout.dropFirst(root.count))
    }

    /// Plans one pinned module: a clone when it is not initialised, nothing when it is on its branch at the pin,
    /// else (after fetching it) the move its branch makes. `module` is the target's: its path is where the target
    /// has it, also when its checkout stands elsewhere now.
    private func planModule(
        _ module: Module, context: ModuleContext, branch moduleBranch: String, pin: String, movedFrom: String?,
        into modules: inout ModulesPlanned
    ) throws {
        guard var state = context.state else {
            if let problem = try uninitialisedProblem(module, branch: moduleBranch, pin: pin) {
                modules.problems.append(problem)
            }
            modules.plans.append(
                SwitchPlanner.planUninitialised(
                    repository: module.name, path: module.path, branch: moduleBranch, pin: pin,
                    remoteBranchExists: nil))
            modules.cloning.append(CloneToCheck(module: module, pin: pin))
            return
        }
        if let head = state.head { modules.heads[module.name] = head }
        modules.before[module.name] = Before(branch: state.currentBranch)
        if let current = state.currentBranch, current != moduleBranch, let tip = state.branches[current] {
            let unpushed = try gitRepository(at: context.absolutePath).unpublished(tip, beyond: nil)
            if unpushed.count > 0 {
                modules.leftUnpushed[module.name] = UnpushedBranch(
                    branch: current, count: unpushed.count, commits: unpushed.listed)
            }
        }
        if state.currentBranch == moduleBranch && state.head == pin && state.branches[moduleBranch] == pin {
            // Already on its branch at the pin: nothing to fetch, nothing to ask git (switching between tenants
            // that share most pins touches only the modules that differ).
            var unchanged = RepositoryPlan(
                repository: module.name, path: module.path, branch: moduleBranch, target: pin,
                finalCommit: pin, aheadOfTarget: 0, action: .none)
            unchanged.movedFrom = movedFrom
            modules.plans.append(unchanged)
            return
        }
        if fetch {
            console?.progress("fetching \(module.name)")
            try gitRepository(at: context.absolutePath).fetchOrigin(prune: true, module: module.name)
            state = try RepositoryState.inspect(gitRepository(at: context.absolutePath))
        }
        switch try plan(
            state: state, repository: module.name, relativePath: module.path, absolutePath: context.absolutePath,
            branch: moduleBranch, target: pin, movesBack: true)
        {
        case .success(var value):
            value.movedFrom = movedFrom
            modules.plans.append(value)
            if value.changes {
                modules.problems += try preflight(
                    value, absolutePath: context.absolutePath, state: state, repository: module.name)
            }
        case .failure(let problem): modules.problems.append(problem)
        }
    }

    /// What would make git stop half-way in a repository that changes: untracked files the target would
    /// overwrite, the branch checked out in another worktree.
    private func preflight(_ plan: RepositoryPlan, absolutePath: String, state: RepositoryState, repository: String)
        throws
        -> [WorkingCopyProblem]
    {
        var problems: [WorkingCopyProblem] = []
        let checkout = gitRepository(at: absolutePath)
        func join(_ path: String) -> String { plan.path.isEmpty ? path : plan.path + "/" + path }
        if state.head != plan.finalCommit {
            for file in try checkout.untrackedOverwrites(to: plan.finalCommit) {
                problems.append(
                    WorkingCopyProblem(
                        repository: repository, path: join(file),
                        reason: "untracked file that checking out \(plan.branch) would overwrite; "
                            + "move it away or commit it first"))
            }
        }
        if case .create = plan.action {
            for clash in try checkout.branchNameClashes(plan.branch) {
                problems.append(
                    WorkingCopyProblem(
                        repository: repository, path: plan.path,
                        reason: "local branch \(clash) blocks creating branch \(plan.branch) (git keeps branch "
                            + "names as paths); rename it first, e.g. git -C \(plan.path.isEmpty ? "." : plan.path) "
                            + "branch -m \(clash) \(Self.renamed(clash))"))
            }
        }
        if let elsewhere = try checkout.branchesInOtherWorktrees(
            gitDirectory: state.gitDirectory)[plan.branch]
        {
            problems.append(
                WorkingCopyProblem(
                    repository: repository, path: plan.path,
                    reason: "branch \(plan.branch) is checked out in another worktree, \(elsewhere); "
                        + "switch that worktree to another branch first"))
        }
        return problems
    }

    /// A module checkout whose `origin` is another repository than the one `modules.json` names is refused, not
    /// switched: its branches would be compared with, and fetched from, the wrong remote.
    /// URLs are compared after resolving relative manifest URLs as git does and dropping a trailing `/` or `.git`.
    private func originMismatch(_ module: Module, at path: String, superOrigin: String) throws
        -> WorkingCopyProblem?
    {
        guard !module.url.isEmpty else { return nil }
        let expected =
            RemoteURL.classify(module.url) == .relative
            ? RemoteURL.resolve(relative: module.url, against: superOrigin) : module.url
        guard let expected else { return nil }
        let actual =
            try gitRepository(at: path).configValue(
                "remote.origin.url", context: "read the origin of \(module.name)") ?? ""
        guard Self.sameRemote(actual, expected) else {
            return WorkingCopyProblem(
                repository: module.name, path: module.path,
                reason:
                    "its origin is \(actual.isEmpty ? "not set" : RemoteURL.redacted(actual)), but modules.json names "
                    + "\(RemoteURL.redacted(expected)); not touched (if modules.json is right: git -C \(module.path) remote "
                    + "set-url origin \(RemoteURL.redacted(expected)))")
        }
        return nil
    }

    /// Whether two remote URLs name the same repository (ignoring a trailing `/` and `.git`).
    static func sameRemote(_ lhs: String, _ rhs: String) -> Bool {
        func normalised(_ url: String) -> String {
            var value = url
            while value.hasSuffix("/") { value.removeLast() }
            if value.hasSuffix(".git") { value.removeLast(4) }
            return value
        }
        return normalised(lhs) == normalised(rhs)
    }

    private func plan(
        state: RepositoryState, repository: String, relativePath: String, absolutePath: String, branch: String,
        target pinned: String, movesBack: Bool
    ) throws -> Result<RepositoryPlan, WorkingCopyProblem> {
        let checkout = gitRepository(at: absolutePath)
        // An annotated tag as pin is peeled: the branch ends on the commit it names.
        let peeled = try checkout.objectID(of: pinned, peeledTo: .commit)?.hex
        let target = peeled ?? pinned
        let tip = state.branches[branch]
        var observation = BranchObservation(
            repository: repository, path: relativePath, branch: branch, target: target,
            currentBranch: state.currentBranch, head: state.head, branchTip: tip, tipVersusTarget: nil,
            remoteBranchExists: state.remoteBranches[branch] != nil, targetAvailable: peeled != nil)
        observation.movesBack = movesBack
        if peeled != nil, let tip {
            let value = try checkout.counts(tip, target)
            observation.tipVersusTarget = (value.left, value.right)
            if movesBack && value.left > 0 {
                let unpublished = try checkout.unpublished(tip, beyond: target)
                observation.unpublishedCount = unpublished.count
                observation.unpublished = unpublished.listed
                if unpublished.count == 0 {
                    observation.publishedOn = try checkout.remoteBranch(
                        containing: tip, preferred: branch, remote: Workspace.defaultRemoteName)
                }
            }
        }
        return SwitchPlanner.plan(observation)
    }

    /// Carries out a plan. Only repositories whose plan changes something are touched; no git command runs in a
    /// module directory that is not the module's own repository. All or nothing: the run journal records every
    /// repository before the first change, and each one as the switch starts changing it; when a step fails, every
    /// repository changed so far is put back (they were clean), and when that is impossible (interrupted, disk
    /// full) the run stays unfinished and the next switch puts them back.
    public func execute(_ plan: Plan) throws -> SwitchReport {
        var records = StoppedSwitch.records(plan)
        var moved: [String] { records.filter { $0.started == true }.map(\.repository) }
        let rerun = "tenantctl switch \(plan.tenant)"
        try transaction?.recordBefore(records)
        func start(_ repository: String) throws {
            guard let index = records.firstIndex(where: { $0.repository == repository }) else { return }
            records[index].started = true
            // One line appended to the journal, before the first change there.
            try transaction?.recordStarted(repository)
            InterruptNote.set(
                "the switch to \(plan.tenant) stopped part-way (changed: \(moved.joined(separator: ", "))); "
                    + "run `\(rerun)` again: it puts that back, then switches")
        }
        // Repositories the plan could not know (nested submodules, seen once their module is checked out): recorded
        // with the others, already started, before their first change.
        func add(_ found: [RunJournal.Before]) throws {
            records += found.filter { record in !records.contains { $0.repository == record.repository } }
            try transaction?.recordBefore(records)
        }
        do {
            let report = try executeSteps(plan, start: start, add: add)
            InterruptNote.set(nil)
            return report
        } catch {
            let cause = "\(error)"
            let left = moved
            if left.isEmpty { throw error }
            let result: (putBack: [String], kept: [String])
            do {
                // Interrupted (SIGINT, SIGTERM): git processes may start again for the put-back, before the exit.
                // Only the repositories this run started changing are looked at and put back.
                result = try Cancellator.shared.puttingBack {
                    let repositories = StoppedSwitch.withLanded(
                        try StoppedSwitch.repositories(from: records, file: "the journal of this switch"),
                        entries: transaction?.current.entries ?? [])
                    let result = try rollBack(repositories, target: plan.tenant) { putBack in
                        console?.progress(
                            "putting back what the switch changed (\(putBack.joined(separator: ", ")))")
                    }
                    // The compensating steps: what landed and went back again.
                    for (repository, refs) in StoppedSwitch.landedRefs(of: result.putBack, in: repositories) {
                        try transaction?.recordUndone(repository: repository, refs: refs)
                    }
                    return result
                }
            } catch let rollbackError {
                throw SwitchStoppedError(
                    cause: cause, putBack: [], left: left, rollbackFailure: "\(rollbackError)", rerun: rerun)
            }
            guard result.kept.isEmpty else {
                throw SwitchStoppedError(
                    cause: cause, putBack: result.putBack, left: result.kept, rollbackFailure: nil, rerun: rerun)
            }
            InterruptNote.set("every repository the switch had changed is back where it was")
            throw SwitchStoppedError(cause: cause, putBack: left, left: [], rollbackFailure: nil, rerun: rerun)
        }
    }

    /// Records in the journal the steps of `plan` that landed (`cloned`: only the clone of a module the switch
    /// initialises): HEAD and the branch the switch wrote, each from its value before to the one the switch left.
    private func recordLanded(_ plan: RepositoryPlan, headBefore: String?, cloned: Bool = false) throws {
        guard let transaction, plan.changes else { return }
        var steps = [try JournalStep(ref: JournalStep.headName, new: plan.finalCommit, old: headBefore)]
        switch plan.action {
        case .fastForward(let from), .moveBack(let from, _, _):
            steps.append(.ref(try RefUpdate(branch: plan.branch, new: plan.finalCommit, old: from)))
        case .create, .initialise:
            if !cloned { steps.append(.ref(try RefUpdate(branch: plan.branch, new: plan.finalCommit, old: nil))) }
        case .checkout, .none:
            break
        }
        try transaction.record(repository: plan.repository, steps: steps, published: nil, landed: true)
    }

    /// The steps of ``execute(_:)``; `start` records in the journal that a repository is about to change.
    private func executeSteps(
        _ plan: Plan, start: (String) throws -> Void, add: ([RunJournal.Before]) throws -> Void
    ) throws -> SwitchReport {
        var entries: [SwitchReport.Entry] = []
        if plan.superproject.changes { try start("superproject") }
        let superChange = try apply(plan.superproject, in: workspace.root, superproject: true)
        try recordLanded(plan.superproject, headBefore: plan.heads["superproject"])
        entries.append(entry(plan.superproject, change: superChange, from: plan.heads["superproject"], nested: false))
        let changed = plan.modules.filter(\.changes)
        if !changed.isEmpty {
            try setModuleURLs(changed, urls: plan.urls)
        }
        for module in plan.modules {
            let path = workspace.path(module.path)
            let checkout = module.movedFrom ?? module.path
            var nestedMoved: [String] = []
            if module.changes, !module.initialises,
                try CheckoutPresence.of(gitRepository(at: workspace.path(checkout))) != .repository
            {
                throw WorkspaceError(
                    "\(checkout) is no longer the repository of module \(module.repository); "
                        + "nothing was run in it (run tenantctl switch again)")
            }
            if module.changes { try start(module.repository) }
            if let from = module.movedFrom {
                console?.progress("\(module.repository): moving its checkout from \(from) to \(module.path)")
                nestedMoved = try ModuleCheckoutMove.move(gitRepository(at: workspace.path(from)), to: path)
                try transaction?.record(
                    repository: module.repository,
                    steps: [.checkoutMove(to: module.path, from: from)],
                    published: nil, landed: true)
            }
            let change = try apply(module, in: path, superproject: false, source: plan.cloneSources[module.path]) {
                try recordLanded(module, headBefore: nil, cloned: true)
            }
            try recordLanded(module, headBefore: plan.heads[module.repository])
            var nested = false
            if recursive {
                nested = try updateNested(
                    at: path, prefix: module.path, name: module.repository, tenant: plan.tenant, add: add)
            }
            var reported = entry(module, change: change, from: plan.heads[module.repository], nested: nested)
            if let kept = plan.leftUnpushed[module.repository] {
                reported.keptBranch = kept.branch
                reported.keptUnpushed = kept.count
                reported.keptCommits = kept.commits
            }
            reported.gitmodulesURL = plan.urlDrift[module.repository]
            reported.movedFrom = module.movedFrom
            reported.nestedMoved = nestedMoved
            entries.append(reported)
        }
        var report = SwitchReport(
            tenant: plan.tenant, branch: plan.superproject.branch, dryRun: false, repositories: entries,
            unpinned: plan.unpinned)
        report.unnamed = try checkOutUnnamed(
            plan.unnamed, sources: plan.cloneSources, tenant: plan.tenant, start: start, add: add)
        return report
    }

    /// Points the modules' URLs (the superproject's `submodule.<name>.url` and each checkout's `origin`) at
    /// `modules.json`'s URLs, whatever the target's `.gitmodules` says; modules `modules.json` gives no URL get
    /// `.gitmodules`' (`git submodule sync`).
    private func setModuleURLs(_ modules: [RepositoryPlan], urls: [String: String]) throws {
        let names = try submoduleNames()
        var synced: [String] = []
        for module in modules {
            guard let url = urls[module.repository], let name = names[module.path] else {
                synced.append(module.path)
                continue
            }
            try workspace.superproject.setConfig(
                "submodule.\(name).url", to: url,
                context: "set the URL of module \(module.repository) from modules.json")
            let path = workspace.path(module.path)
            if !module.initialises, try CheckoutPresence.of(gitRepository(at: path)) == .repository {
                try gitRepository(at: path).setConfig(
                    "remote.\(Workspace.defaultRemoteName).url", to: url,
                    context: "set the origin of module \(module.repository) from modules.json")
            }
        }
        if !synced.isEmpty {
            try workspace.superproject.syncSubmodules(synced)
        }
    }

    /// The submodule names of the working tree's `.gitmodules`, by path.
    func submoduleNames() throws -> [String: String] {
        try workspace.superproject.submoduleNamesByPath()
    }

    private func entry(_ plan: RepositoryPlan, change: String, from: String?, nested: Bool) -> SwitchReport.Entry {
        var left = 0
        var on: String?
        if case .moveBack(_, let leaving, let remote) = plan.action {
            left = leaving
            on = remote
        }
        return SwitchReport.Entry(
            repository: plan.repository, path: plan.path, branch: plan.branch, commit: plan.finalCommit, from: from,
            target: plan.target, change: change, aheadOfTarget: plan.aheadOfTarget, leftCommits: left, leftOn: on,
            nestedUpdated: nested)
    }

    /// The full name of the branch checked out in `path` (empty on a detached HEAD).
    private func currentBranchRef(_ path: String, name: String) throws -> String {
        try gitRepository(at: path).headBranchRef(context: "read the branch of \(name)") ?? ""
    }

    /// Refreshes the index's stat information. `reset --keep`, unlike `switch` and `merge`, does not: an index whose
    /// files were only touched, copied or restored (same content, new stat data) makes it refuse with "Entry '…' not
    /// uptodate. Cannot merge." half-way through a switch. Content changes were refused by the pre-flight; `-q` lets
    /// git report them with exit 1 instead of stopping, and the reset that follows refuses them as before.
    private func refreshIndex(_ path: String, name: String, superproject: Bool) throws {
        try gitRepository(at: path).refreshIndex(
            ignoringSubmodules: superproject, context: "refresh the index of \(name)")
    }

    /// Moves `plan.branch` from `from` to `plan.target` (a fast-forward, or back to the pin) and checks it out.
    /// Checked out already: the working tree is clean (pre-flight), so `reset --keep` moves branch, index and files
    /// together, and, unlike `merge --ff-only`, no merge configuration (`merge.verifySignatures`) can refuse it
    /// half-way through a switch. The target is an object id git printed (`rev-parse …^{commit}`); `reset` rejects
    /// `--end-of-options` before it. Not checked out: the branch moves from `from` to the target (a lease on `from`), then
    /// is checked out.
    private func moveBranch(
        _ plan: RepositoryPlan, from: String, reason: String, context: String, path: String, superproject: Bool
    ) throws {
        let name = plan.repository
        let branchRef = "refs/heads/\(plan.branch)"
        let repository = gitRepository(at: path)
        guard try currentBranchRef(path, name: name) == branchRef else {
            try repository.updateRef(
                branchRef, to: plan.target, from: from, message: "tenantctl switch: \(reason)",
                context: "move \(plan.branch) in \(name) (\(reason))")
            try repository.switchTo(
                plan.branch, recurseSubmodules: false, context: "check out \(plan.branch) in \(name)")
            return
        }
        try refreshIndex(path, name: name, superproject: superproject)
        try repository.resetKeep(to: plan.target, recurseSubmodules: false, context: context)
    }

    /// Carries out one repository's plan; `cloned` runs once a module the switch initialises is cloned (from `source`,
    /// its mirror, where there is one: ``Plan/cloneSources``), before its branch is created. No checkout here moves a submodule (`--no-recurse-submodules`, whatever `submodule.recurse`
    /// says): the superproject's module checkouts move one by one after it, and a module's nested submodules only in
    /// ``updateNested(at:prefix:name:tenant:add:)``, which records each of them in the journal before it moves, so
    /// that a put-back finds every one.
    private func apply(
        _ plan: RepositoryPlan, in path: String, superproject: Bool, source: String? = nil,
        cloned: () throws -> Void = {}
    ) throws -> String {
        let name = plan.repository
        let repository = gitRepository(at: path)
        switch plan.action {
        case .none:
            return "unchanged"
        case .checkout:
            console?.progress("\(name): checking out \(plan.branch)")
            try repository.switchTo(
                plan.branch, recurseSubmodules: false, context: "check out \(plan.branch) in \(name)")
            return "checked out"
        case .fastForward(let from):
            console?.progress("\(name): fast-forwarding \(plan.branch) to \(ObjectID.short(plan.target))")
            try moveBranch(
                plan, from: from, reason: "fast-forward", context: "fast-forward \(plan.branch) in \(name)", path: path,
                superproject: superproject)
            return "fast-forwarded"
        case .moveBack(let from, _, _):
            console?.progress("\(name): moving \(plan.branch) back to \(ObjectID.short(plan.target))")
            try moveBranch(
                plan, from: from, reason: "back to the pin", context: "move \(plan.branch) back to the pin in \(name)",
                path: path, superproject: superproject)
            return "moved back"
        case .create(let upstream):
            console?.progress("\(name): creating \(plan.branch) at \(ObjectID.short(plan.target))")
            // The upstream is configured before the branch exists: a run stopped between the two calls then
            // leaves no branch without its upstream (a re-run only checks the branch out); see docs/GUARANTEES.md.
            if let upstream, let slash = upstream.firstIndex(of: "/") {
                try repository.setConfig(
                    "branch.\(plan.branch).remote", to: String(upstream[..<slash]),
                    context: "set the upstream of \(plan.branch) in \(name)")
                try repository.setConfig(
                    "branch.\(plan.branch).merge", to: "refs/heads/" + upstream[upstream.index(after: slash)...],
                    context: "set the upstream of \(plan.branch) in \(name)")
            }
            try repository.createBranch(
                plan.branch, at: plan.target, recurseSubmodules: false,
                context: "create branch \(plan.branch) in \(name)")
            return "created"
        case .initialise:
            console?.progress("\(name): cloning")
            // `--checkout` overrides `update = none` (and any other update mode) for this explicit set-up.
            // The clone's remote is `origin`, the name every module checkout uses, whatever
            // `clone.defaultRemoteName` says.
            try workspace.superproject.initialiseSubmodule(
                plan.path, remoteName: Workspace.defaultRemoteName, module: name, reference: source)
            guard case .repository = try CheckoutPresence.of(gitRepository(at: path)) else {
                throw WorkspaceError(
                    "module \(name) at \(plan.path) is still not a repository of its own after "
                        + "`git submodule update --init --checkout`; nothing was run in it")
            }
            try cloned()
            // The clone was made by this run: its branches hold no user work, so the branch may be (re)set.
            try repository.createBranch(
                plan.branch, at: plan.target, force: true, recurseSubmodules: false,
                context: "create branch \(plan.branch) in \(name)")
            if try repository.objectID(
                of: "refs/remotes/origin/\(plan.branch)", context: "look for origin/\(plan.branch) in \(name)") != nil
            {
                try repository.setUpstream(
                    of: plan.branch, to: "origin/\(plan.branch)",
                    context: "set the upstream of \(plan.branch) in \(name)")
            }
            return "cloned"
        }
    }
}
