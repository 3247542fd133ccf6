import Foundation

/// What `tenantctl switch` did, per repository.
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
        /// The pin (modules) or remote tenant branch tip (superproject) it had to reach.
        public var target: String
        /// `unchanged`, `checked out`, `fast-forwarded`, `created`, `cloned`.
        public var change: String
        /// Commits the local branch has beyond the target (kept, never reset).
        public var aheadOfTarget: Int
    }

    /// The tenant id, or the general branch name for the development view.
    public var tenant: String
    /// The superproject branch.
    public var branch: String
    /// The superproject first, then every module in manifest order.
    public var repositories: [Entry]
    /// Modules with no pin on this branch (left alone).
    public var unpinned: [String]
}

/// `tenantctl switch`: pre-flight (collects every problem, changes nothing on a finding), fetch, plan, execute.
public struct WorkingCopySwitch: Sendable {
    /// The superproject.
    public var workspace: Workspace
    /// The git runner.
    public var git: Git
    /// Whether to fetch the remotes first.
    public var fetch: Bool
    /// Progress output.
    public var console: Console?

    public init(workspace: Workspace, git: Git, fetch: Bool = true, console: Console? = nil) {
        self.workspace = workspace
        self.git = git
        self.fetch = fetch
        self.console = console
    }

    /// A module and where it is.
    struct ModuleContext {
        var module: Module
        var absolutePath: String
        var presence: WorkingCopyGit.Presence
        var state: RepositoryState?
    }

    /// The whole plan of a switch.
    public struct Plan: Sendable, Equatable {
        public var tenant: String
        public var superproject: RepositoryPlan
        public var modules: [RepositoryPlan]
        public var unpinned: [String]
    }

    /// Switches the working copy to `target` (a tenant id or branch, or the general branch).
    public func run(target name: String) throws -> SwitchReport {
        let plan = try makePlan(target: name)
        return try execute(plan)
    }

    /// Inspects everything and returns the plan; throws ``WorkingCopyRefusal`` listing every problem.
    public func makePlan(target name: String) throws -> Plan {
        let project = try ProjectReader.workingTree(
            workspace, options: ValidationOptions(allowLocalRemotes: git.allowLocalRemotes))
        let tenant: Tenant?
        let branch: String
        if name == project.manifest.generalBranch {
            tenant = nil
            branch = project.manifest.generalBranch
        } else if let found = project.tenant(id: name) {
            tenant = found
            branch = found.branch
        } else {
            let known = ([project.manifest.generalBranch] + project.tenants.map(\.id)).joined(separator: ", ")
            throw WorkspaceError("unknown tenant '\(name)'; known: \(known)")
        }
        let action = "switch to \(tenant?.id ?? branch)"

        // 1. Local pre-flight: nothing is fetched or changed when the working copy is not safe.
        var problems: [WorkingCopyProblem] = []
        let superState = try RepositoryState.inspect(path: workspace.root, git: git, superproject: true)
        problems += superState.problems(repository: "superproject", relativePath: "")
        var modules: [ModuleContext] = []
        let superOrigin = try SuperprojectRemote.originURL(workspace, git: git) ?? workspace.root
        for module in project.manifest.modules {
            let path = workspace.path(module.path)
            let presence = try WorkingCopyGit.presence(of: path, git: git)
            var state: RepositoryState?
            switch presence {
            case .repository:
                let inspected = try RepositoryState.inspect(path: path, git: git)
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
            modules.append(ModuleContext(module: module, absolutePath: path, presence: presence, state: state))
        }
        guard problems.isEmpty else { throw WorkingCopyRefusal(action: action, problems: problems) }

        // 2. Fetch the superproject, plan its branch.
        var superproject = superState
        if fetch {
            console?.progress("fetching superproject")
            try SuperprojectRemote.fetch(workspace, git: git)
            superproject = try RepositoryState.inspect(path: workspace.root, git: git, superproject: true)
        }
        // The remote's branches as tenantctl fetched them (every branch, complete history, whatever the clone's
        // refspec and depth), else the clone's own remote-tracking branches.
        let remoteTip =
            try SuperprojectRemote.branches(workspace, git: git)[branch] ?? superproject.remoteBranches[branch]
        let localTip = superproject.branches[branch]
        guard let superTarget = remoteTip ?? localTip else {
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
            branch: branch, target: superTarget)
        var plannedSuper: RepositoryPlan?
        switch superPlan {
        case .success(let value): plannedSuper = value
        case .failure(let problem): problems.append(problem)
        }

        // 3. Pins of the target commit; fetch and plan every module.
        let pins = try PinReader.pins(
            at: plannedSuper?.finalCommit ?? superTarget, paths: project.manifest.modules.map(\.path),
            in: workspace.root,
            git: git)
        var modulePlans: [RepositoryPlan] = []
        var unpinned: [String] = []
        for context in modules {
            let module = context.module
            guard let pin = pins[module.path] else {
                unpinned.append(module.name)
                continue
            }
            let moduleBranch = project.branch(of: module, for: tenant)
            guard var state = context.state else {
                modulePlans.append(
                    SwitchPlanner.planUninitialised(
                        repository: module.name, path: module.path, branch: moduleBranch, pin: pin,
                        remoteBranchExists: nil))
                continue
            }
            if state.currentBranch == moduleBranch && state.head == pin && state.branches[moduleBranch] == pin {
                // Already on its branch at the pin: nothing to fetch, nothing to ask git (switching between tenants
                // that share most pins touches only the modules that differ).
                let unchanged = SwitchPlanner.plan(
                    BranchObservation(
                        repository: module.name, path: module.path, branch: moduleBranch, target: pin,
                        currentBranch: state.currentBranch, head: state.head, branchTip: pin,
                        tipVersusTarget: (0, 0), remoteBranchExists: state.remoteBranches[moduleBranch] != nil,
                        targetAvailable: true))
                switch unchanged {
                case .success(let value): modulePlans.append(value)
                case .failure(let problem): problems.append(problem)
                }
                continue
            }
            if fetch {
                console?.progress("fetching \(module.name)")
                try git.run(
                    ["fetch", "--no-recurse-submodules", "--quiet", "origin"], in: context.absolutePath,
                    context: "fetch module \(module.name)")
                state = try RepositoryState.inspect(path: context.absolutePath, git: git)
            }
            switch try plan(
                state: state, repository: module.name, relativePath: module.path, absolutePath: context.absolutePath,
                branch: moduleBranch, target: pin)
            {
            case .success(let value): modulePlans.append(value)
            case .failure(let problem): problems.append(problem)
            }
        }
        guard problems.isEmpty, let plannedSuper else { throw WorkingCopyRefusal(action: action, problems: problems) }
        return Plan(tenant: tenant?.id ?? branch, superproject: plannedSuper, modules: modulePlans, unpinned: unpinned)
    }

    /// A module checkout whose `origin` is another repository than the one `modules.json` names is refused, not
    /// switched (RELIABILITY 22): its branches would be compared with, and fetched from, the wrong remote.
    /// URLs are compared after resolving relative manifest URLs as git does and dropping a trailing `/` or `.git`.
    private func originMismatch(_ module: Module, at path: String, superOrigin: String) throws
        -> WorkingCopyProblem?
    {
        guard !module.url.isEmpty else { return nil }
        let expected =
            RemoteURL.classify(module.url) == .relative
            ? RemoteURL.resolve(relative: module.url, against: superOrigin) : module.url
        guard let expected else { return nil }
        let output = try git.run(
            ["config", "--get", "remote.origin.url"], in: path, context: "read the origin of \(module.name)",
            accepting: [0, 1])
        let actual = output.status == 0 ? output.text : ""
        guard Self.sameRemote(actual, expected) else {
            return WorkingCopyProblem(
                repository: module.name, path: module.path,
                reason:
                    "its origin is \(actual.isEmpty ? "not set" : RemoteURL.redacted(actual)), but modules.json names "
                    + "\(RemoteURL.redacted(expected)); not touched (if modules.json is right: git submodule sync)")
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
        target: String
    ) throws -> Result<RepositoryPlan, WorkingCopyProblem> {
        let available = try WorkingCopyGit.hasCommit(target, in: absolutePath, git: git)
        let tip = state.branches[branch]
        var counts: (ahead: Int, behind: Int)?
        if available, let tip {
            let value = try WorkingCopyGit.counts(tip, target, in: absolutePath, git: git)
            counts = (value.left, value.right)
        }
        return SwitchPlanner.plan(
            BranchObservation(
                repository: repository, path: relativePath, branch: branch, target: target,
                currentBranch: state.currentBranch, head: state.head, branchTip: tip, tipVersusTarget: counts,
                remoteBranchExists: state.remoteBranches[branch] != nil, targetAvailable: available))
    }

    /// Carries out a plan. Only repositories whose plan changes something are touched.
    public func execute(_ plan: Plan) throws -> SwitchReport {
        var entries: [SwitchReport.Entry] = []
        let superChange = try apply(plan.superproject, in: workspace.root, superproject: true)
        entries.append(entry(plan.superproject, change: superChange))
        let modulePaths = plan.modules.map(\.path)
        if !modulePaths.isEmpty {
            try git.run(
                ["submodule", "--quiet", "sync", "--"] + modulePaths, in: workspace.root,
                context: "sync the module URLs from .gitmodules")
        }
        for module in plan.modules {
            let change = try apply(module, in: workspace.path(module.path), superproject: false)
            entries.append(entry(module, change: change))
        }
        return SwitchReport(
            tenant: plan.tenant, branch: plan.superproject.branch, repositories: entries, unpinned: plan.unpinned)
    }

    private func entry(_ plan: RepositoryPlan, change: String) -> SwitchReport.Entry {
        SwitchReport.Entry(
            repository: plan.repository, path: plan.path, branch: plan.branch, commit: plan.finalCommit,
            target: plan.target, change: change, aheadOfTarget: plan.aheadOfTarget)
    }

    private func switchArguments(_ superproject: Bool) -> [String] {
        superproject ? ["switch", "--quiet", "--no-recurse-submodules"] : ["switch", "--quiet"]
    }

    private func apply(_ plan: RepositoryPlan, in path: String, superproject: Bool) throws -> String {
        let name = plan.repository
        let branchRef = "refs/heads/\(plan.branch)"
        switch plan.action {
        case .none:
            return "unchanged"
        case .checkout:
            console?.progress("\(name): checking out \(plan.branch)")
            try git.run(
                switchArguments(superproject) + ["--end-of-options", plan.branch], in: path,
                context: "check out \(plan.branch) in \(name)")
            return "checked out"
        case .fastForward(let from):
            console?.progress("\(name): fast-forwarding \(plan.branch) to \(plan.target.prefix(12))")
            let current = try git.run(
                ["symbolic-ref", "--quiet", "HEAD"], in: path, context: "read the branch of \(name)",
                accepting: [0, 1]
            ).text
            if current == branchRef {
                try git.run(
                    ["merge", "--ff-only", "--quiet", "--end-of-options", plan.target], in: path,
                    context: "fast-forward \(plan.branch) in \(name)")
            } else {
                try git.run(
                    ["update-ref", "-m", "tenantctl switch: fast-forward", branchRef, plan.target, from], in: path,
                    context: "fast-forward \(plan.branch) in \(name)")
                try git.run(
                    switchArguments(superproject) + ["--end-of-options", plan.branch], in: path,
                    context: "check out \(plan.branch) in \(name)")
            }
            return "fast-forwarded"
        case .create(let upstream):
            console?.progress("\(name): creating \(plan.branch) at \(plan.target.prefix(12))")
            // The upstream is configured before the branch exists: a run stopped between the two calls then
            // leaves no branch without its upstream (a re-run only checks the branch out); see docs/GUARANTEES.md.
            if let upstream, let slash = upstream.firstIndex(of: "/") {
                try git.run(
                    ["config", "branch.\(plan.branch).remote", String(upstream[..<slash])], in: path,
                    context: "set the upstream of \(plan.branch) in \(name)")
                try git.run(
                    [
                        "config", "branch.\(plan.branch).merge",
                        "refs/heads/" + upstream[upstream.index(after: slash)...],
                    ],
                    in: path, context: "set the upstream of \(plan.branch) in \(name)")
            }
            try git.run(
                switchArguments(superproject) + ["--no-track", "-c", plan.branch, plan.target], in: path,
                context: "create branch \(plan.branch) in \(name)")
            return "created"
        case .initialise:
            console?.progress("\(name): cloning")
            try git.run(
                ["submodule", "--quiet", "update", "--init", "--", plan.path], in: workspace.root,
                context: "initialise and clone module \(name)")
            // The clone was made by this run: its branches hold no user work, so the branch may be (re)set.
            try git.run(
                ["switch", "--quiet", "--no-track", "-C", plan.branch, plan.target], in: path,
                context: "create branch \(plan.branch) in \(name)")
            let remote = try git.run(
                ["rev-parse", "--verify", "--quiet", "refs/remotes/origin/\(plan.branch)"], in: path,
                context: "look for origin/\(plan.branch) in \(name)", accepting: [0, 1])
            if remote.status == 0 {
                try git.run(
                    ["branch", "--quiet", "--set-upstream-to=origin/\(plan.branch)", "--", plan.branch], in: path,
                    context: "set the upstream of \(plan.branch) in \(name)")
            }
            return "cloned"
        }
    }
}
