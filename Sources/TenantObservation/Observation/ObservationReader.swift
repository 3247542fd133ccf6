import Foundation

/// Gathers a ``ProjectObservation`` from a ``Snapshot``, once per run: audit, verify and roll read through it.
///
/// git processes: superproject 3 (`cat-file --batch` for the pins and files, `rev-list`, `diff-tree --stdin`), each
/// module 2 (`rev-list`, `diff-tree --stdin`), `jobs` repositories at a time, one `config --blob` per distinct
/// `.gitmodules`, and one `log` for the removed tenants; none per tenant. The modules' graphs include the pins, so
/// the pins are read first; the superproject's graph and diffs are one more job next to the modules'.
public enum ObservationReader {
    /// What to gather.
    public struct Options: Sendable {
        /// Repositories read at the same time.
        public var jobs: Int
        /// List the files each customisation changes (audit shows them; verify and roll do not need them).
        public var changedFiles: Bool
        /// Look for orphan module branches (audit and verify judge them; roll does not).
        public var orphans: Bool
        /// Read each superproject branch's `.gitmodules`: the submodules `modules.json` does not name and what
        /// `gitmodules-drift` is judged from (audit and verify; roll does not).
        public var submodules: Bool
        /// Read each tenant branch's own `modules.json` and its gitlinks at the paths that file gives (roll: a
        /// module the branch has at an older path, a module removed on the general branch).
        public var branchManifests: Bool

        public init(
            jobs: Int = 4, changedFiles: Bool = true, orphans: Bool = true, submodules: Bool = true,
            branchManifests: Bool = false
        ) {
            self.jobs = jobs
            self.changedFiles = changedFiles
            self.orphans = orphans
            self.submodules = submodules
            self.branchManifests = branchManifests
        }

        /// What roll plans from: pins (at the tenant branches' own paths too), graphs, merged-back commits.
        public static func roll(jobs: Int) -> Options {
            Options(jobs: jobs, changedFiles: false, orphans: false, submodules: false, branchManifests: true)
        }
    }

    /// The observation of the general branch and `tenants`' branches. Merged-back commits are looked for on every
    /// tenant's module branch (invalid tenant files included), orphan branches in every module. `batch`: the
    /// superproject's open `cat-file --batch` to read with (one is opened when nil).
    public static func read(
        snapshot: Snapshot, tenants: [Tenant], git: Git, options: Options = Options(), batch: CatFileBatch? = nil
    ) throws -> ProjectObservation {
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
        let orphanBranches = options.orphans ? try OrphanBranches.all(state: snapshot, git: git) : []
        // The pins of the tenants an orphan is named after are read too (its finding says whether the branch is
        // what that tenant pins), in the same batch.
        var pinnedTips = tenantTips
        pinnedTips[general] = generalTip
        for orphan in orphanBranches {
            guard let id = orphan.tenant, let tenant = project.tenant(id: id) else { continue }
            if let tip = snapshot.branches[tenant.branch] { pinnedTips[tenant.branch] = tip }
        }
        let pinned = try readPins(
            snapshot: snapshot, generalTip: generalTip, tips: pinnedTips, tenantTips: tenantTips, options: options,
            batch: batch, git: git)
        let judged = Set(tenantTips.keys).union([general])
        var base = SuperprojectObservation(
            generalBranch: general, generalTip: generalTip, tenantTips: tenantTips,
            pins: pinned.pins.filter { judged.contains($0.key) },
            movedPaths: pinned.moved.filter { judged.contains($0.key) })
        base.unnamed = pinned.unnamed.filter { judged.contains($0.key) }
        base.gitmodules = pinned.gitmodules?.filter { judged.contains($0.key) }
        base.manifests = pinned.manifests
        let (superproject, modules) = try readRepositories(base, snapshot: snapshot, options: options, git: git)
        let orphans = try observe(orphanBranches, pins: pinned.pins, snapshot: snapshot, git: git)
        return ProjectObservation(
            superproject: superproject, modules: modules, unreachable: snapshot.unreachable, orphans: orphans,
            caseCollisions: BranchCaseCollision.all(in: snapshot))
    }

    /// The superproject's graph and every fetched module's facts, `options.jobs` repositories at a time.
    static func readRepositories(
        _ base: SuperprojectObservation, snapshot: Snapshot, options: Options, git: Git
    ) throws -> (SuperprojectObservation, [String: ModuleObservation]) {
        let project = snapshot.project
        let fetched = project.manifest.modules.filter { snapshot.unreachable[$0.name] == nil }
        // Module name → the distinct pins of the branches judged, in one pass over their pins.
        var distinctPins: [String: Set<String>] = [:]
        for (branch, branchPins) in base.pins {
            let manifest = base.manifests[branch]
            for module in fetched {
                if let pin = pin(of: module, in: branchPins, manifest: manifest) {
                    distinctPins[module.name, default: []].insert(pin)
                }
            }
        }
        let pinsByModule = distinctPins
        enum Job: Sendable {
            case superproject
            case module(Module)
        }
        enum Loaded: Sendable {
            case superproject(SuperprojectObservation)
            case module(String, ModuleObservation)
        }
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
                        general: project.generalBranch(of: module), pins: pinsByModule[module.name] ?? [],
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
        return (superproject, modules)
    }

    /// `module`'s pin in one branch's pins: at its path (a module found at another path is listed there), else at
    /// the path the branch's own `modules.json` (`manifest`, when read) gives it.
    public static func pin(of module: Module, in pins: [String: String], manifest: [Module]?) -> String? {
        if let pin = pins[module.path] { return pin }
        guard let old = manifest?.first(where: { $0.name == module.name })?.path, old != module.path else {
            return nil
        }
        return pins[old]
    }

    /// The orphan branches with what their findings need: the pin of the tenant one is named after, else the commits
    /// only it has.
    static func observe(
        _ orphanBranches: [OrphanBranch], pins: [String: [String: String]], snapshot: Snapshot, git: Git
    ) throws -> [ObservedOrphan] {
        let project = snapshot.project
        var orphans: [ObservedOrphan] = []
        for orphan in orphanBranches {
            var observed = ObservedOrphan(branch: orphan)
            if let id = orphan.tenant, let tenant = project.tenant(id: id) {
                let path = project.module(named: orphan.module)?.path ?? ""
                observed.tenantPin = pins[tenant.branch]?[path]
            } else if let mirror = snapshot.existingMirror(of: orphan.module) {
                observed.uniqueCommits = try OrphanBranches.onlyOn(
                    orphan.tip, branchRef: "refs/heads/\(orphan.branch)", glob: "refs/heads/*", repository: mirror)
            }
            orphans.append(observed)
        }
        return orphans
    }

    /// What the superproject's files say, per branch of `tips` (branch → commit).
    struct Pinned {
        /// Branch → module path → pinned commit; a module found at another path (``ModuleLocator``) listed under
        /// its path, and with ``Options/branchManifests`` the gitlinks at the paths the branch's own file gives.
        var pins: [String: [String: String]]
        /// Branch → module name → the other path it has the module at.
        var moved: [String: [String: String]]
        /// Branch → path → pin of the submodules `modules.json` does not name.
        var unnamed: [String: [String: String]]
        /// Branch → its `.gitmodules` (nil: not read).
        var gitmodules: [String: Gitmodules]?
        /// Tenant branch → the modules of its own `modules.json` (read only with ``Options/branchManifests``).
        var manifests: [String: [Module]]
    }

    /// The pins, moved modules, `.gitmodules` files and own `modules.json` files of `tips`, on one
    /// `cat-file --batch` (`given`, else one opened here), with ``ModuleLocator`` for moved modules and one
    /// `config --blob` per distinct `.gitmodules`. A module the branch's own `modules.json` has at another path is
    /// read there, not looked for by its identity.
    static func readPins(
        snapshot: Snapshot, generalTip: String, tips: [String: String], tenantTips: [String: String],
        options: Options, batch given: CatFileBatch?, git: Git
    ) throws -> Pinned {
        let modules = snapshot.project.manifest.modules
        let root = snapshot.workspace.root
        let batch = try given ?? CatFileBatch(git: git, repository: root)
        defer { if given == nil { try? batch.close() } }
        let manifests =
            options.branchManifests
            ? try branchManifests(tenantTips.keys.sorted(), snapshot: snapshot, batch: batch) : [:]
        // Commit → names of the modules its own modules.json has at another path.
        var renamed: [String: Set<String>] = [:]
        for (branch, own) in manifests {
            guard let tip = tips[branch] else { continue }
            for module in own where snapshot.project.module(named: module.name).map({ $0.path != module.path }) == true
            {
                renamed[tip, default: []].insert(module.name)
            }
        }
        let paths = Set(modules.map(\.path)).union(manifests.values.flatMap { $0.map(\.path) })
        let commits = Array(Set(tips.values)).sorted()
        var pinsByCommit = try PinReader.pins(of: commits, paths: paths.sorted(), batch: batch)
        let located = try ModuleLocator.moved(
            modules: modules, pins: pinsByCommit, reference: generalTip, batch: batch, repository: snapshot.superproject
        )
        var movedByCommit: [String: [String: String]] = [:]
        for (commit, locations) in located {
            for module in modules where renamed[commit]?.contains(module.name) != true {
                guard let location = locations[module.name] else { continue }
                pinsByCommit[commit, default: [:]][module.path] = location.pin
                movedByCommit[commit, default: [:]][module.name] = location.path
            }
        }
        var unnamed: [String: [String: String]] = [:]
        var gitmodules: [String: Gitmodules]?
        if options.submodules {
            let files = try snapshot.superproject.gitmodules(at: commits, batch: batch)
            unnamed = try unnamedGitlinks(
                modules: modules, files: Dictionary(zip(commits, files)) { a, _ in a }, moved: movedByCommit,
                batch: batch)
            let byCommit = Dictionary(zip(commits, files)) { a, _ in a }
            gitmodules = tips.compactMapValues { byCommit[$0] ?? nil }
        }
        if given == nil { try batch.close() }
        return Pinned(
            pins: tips.mapValues { pinsByCommit[$0] ?? [:] }, moved: tips.compactMapValues { movedByCommit[$0] },
            unnamed: tips.compactMapValues { unnamed[$0] }, gitmodules: gitmodules, manifests: manifests)
    }

    /// Branch → the modules of that branch's own `modules.json`, validated by the one manifest loader. A branch
    /// whose file does not load gives no modules: roll then cannot see which of its gitlinks belong to modules
    /// removed on the general branch, and leaves them as they are.
    static func branchManifests(_ branches: [String], snapshot: Snapshot, batch: CatFileBatch) throws
        -> [String: [Module]]
    {
        let options = ValidationOptions(allowLocalRemotes: true)
        let files = try batch.objects(branches.map { "\(snapshot.ref($0)):\(ProjectReader.manifestPath)" })
        var modules: [String: [Module]] = [:]
        for (branch, object) in zip(branches, files) {
            modules[branch] = []
            guard let object, object.type == "blob" else { continue }
            let file = SourceFile(path: "\(branch):\(ProjectReader.manifestPath)", data: Data(object.data))
            do {
                modules[branch] = try ProjectLoader.loadManifest(file, options: options).modules
            } catch {
                continue  // documented above: an invalid file gives no modules
            }
        }
        return modules
    }

    /// Commit → path → pin of the submodules a commit's `.gitmodules` (`files`, commit → file) lists at a path no
    /// module of `modules` has there (not today's path, not the path it moved from: `moved`, commit → module name →
    /// path) and the commit pins: repositories renamed or added with plain git. Requests on `batch` (the trees of
    /// those paths).
    static func unnamedGitlinks(
        modules: [Module], files: [String: Gitmodules?], moved: [String: [String: String]], batch: CatFileBatch
    ) throws -> [String: [String: String]] {
        let named = Set(modules.map(\.path))
        var candidates: [String: [String]] = [:]
        for (commit, file) in files {
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
    /// general branch, the files it changes, and its commits the general branch took. Nothing is read when no
    /// tenant branch exists.
    static func readSuperproject(
        _ base: SuperprojectObservation, repository: String, options: Options, git: Git
    ) throws -> SuperprojectObservation {
        var result = base
        guard !base.tenantTips.isEmpty else { return result }
        let generalTip = base.generalTip
        let graph = try CommitGraph.load(
            tips: [generalTip] + base.tenantTips.values.sorted(), repository: repository, git: git,
            what: "the superproject")
        result.graph = graph
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
