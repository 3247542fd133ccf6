import Foundation

/// `tenantctl init`, from the workspace to the files written: the modules from `.gitmodules` (a name clash refused
/// before anything changes), the superproject and module fetches, the general branch, the tenants, the files. The
/// command parses its options and renders the ``Result``.
///
/// The run is journalled (``Transaction``) from before its first change, the fetches included: the journal records
/// each repository's branch and HEAD as found (``RunJournal/Before``). A killed init stays unfinished; its re-run
/// removes the mirror directories the stopped run was still cloning (`<Module>.git.partial-<id>`) and finishes it.
public enum InitRun {
    /// What init is asked.
    public struct Options: Sendable {
        /// `--general-branch`; nil: general_dev where it exists, else the remote's default branch.
        public var generalBranch: String?
        /// `--tenants`: the branches that are tenants (a shell glob).
        public var tenants: String
        /// `--module-name`s: submodule path → module name.
        public var moduleNames: [String: String]
        /// The words that re-run the command (the journal's arguments).
        public var arguments: [String]
        /// `--wait`: wait for the workspace lock instead of failing.
        public var wait: Bool

        public init(
            generalBranch: String?, tenants: String, moduleNames: [String: String], arguments: [String],
            wait: Bool = false
        ) {
            self.generalBranch = generalBranch
            self.tenants = tenants
            self.moduleNames = moduleNames
            self.arguments = arguments
            self.wait = wait
        }
    }

    /// What init did.
    public struct Result: Sendable {
        /// The general branch.
        public var generalBranch: String
        /// How it was found when not given (`general_dev exists`, …); nil when given.
        public var generalBranchSource: String?
        /// The files init writes or keeps, and the skipped branches.
        public var plan: Adoption.Plan
        /// The paths written (the others existed and were kept).
        public var written: [String]
        /// The files git's ignore rules exclude.
        public var ignored: [IgnoreRules.Match]
    }

    /// Runs init in `workspace` under its lock (waiting for it with ``Options/wait``). `clash` words the refusal of two
    /// submodules with the same name (with the command that names them apart).
    public static func run(
        _ workspace: Workspace, options: Options, console: Console,
        clash: (Adoption.ModuleNameClash) -> any Error
    ) throws -> Result {
        let lock = try WorkspaceLock(gitDirectory: workspace.commonDirectory, wait: options.wait)
        defer { lock.release() }
        let stopped = try Transaction.unfinishedRuns(workspace, allowing: "init", arguments: options.arguments)
        // The modules first, from .gitmodules alone: a name clash is refused before anything is fetched.
        guard let gitmodules = try workspace.superproject.gitmodules(file: ".gitmodules")?.entries
        else { throw Adoption.noGitmodules(workspace.root) }
        let modules: [Module]
        do {
            modules = try Adoption.modules(from: gitmodules, names: options.moduleNames)
        } catch let error as Adoption.ModuleNameClash {
            throw clash(error)
        }
        let before = try repositoriesBefore(workspace, modules: modules)
        let transaction = try Transaction.begin(
            workspace, command: "init", arguments: options.arguments, before: before)
        do {
            let mirrors = ModuleMirrors(workspace: workspace)
            if !stopped.isEmpty { try mirrors.removePartialClones() }
            let result = try adopt(
                workspace, modules: modules, gitmodules: gitmodules, mirrors: mirrors,
                options: options, console: console)
            try transaction.finish()
            return result
        } catch {
            if !Cancellator.shared.isCancelled { throw transaction.fail(error) }
            throw error
        }
    }

    /// The superproject's and each module checkout's branch and HEAD before init changes anything; a module not
    /// checked out (no `.git` in its directory) and an unborn HEAD give nil fields.
    static func repositoriesBefore(_ workspace: Workspace, modules: [Module]) throws -> [RunJournal.Before] {
        func state(_ name: String, of repository: GitRepository) throws -> RunJournal.Before {
            let context = "read the branch and HEAD of \(name) (\(repository.path))"
            return RunJournal.Before(
                repository: name, branch: try repository.headBranch(context: context),
                head: try repository.objectID(of: "HEAD", context: context)?.hex)
        }
        var result = [try state(Finding.superproject, of: workspace.superproject)]
        for module in modules {
            let path = workspace.path(module.path)
            guard FileManager.default.fileExists(atPath: (path as NSString).appendingPathComponent(".git")) else {
                result.append(RunJournal.Before(repository: module.name, branch: nil, head: nil))
                continue
            }
            result.append(try state(module.name, of: workspace.checkout(at: module.path)))
        }
        return result
    }

    static func adopt(
        _ workspace: Workspace, modules: [Module], gitmodules: [GitmodulesEntry], mirrors: ModuleMirrors,
        options: Options, console: Console
    ) throws -> Result {
        let hasRemote = try SuperprojectRemote.originURL(workspace) != nil
        if hasRemote {
            console.progress("fetching the superproject…")
            try SuperprojectRemote.fetch(workspace, remoteChecked: true)
        }
        let branchTips = try Adoption.branchTips(workspace)
        let branches = Array(branchTips.keys)
        let general: String
        var source: String?
        if let generalBranch = options.generalBranch {
            guard branches.contains(generalBranch) else {
                throw LifecycleError(
                    "the superproject has no branch \(generalBranch), locally or on \(workspace.remoteName) "
                        + "(branches: \(branches.sorted().joined(separator: ", "))); create and push it first, or "
                        + "pass the branch your general development happens on")
            }
            general = generalBranch
        } else {
            let detected = try Adoption.detectGeneralBranch(
                workspace, branches: branches, hasRemote: hasRemote)
            general = detected.branch
            source = detected.source
            console.progress("general branch: \(general) (\(detected.source); --general-branch to choose)")
        }
        // Module branches, to detect customisations: read through the mirrors (local remotes need permission).
        let specs = try ModuleRemotes.specs(for: modules, workspace: workspace)
        console.progress("fetching \(English.count(specs.count, "module repository", "module repositories"))…")
        let synced = try mirrors.sync(specs, console: console)
        var moduleBranchTips: [String: [String: String]] = [:]
        for (name, mirror) in synced {
            moduleBranchTips[name] = try workspace.superproject.repository(at: mirror).branches(
                under: "refs/heads/", what: name)
        }
        let moduleBranches = moduleBranchTips.mapValues { Set($0.keys) }
        // A module without the general branch follows its own default branch (its remote's HEAD).
        var moduleDefaults: [String: String] = [:]
        for spec in specs where moduleBranches[spec.name]?.contains(general) == false {
            moduleDefaults[spec.name] = try Adoption.defaultBranch(ofRemote: spec.url, in: workspace.superproject)
        }
        let tenantTips = Adoption.candidateBranches(branches, generalBranch: general, glob: options.tenants)
            .reduce(into: [String: String]()) { $0[$1] = branchTips[$1] }
        let proposals = try moduleBranchProposals(
            workspace, modules: modules, general: general, moduleDefaults: moduleDefaults, tenantTips: tenantTips,
            mirrors: synced, moduleBranchTips: moduleBranchTips)
        let plan = try Adoption.plan(
            workspace: workspace, generalBranch: general, glob: options.tenants, gitmodules: gitmodules,
            moduleNames: options.moduleNames, branches: branches, moduleBranches: moduleBranches,
            moduleDefaults: moduleDefaults, proposals: proposals)
        let written = try Adoption.write(plan)
        let ignored = try workspace.superproject.ignored(plan.files.map(\.path))
        return Result(
            generalBranch: general, generalBranchSource: source, plan: plan, written: written, ignored: ignored)
    }

    /// The `branches` init proposes (``ModuleBranchProposal``) for the tenant branches (`tenantTips`: branch → tip):
    /// their pins read with one `cat-file --batch`, and one commit graph per module some tenant pins off the
    /// module's general head (none per tenant).
    static func moduleBranchProposals(
        _ workspace: Workspace, modules: [Module], general: String, moduleDefaults: [String: String],
        tenantTips: [String: String], mirrors: [String: String], moduleBranchTips: [String: [String: String]]
    ) throws -> ModuleBranchProposal.Found {
        guard !tenantTips.isEmpty else { return .init() }
        let batch = try workspace.superproject.openBatch()
        defer { try? batch.close() }
        let pinsByCommit = try PinReader.pins(
            of: Array(Set(tenantTips.values)).sorted(), paths: modules.map(\.path), batch: batch)
        try batch.close()
        var found = ModuleBranchProposal.Found()
        for module in modules {
            guard let mirror = mirrors[module.name], let branches = moduleBranchTips[module.name] else { continue }
            let moduleGeneral = branches[general] != nil ? general : (moduleDefaults[module.name] ?? general)
            guard let generalTip = branches[moduleGeneral] else { continue }
            var pins: [String: String] = [:]
            for (branch, tip) in tenantTips {
                // A tenant with a branch of its own name in the module is customised there.
                guard branches[branch] == nil, let pin = pinsByCommit[tip]?[module.path], pin != generalTip else {
                    continue
                }
                pins[branch] = pin
            }
            guard !pins.isEmpty else { continue }
            let graph = try workspace.superproject.repository(at: mirror).commitGraph(
                tips: Set(branches.values).sorted() + Set(pins.values).sorted(), what: "module \(module.name)")
            let result = ModuleBranchProposal.propose(
                module: module.name, pins: pins, branches: branches, graph: graph, general: moduleGeneral,
                tenantBranches: Set(tenantTips.keys))
            found.proposals += result.proposals
            found.unmapped += result.unmapped
        }
        return found
    }
}
