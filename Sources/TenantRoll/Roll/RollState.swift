import Foundation

/// Something in the observed state that makes roll impossible.
public struct RollError: Error, Sendable, Equatable, CustomStringConvertible {
    public var description: String

    public init(_ description: String) { self.description = description }
}

/// The observed state of one module repository (its mirror).
public struct ModuleRepositoryState: Sendable {
    /// The module's facts (its branches, its commit graph and what it says about the pins), as audit and verify read
    /// them: what blocks a tenant is the ``FindingJudge``'s
    /// (``FindingJudge/rollBlocks(_:tenant:project:pin:facts:acceptMergedBack:)``).
    public var facts: ModuleObservation
    /// Branches that already contain the module's general branch tip.
    public var containGeneral: Set<String>
    /// Superproject branch → tenant branch of this module → that tenant's commits (merged back into the general
    /// branch) which the general branch would bring to the superproject branch: not yet in its pin.
    public var mergedBack: [String: [String: [String]]]

    public init(facts: ModuleObservation, containGeneral: Set<String>, mergedBack: [String: [String: [String]]] = [:]) {
        self.facts = facts
        self.containGeneral = containGeneral
        self.mergedBack = mergedBack
    }

    /// Branch name → commit, as on the remote after the fetch.
    public var branches: [String: String] { facts.branches }
}

/// The observed state of the superproject's remote branches.
public struct SuperprojectState: Sendable, Equatable {
    /// Branch name → commit on the remote.
    public var branches: [String: String]
    /// Branches that already contain the general branch tip.
    public var containGeneral: Set<String>
    /// Branch → module path → pinned commit (gitlinks only).
    public var pins: [String: [String: String]]
    /// Branch → module paths declared in that branch's own `modules.json` (to find removed modules).
    public var modulePaths: [String: [String]]
    /// Branch → old path → module name, for modules of the general manifest that the branch's own `modules.json`
    /// has at another path, or (without such a file) its `.gitmodules` (``ModuleLocator``): a module moved on the
    /// general branch, not a removed module.
    public var renamedPaths: [String: [String: String]]
    /// Tenant branch → its commits that the general branch took (merged back), as audit and verify read them
    /// (``SuperprojectObservation/mergedBack``).
    public var mergedBack: [String: [String]]
    /// Tenant branch → the commits of ``mergedBack`` (of any tenant) that its head already contains: what the
    /// general branch would not bring it.
    public var containsMergedBack: [String: Set<String>]

    public init(
        branches: [String: String], containGeneral: Set<String>, pins: [String: [String: String]],
        modulePaths: [String: [String]], renamedPaths: [String: [String: String]] = [:],
        mergedBack: [String: [String]] = [:], containsMergedBack: [String: Set<String>] = [:]
    ) {
        self.branches = branches
        self.containGeneral = containGeneral
        self.pins = pins
        self.modulePaths = modulePaths
        self.renamedPaths = renamedPaths
        self.mergedBack = mergedBack
        self.containsMergedBack = containsMergedBack
    }
}

/// Everything roll plans from: the project read at the general branch and the refs and pins of every repository.
public struct RollState: Sendable {
    /// The project (modules, tenants, the branch rule) as committed on the general branch.
    public var project: Project
    /// The superproject.
    public var superproject: SuperprojectState
    /// Module name → its repository state (modules that could not be fetched have none).
    public var repositories: [String: ModuleRepositoryState]
    /// Module name → why it could not be fetched.
    public var unreachable: [String: String]

    public init(
        project: Project, superproject: SuperprojectState, repositories: [String: ModuleRepositoryState],
        unreachable: [String: String] = [:]
    ) {
        self.project = project
        self.superproject = superproject
        self.repositories = repositories
        self.unreachable = unreachable
    }

    /// The superproject's general branch.
    public var generalBranch: String { project.manifest.generalBranch }
}

/// Loads a ``RollState`` from a ``Snapshot`` with batch reads: one `for-each-ref --contains` for the superproject,
/// one `rev-list` (``CommitGraph``) per module repository, gathered as audit and verify gather it
/// (``ObservationReader``), and one `cat-file --batch` for every superproject file and tree.
public enum RollStateLoader {
    /// Loads the state of every repository in the snapshot.
    public static func load(snapshot: Snapshot, batch: CatFileBatch, git: Git, jobs: Int) throws -> RollState {
        let project = snapshot.project
        let general = project.manifest.generalBranch
        let root = snapshot.workspace.root
        let generalTip = try snapshot.branch(general)
        let contain = try GitRefs.containing(
            generalTip, under: snapshot.refPrefix, in: root, git: git, what: "the superproject")
        let branchesToRead = [general] + project.tenants.map(\.branch).filter { snapshot.branches[$0] != nil }
        // The general branch's modules.json is the project's, read by the snapshot; the tenant branches' own files
        // are read here.
        var manifests = try tenantManifests(
            Array(branchesToRead.dropFirst()), snapshot: snapshot, batch: batch,
            options: ValidationOptions(allowLocalRemotes: true))
        manifests[general] = project.manifest.modules
        let modulePaths = manifests.mapValues { $0.map(\.path) }
        var renamed: [String: [String: String]] = [:]
        for (branch, modules) in manifests {
            for module in modules {
                if let current = project.module(named: module.name), current.path != module.path {
                    renamed[branch, default: [:]][module.path] = module.name
                }
            }
        }
        let allPaths = Set(project.manifest.modules.map(\.path)).union(modulePaths.values.flatMap { $0 })
        let tips = branchesToRead.compactMap { snapshot.branches[$0] }
        var pinsByCommit = try PinReader.pins(of: tips, paths: allPaths.sorted(), batch: batch)
        // A branch without a module's gitlink at its path may have the module where the branch's `.gitmodules`
        // puts it (moved since, on a branch without modules.json: an adopted release line).
        let located = try ModuleLocator.moved(
            modules: project.manifest.modules, pins: pinsByCommit, reference: generalTip, batch: batch,
            repository: root, git: git)
        var pins: [String: [String: String]] = [:]
        for branch in branchesToRead {
            guard let tip = snapshot.branches[branch] else { continue }
            for (name, location) in located[tip] ?? [:] where !(renamed[branch]?.values.contains(name) ?? false) {
                renamed[branch, default: [:]][location.path] = name
                pinsByCommit[tip, default: [:]][location.path] = location.pin
            }
            pins[branch] = pinsByCommit[tip] ?? [:]
        }
        let (mergedBack, containsMergedBack) = try superprojectMergedBack(
            project: project, snapshot: snapshot, generalTip: generalTip, git: git)
        let modules = project.manifest.modules.filter { snapshot.unreachable[$0.name] == nil }
        let (renamedPaths, branchPins) = (renamed, pins)
        let repositories = try Concurrent.map(modules, jobs: jobs) { module -> ModuleRepositoryState in
            // The module's pins on every branch read, at its path or at the path the branch's own file gives it.
            var pinned: [String: String] = [:]
            for branch in branchesToRead {
                let oldPath = renamedPaths[branch]?.first { $0.value == module.name }?.key
                if let pin = branchPins[branch]?[module.path] ?? oldPath.flatMap({ branchPins[branch]?[$0] }) {
                    pinned[branch] = pin
                }
            }
            return try loadModule(
                module, project: project, snapshot: snapshot, pins: pinned,
                tenantBranches: project.tenantModuleBranches(of: module), git: git)
        }
        return RollState(
            project: project,
            superproject: SuperprojectState(
                branches: snapshot.branches, containGeneral: contain, pins: pins, modulePaths: modulePaths,
                renamedPaths: renamed, mergedBack: mergedBack, containsMergedBack: containsMergedBack),
            repositories: Dictionary(uniqueKeysWithValues: zip(modules.map(\.name), repositories)),
            unreachable: snapshot.unreachable)
    }

    /// The superproject's tenant branches merged back into its general branch (one commit graph of the general
    /// branch and the tenant branches, read as audit and verify read it), and which of those commits each tenant
    /// branch already contains. Nothing is read when no tenant branch exists.
    static func superprojectMergedBack(
        project: Project, snapshot: Snapshot, generalTip: String, git: Git
    ) throws -> (mergedBack: [String: [String]], contains: [String: Set<String>]) {
        var tips: [String: String] = [:]
        for tenant in project.tenants { tips[tenant.branch] = snapshot.branches[tenant.branch] }
        guard !tips.isEmpty else { return ([:], [:]) }
        let graph = try CommitGraph.load(
            tips: [generalTip] + Set(tips.values).sorted(), repository: snapshot.workspace.root, git: git,
            what: "the superproject")
        guard let history = graph.history(of: generalTip) else { return ([:], [:]) }
        var mergedBack: [String: [String]] = [:]
        for (branch, tip) in tips {
            let taken = graph.tenantOnlyCommits(of: tip, in: history)
            if !taken.isEmpty { mergedBack[branch] = taken }
        }
        let taken = Set(mergedBack.values.flatMap { $0 })
        var contains: [String: Set<String>] = [:]
        for (branch, tip) in tips where !taken.isEmpty {
            contains[branch] = taken.filter { graph.isAncestor($0, of: tip) }
        }
        return (mergedBack, contains)
    }

    /// One module: its ``ModuleObservation`` (one commit graph), which branches contain its general tip, and, per
    /// superproject branch, the tenant commits the general branch took that its pin lacks
    /// (``FindingJudge/mergedBackReaching(_:from:facts:)``).
    static func loadModule(
        _ module: Module, project: Project, snapshot: Snapshot, pins: [String: String], tenantBranches: [String],
        git: Git
    ) throws -> ModuleRepositoryState {
        let branches = snapshot.moduleBranches[module.name] ?? [:]
        let facts = try ObservationReader.readModule(
            module.name, repository: try snapshot.mirror(module.name), branches: branches,
            general: project.generalBranch(of: module), pins: Set(pins.values), tenantBranches: tenantBranches,
            options: ObservationReader.Options(changedFiles: false), git: git)
        guard let generalTip = facts.generalTip else {
            return ModuleRepositoryState(facts: facts, containGeneral: [])
        }
        let containing = Set(branches.filter { facts.graph.isAncestor(generalTip, of: $0.value) }.keys)
        var mergedBack: [String: [String: [String]]] = [:]
        for (superBranch, pin) in pins {
            for tenantBranch in facts.mergedBack.keys where tenantBranch != superBranch {
                let new = FindingJudge.mergedBackReaching(pin, from: tenantBranch, facts: facts)
                if !new.isEmpty { mergedBack[superBranch, default: [:]][tenantBranch] = new }
            }
        }
        return ModuleRepositoryState(facts: facts, containGeneral: containing, mergedBack: mergedBack)
    }

    /// Branch → the modules of that branch's own `modules.json`, validated by the one manifest loader. A branch
    /// whose file does not load gives no modules: roll then cannot see which of its gitlinks belong to modules
    /// removed on the general branch, and leaves them as they are.
    static func tenantManifests(
        _ branches: [String], snapshot: Snapshot, batch: CatFileBatch, options: ValidationOptions
    ) throws -> [String: [Module]] {
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
}
