import Foundation

/// Gathers a ``ProjectObservation`` from a ``Snapshot``, once per run: audit, verify and roll read through it.
///
/// git processes: superproject 3 (`cat-file --batch` for the pins and files, `rev-list`, `diff-tree --stdin`), each
/// module 2 (its graph, `diff-tree --stdin`), `jobs` repositories at a time, one `config --blob` per distinct
/// `.gitmodules`, and one `log` for the removed tenants; none per tenant. A module's graph is one `rev-list` of the
/// branches the snapshot listed, or, when the snapshot did not list them (audit), one `log --branches` that reads
/// the branch names with the graph: each repository's history is listed once either way. The modules' graphs
/// include the pins, so the pins are read first; the superproject's graph and diffs and the removed tenants' `log`
/// are more jobs next to the modules'; orphan branches are looked for in the branches the listings found.
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
    /// superproject's open `cat-file --batch` to read with (one is opened when nil). Every repository is the
    /// snapshot's: its superproject and its modules' mirrors.
    public static func read(
        snapshot: Snapshot, tenants: [Tenant], options: Options = Options(), batch: CatFileBatch? = nil
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
        var pinnedTips = tenantTips
        pinnedTips[general] = generalTip
        var pinned = try readPins(
            snapshot: snapshot, generalTip: generalTip, tips: pinnedTips, tenantTips: tenantTips, options: options,
            batch: batch)
        var base = SuperprojectObservation(
            generalBranch: general, generalTip: generalTip, tenantTips: tenantTips, pins: pinned.pins,
            movedPaths: pinned.moved)
        base.unnamed = pinned.unnamed
        base.gitmodules = pinned.gitmodules
        base.manifests = pinned.manifests
        let read = try readRepositories(base, snapshot: snapshot, options: options)
        // The module branches as the listings read them, when the snapshot did not list them (audit).
        var complete = snapshot
        if !snapshot.moduleBranchesListed {
            complete.moduleBranches = read.modules.mapValues(\.branches)
            complete.moduleBranchesListed = true
        }
        let orphanBranches = read.removedTenants.map { OrphanBranches.all(state: complete, removed: $0) } ?? []
        // The finding of an orphan named after a tenant says whether the branch is what that tenant pins: the pins of
        // such a tenant not judged in this run are read too.
        var orphanTips: [String: String] = [:]
        for orphan in orphanBranches {
            guard let id = orphan.tenant, let tenant = project.tenant(id: id), pinned.pins[tenant.branch] == nil,
                let tip = snapshot.branches[tenant.branch]
            else { continue }
            orphanTips[tenant.branch] = tip
        }
        if !orphanTips.isEmpty {
            var pinsOnly = options
            pinsOnly.submodules = false
            pinsOnly.branchManifests = false
            let more = try readPins(
                snapshot: snapshot, generalTip: generalTip, tips: orphanTips, tenantTips: [:], options: pinsOnly,
                batch: batch)
            pinned.pins.merge(more.pins) { judged, _ in judged }
        }
        let orphans = try observe(orphanBranches, pins: pinned.pins, snapshot: complete)
        return ProjectObservation(
            superproject: read.superproject, modules: read.modules, unreachable: snapshot.unreachable,
            orphans: orphans, caseCollisions: BranchCaseCollision.all(in: complete))
    }

    /// What ``readRepositories(_:snapshot:options:)`` read.
    struct Repositories {
        var superproject: SuperprojectObservation
        var modules: [String: ModuleObservation]
        /// The ids of removed tenants (``OrphanBranches/removedTenantIDs(state:)``); nil without
        /// ``Options/orphans``.
        var removedTenants: Set<String>?
    }

    /// The superproject's graph and every fetched module's facts (with their branches when the snapshot did not
    /// list them), and with ``Options/orphans`` the removed tenants, `options.jobs` repositories at a time.
    static func readRepositories(
        _ base: SuperprojectObservation, snapshot: Snapshot, options: Options
    ) throws -> Repositories {
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
            case removedTenants
        }
        enum Loaded: Sendable {
            case superproject(SuperprojectObservation)
            case module(String, ModuleObservation)
            case removedTenants(Set<String>)
        }
        // The superproject first (the largest), then the removed tenants' `git log` (short, in the superproject):
        // none of them waits for another.
        let jobs = [Job.superproject] + (options.orphans ? [Job.removedTenants] : []) + fetched.map(Job.module)
        let results = try Concurrent.map(jobs, jobs: options.jobs) { job -> Loaded in
            switch job {
            case .superproject:
                return .superproject(
                    try readSuperproject(base, repository: snapshot.superproject, options: options))
            case .module(let module):
                return .module(
                    module.name,
                    try readModule(
                        module.name, repository: try snapshot.mirrorRepository(of: module.name),
                        branches: snapshot.moduleBranchesListed ? snapshot.moduleBranches[module.name] ?? [:] : nil,
                        general: project.generalBranch(of: module), pins: pinsByModule[module.name] ?? [],
                        tenantBranches: project.tenantModuleBranches(of: module), options: options))
            case .removedTenants:
                return .removedTenants(try OrphanBranches.removedTenantIDs(state: snapshot))
            }
        }
        var superproject: SuperprojectObservation?
        var modules: [String: ModuleObservation] = [:]
        var removed: Set<String>?
        for result in results {
            switch result {
            case .superproject(let state): superproject = state
            case .module(let name, let state): modules[name] = state
            case .removedTenants(let ids): removed = ids
            }
        }
        guard let superproject else { throw ObservationError("the superproject's state was not read") }
        return Repositories(superproject: superproject, modules: modules, removedTenants: removed)
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
        _ orphanBranches: [OrphanBranch], pins: [String: [String: String]], snapshot: Snapshot
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
        options: Options, batch given: CatFileBatch?
    ) throws -> Pinned {
        let modules = snapshot.project.manifest.modules
        let batch = try given ?? snapshot.superproject.openBatch()
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
        _ base: SuperprojectObservation, repository: GitRepository, options: Options
    ) throws -> SuperprojectObservation {
        var result = base
        guard !base.tenantTips.isEmpty else { return result }
        let generalTip = base.generalTip
        let graph = try repository.commitGraph(
            tips: [generalTip] + base.tenantTips.values.sorted(), what: "the superproject")
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
            let changed = try repository.changedPaths(between: pairs, what: "the superproject", gitlinks: false)
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
    /// general branch, the files it changes) and which tenant commits the general branch took. `listed`: the
    /// branches as the snapshot listed them; nil: read with the graph, in the same listing
    /// (``CommitGraph/loadBranches(more:repository:git:what:)``). `repository`: the module's mirror.
    package static func readModule(
        _ name: String, repository: GitRepository, branches listed: [String: String]?, general: String,
        pins: Set<String>, tenantBranches: [String], options: Options
    ) throws -> ModuleObservation {
        let what = "module \(name)"
        let branches: [String: String]
        let graph: CommitGraph
        if let listed {
            let tips = Set(listed.values)
            branches = listed
            graph = try repository.commitGraph(tips: tips.sorted() + pins.subtracting(tips).sorted(), what: what)
        } else {
            let read = try repository.branchesAndGraph(more: pins.sorted(), what: what)
            branches = read.branches
            graph = read.graph
        }
        let tips = Set(branches.values)
        let resolved = try ModulePins.resolve(
            pins, graph: graph, branchTips: tips, repository: repository, what: what)
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
        let changed = try repository.changedPaths(between: pairs, what: what, gitlinks: true)
        let diffed = Set(pairs.map(\.commit))  // a set: one lookup per pin, not a scan of the pairs
        for pin in pins where result.comparisons[pin] != nil {
            let commit = resolved.commit(pin)
            if diffed.contains(commit) { result.changedFiles[pin] = changed[commit] ?? [] }
        }
        return result
    }
}
