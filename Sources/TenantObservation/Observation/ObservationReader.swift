import Foundation

/// Gathers a ``ProjectObservation`` from a ``Snapshot``, once per run.
///
/// git processes: superproject 3 (`cat-file --batch` for the pins, `rev-list`, `diff-tree --stdin`), each module 2
/// (`rev-list`, `diff-tree --stdin`), `jobs` repositories at a time, and one `log` for the removed tenants; none per
/// tenant. The modules' graphs include the pins, so the pins are read first; the superproject's graph and diffs are
/// one more job next to the modules'.
public enum ObservationReader {
    /// What to gather.
    public struct Options: Sendable {
        /// Repositories read at the same time.
        public var jobs: Int
        /// List the files each customisation changes (audit shows them; verify does not need them).
        public var changedFiles: Bool

        public init(jobs: Int = 4, changedFiles: Bool = true) {
            self.jobs = jobs
            self.changedFiles = changedFiles
        }
    }

    /// The observation of the general branch and `tenants`' branches. Merged-back commits are looked for on every
    /// tenant's module branch (invalid tenant files included), orphan branches in every module.
    public static func read(snapshot: Snapshot, tenants: [Tenant], git: Git, options: Options = Options()) throws
        -> ProjectObservation
    {
        let project = snapshot.project
        let general = project.manifest.generalBranch
        guard let generalTip = snapshot.branches[general] else {
            throw ObservationError(
                "the superproject has no \(snapshot.ref(general)); fetch it (run without --no-fetch) or check the "
                    + "remote")
        }
        var tenantTips: [String: String] = [:]
        for tenant in tenants {
            if let tip = snapshot.branches[tenant.branch] { tenantTips[tenant.branch] = tip }
        }
        let orphanBranches = try OrphanBranches.all(state: snapshot, git: git)
        // The pins of the tenants an orphan is named after are read too (its finding says whether the branch is
        // what that tenant pins), in the same batch.
        var pinnedTips = tenantTips
        pinnedTips[general] = generalTip
        for orphan in orphanBranches {
            guard let id = orphan.tenant, let tenant = project.tenant(id: id) else { continue }
            if let tip = snapshot.branches[tenant.branch] { pinnedTips[tenant.branch] = tip }
        }
        let (allPins, movedPaths, unnamed) = try readPins(
            snapshot: snapshot, generalTip: generalTip, tips: pinnedTips, git: git)
        var pins: [String: [String: String]] = [:]
        for branch in tenantTips.keys + [general] { pins[branch] = allPins[branch] ?? [:] }
        let fetched = project.manifest.modules.filter { snapshot.unreachable[$0.name] == nil }
        // Module path → the distinct pins of the branches judged, in one pass over their pins.
        var distinctPins: [String: Set<String>] = [:]
        for branchPins in pins.values {
            for (path, pin) in branchPins { distinctPins[path, default: []].insert(pin) }
        }
        let pinsByPath = distinctPins
        enum Job: Sendable {
            case superproject
            case module(Module)
        }
        enum Loaded: Sendable {
            case superproject(SuperprojectObservation)
            case module(String, ModuleObservation)
        }
        var observed = SuperprojectObservation(
            generalBranch: general, generalTip: generalTip, tenantTips: tenantTips, pins: pins,
            movedPaths: movedPaths.filter { pins[$0.key] != nil })
        observed.unnamed = unnamed.filter { pins[$0.key] != nil }
        let base = observed
        let results = try Concurrent.map([Job.superproject] + fetched.map(Job.module), jobs: options.jobs) {
            job -> Loaded in
            switch job {
            case .superproject:
                return .superproject(
                    try readSuperproject(base, repository: snapshot.workspace.root, options: options, git: git))
            case .module(let module):
                return .module(
                    module.name,
                    try readModule(
                        module.name, repository: try snapshot.mirror(module.name),
                        branches: snapshot.moduleBranches[module.name] ?? [:],
                        general: project.generalBranch(of: module), pins: pinsByPath[module.path] ?? [],
                        tenantBranches: project.tenantModuleBranches(of: module), options: options, git: git))
            }
        }
        var superproject: SuperprojectObservation?
        var modules: [String: ModuleObservation] = [:]
        for result in results {
            switch result {
            case .superproject(let state): superproject = state
            case .module(let name, let state): modules[name] = state
            }
        }
        guard let superproject else { throw ObservationError("the superproject's state was not read") }
        var orphans: [ObservedOrphan] = []
        for orphan in orphanBranches {
            var observed = ObservedOrphan(branch: orphan)
            if let id = orphan.tenant, let tenant = project.tenant(id: id) {
                let path = project.module(named: orphan.module)?.path ?? ""
                observed.tenantPin = allPins[tenant.branch]?[path]
            } else if let mirror = snapshot.mirrors[orphan.module] {
                observed.uniqueCommits = try OrphanBranches.onlyOn(
                    orphan.tip, branchRef: "refs/heads/\(orphan.branch)", glob: "refs/heads/*", repository: mirror,
                    git: git)
            }
            orphans.append(observed)
        }
        return ProjectObservation(
            superproject: superproject, modules: modules, unreachable: snapshot.unreachable, orphans: orphans,
            caseCollisions: BranchCaseCollision.all(in: snapshot))
    }

    /// Superproject branch → module path → pinned commit, with one `cat-file --batch`; a module a branch has at
    /// another path (found by its identity, ``ModuleLocator``) listed under its path, and branch → module name →
    /// that other path; and branch → path → pin of the submodules `modules.json` does not name
    /// (``unnamedGitlinks(modules:tips:moved:batch:repository:git:)``).
    static func readPins(snapshot: Snapshot, generalTip: String, tips: [String: String], git: Git) throws
        -> (pins: [String: [String: String]], moved: [String: [String: String]], unnamed: [String: [String: String]])
    {
        let modules = snapshot.project.manifest.modules
        let batch = try CatFileBatch(git: git, repository: snapshot.workspace.root)
        defer { try? batch.close() }
        var pinsByCommit = try PinReader.pins(
            of: Array(Set(tips.values)).sorted(), paths: modules.map(\.path), batch: batch)
        let located = try ModuleLocator.moved(
            modules: modules, pins: pinsByCommit, reference: generalTip, batch: batch,
            repository: snapshot.workspace.root, git: git)
        var movedByCommit: [String: [String: String]] = [:]
        for (commit, locations) in located {
            for module in modules {
                guard let location = locations[module.name] else { continue }
                pinsByCommit[commit, default: [:]][module.path] = location.pin
                movedByCommit[commit, default: [:]][module.name] = location.path
            }
        }
        let unnamed = try unnamedGitlinks(
            modules: modules, tips: Array(Set(tips.values)).sorted(), moved: movedByCommit, batch: batch,
            repository: snapshot.workspace.root, git: git)
        try batch.close()
        return (
            tips.mapValues { pinsByCommit[$0] ?? [:] }, tips.compactMapValues { movedByCommit[$0] },
            tips.compactMapValues { unnamed[$0] }
        )
    }

    /// Commit → path → pin of the submodules a commit's `.gitmodules` lists at a path no module of `modules` has
    /// there (not today's path, not the path it moved from: `moved`, commit → module name → path) and the commit
    /// pins: repositories renamed or added with plain git. Requests on `batch` (the `.gitmodules` of the commits, the
    /// trees of those paths) and one `config --blob` per distinct `.gitmodules`, not per commit.
    static func unnamedGitlinks(
        modules: [Module], tips: [String], moved: [String: [String: String]], batch: CatFileBatch,
        repository: String, git: Git
    ) throws -> [String: [String: String]] {
        guard !tips.isEmpty else { return [:] }
        let files = try GitRepository(repository, git: git).gitmodules(at: tips, batch: batch)
        let named = Set(modules.map(\.path))
        var candidates: [String: [String]] = [:]
        for (commit, file) in zip(tips, files) {
            let movedHere = Set((moved[commit] ?? [:]).values)
            let paths = (file?.entries ?? []).compactMap(\.path).filter {
                !named.contains($0) && !movedHere.contains($0)
            }
            if !paths.isEmpty { candidates[commit] = paths }
        }
        guard !candidates.isEmpty else { return [:] }
        let found = try PinReader.pins(
            of: candidates.keys.sorted(), paths: Set(candidates.values.flatMap { $0 }).sorted(), batch: batch)
        var result: [String: [String: String]] = [:]
        for (commit, paths) in candidates {
            for path in paths {
                if let pin = found[commit]?[path] { result[commit, default: [:]][path] = pin }
            }
        }
        return result
    }

    /// The superproject's graph of the general branch and the tenant branches: each tenant branch compared with the
    /// general branch, the files it changes, and its commits the general branch took.
    static func readSuperproject(
        _ base: SuperprojectObservation, repository: String, options: Options, git: Git
    ) throws -> SuperprojectObservation {
        var result = base
        let generalTip = base.generalTip
        let graph = try CommitGraph.load(
            tips: [generalTip] + base.tenantTips.values.sorted(), repository: repository, git: git,
            what: "the superproject")
        for (branch, tip) in base.tenantTips {
            guard let comparison = graph.compare(tip, with: generalTip) else {
                throw ObservationError("the superproject's commit graph lacks \(tip) (branch \(branch))")
            }
            result.comparisons[branch] = comparison
        }
        if options.changedFiles {
            var pairs: [(commit: String, base: String)] = []
            for (branch, tip) in base.tenantTips.sorted(by: { $0.key < $1.key }) {
                if let mergeBase = result.comparisons[branch]?.mergeBase, mergeBase != tip {
                    pairs.append((tip, mergeBase))
                }
            }
            let changed = try ChangedPaths.between(
                pairs, repository: repository, what: "the superproject", gitlinks: false, git: git)
            for (branch, tip) in base.tenantTips { result.changedFiles[branch] = changed[tip] ?? [] }
        }
        let generalHistory = graph.history(of: generalTip)
        for (branch, tip) in base.tenantTips {
            let taken = generalHistory.map { graph.tenantOnlyCommits(of: tip, in: $0) } ?? []
            if !taken.isEmpty { result.mergedBack[branch] = taken }
        }
        return result
    }

    /// One module: the graph of its branches and `pins`, where each pin is (on the remote, compared with the
    /// general branch, the files it changes) and which tenant commits the general branch took.
    package static func readModule(
        _ name: String, repository: String, branches: [String: String], general: String, pins: Set<String>,
        tenantBranches: [String], options: Options, git: Git
    ) throws -> ModuleObservation {
        let what = "module \(name)"
        let tips = Set(branches.values)
        let graph = try CommitGraph.load(
            tips: tips.sorted() + pins.subtracting(tips).sorted(), repository: repository, git: git, what: what)
        let resolved = try ModulePins.resolve(
            pins, graph: graph, branchTips: tips, repository: repository, git: git, what: what)
        var result = ModuleObservation(
            generalBranch: general, branches: branches, graph: graph, pinCommits: resolved.commits,
            pinsOnRemote: resolved.onRemote)
        guard let generalTip = branches[general] else { return result }
        var pairs: [(commit: String, base: String)] = []
        for pin in pins.sorted() {
            let commit = resolved.commit(pin)
            guard let comparison = graph.compare(commit, with: generalTip) else { continue }
            result.comparisons[pin] = comparison
            if let base = comparison.mergeBase, base != commit { pairs.append((commit, base)) }
        }
        if let generalHistory = graph.history(of: generalTip) {
            for branch in tenantBranches {
                guard let tip = branches[branch] else { continue }
                let taken = graph.tenantOnlyCommits(of: tip, in: generalHistory)
                if !taken.isEmpty { result.mergedBack[branch] = taken }
            }
        }
        guard options.changedFiles else { return result }
        // A module's own submodules (nested gitlinks) are part of what a customisation changes.
        let changed = try ChangedPaths.between(pairs, repository: repository, what: what, gitlinks: true, git: git)
        let diffed = Set(pairs.map(\.commit))  // a set: one lookup per pin, not a scan of the pairs
        for pin in pins where result.comparisons[pin] != nil {
            let commit = resolved.commit(pin)
            if diffed.contains(commit) { result.changedFiles[pin] = changed[commit] ?? [] }
        }
        return result
    }
}
