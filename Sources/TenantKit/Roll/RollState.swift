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

/// Loads a ``RollState`` from a ``Snapshot`` through the ``ObservationReader`` (what audit and verify read, with
/// each tenant branch's own `modules.json` and without the changed files, orphan branches and `.gitmodules`), on
/// the snapshot's `cat-file --batch`; the state is then built from the observation without git.
public enum RollStateLoader {
    /// Loads the state of every repository in the snapshot.
    public static func load(snapshot: Snapshot, batch: CatFileBatch, git: Git, jobs: Int) throws -> RollState {
        let project = snapshot.project
        _ = try snapshot.branch(project.manifest.generalBranch)
        let observation = try ObservationReader.read(
            snapshot: snapshot, tenants: project.tenants, git: git, options: .roll(jobs: jobs), batch: batch)
        return state(project: project, observation: observation, branches: snapshot.branches)
    }

    /// The state roll plans from, made of `observation` (read with ``ObservationReader/Options/roll(jobs:)``) and
    /// the superproject's remote `branches`. No git.
    public static func state(project: Project, observation: ProjectObservation, branches: [String: String])
        -> RollState
    {
        let observed = observation.superproject
        let general = observed.generalBranch
        var modulePaths: [String: [String]] = [general: project.manifest.modules.map(\.path)]
        var renamed: [String: [String: String]] = [:]
        for (branch, modules) in observed.manifests {
            modulePaths[branch] = modules.map(\.path)
            for module in modules {
                if let current = project.module(named: module.name), current.path != module.path {
                    renamed[branch, default: [:]][module.path] = module.name
                }
            }
        }
        // A module found at another path (by its identity) is listed at that path, as the branch's tree has it.
        var pins = observed.pins
        for (branch, moved) in observed.movedPaths {
            for (name, path) in moved {
                guard let module = project.module(named: name), let pin = pins[branch]?[module.path] else { continue }
                pins[branch]?[module.path] = nil
                pins[branch]?[path] = pin
                renamed[branch, default: [:]][path] = name
            }
        }
        var containGeneral: Set<String> = [general]
        for (branch, comparison) in observed.comparisons where comparison.behind == 0 {
            containGeneral.insert(branch)
        }
        var repositories: [String: ModuleRepositoryState] = [:]
        for module in project.manifest.modules {
            guard let facts = observation.modules[module.name] else { continue }
            var pinned: [String: String] = [:]
            for (branch, branchPins) in observed.pins {
                let manifest = observed.manifests[branch]
                if let pin = ObservationReader.pin(of: module, in: branchPins, manifest: manifest) {
                    pinned[branch] = pin
                }
            }
            repositories[module.name] = repositoryState(facts, pins: pinned)
        }
        return RollState(
            project: project,
            superproject: SuperprojectState(
                branches: branches, containGeneral: containGeneral, pins: pins, modulePaths: modulePaths,
                renamedPaths: renamed, mergedBack: observed.mergedBack,
                containsMergedBack: containsMergedBack(observed)),
            repositories: repositories, unreachable: observation.unreachable)
    }

    /// Tenant branch → the commits of any tenant's merged-back commits that its head already contains: what the
    /// general branch would not bring it.
    static func containsMergedBack(_ observed: SuperprojectObservation) -> [String: Set<String>] {
        let taken = Set(observed.mergedBack.values.flatMap { $0 })
        guard let graph = observed.graph, !taken.isEmpty else { return [:] }
        var contains: [String: Set<String>] = [:]
        for (branch, tip) in observed.tenantTips {
            contains[branch] = taken.filter { graph.isAncestor($0, of: tip) }
        }
        return contains
    }

    /// One module: its facts, which branches contain its general tip, and, per superproject branch (`pins`: branch
    /// → the module's pin there), the tenant commits the general branch took that its pin lacks
    /// (``FindingJudge/mergedBackReaching(_:from:facts:)``).
    static func repositoryState(_ facts: ModuleObservation, pins: [String: String]) -> ModuleRepositoryState {
        guard let generalTip = facts.generalTip else {
            return ModuleRepositoryState(facts: facts, containGeneral: [])
        }
        let containing = Set(facts.branches.filter { facts.graph.isAncestor(generalTip, of: $0.value) }.keys)
        var mergedBack: [String: [String: [String]]] = [:]
        for (superBranch, pin) in pins {
            for tenantBranch in facts.mergedBack.keys where tenantBranch != superBranch {
                let new = FindingJudge.mergedBackReaching(pin, from: tenantBranch, facts: facts)
                if !new.isEmpty { mergedBack[superBranch, default: [:]][tenantBranch] = new }
            }
        }
        return ModuleRepositoryState(facts: facts, containGeneral: containing, mergedBack: mergedBack)
    }
}
