import Foundation

/// Loads a ``RollState`` from a ``Snapshot`` through the ``ObservationReader`` (what audit and verify read, with
/// each tenant branch's own `modules.json` and without the changed files, orphan branches and `.gitmodules`), on
/// the snapshot's `cat-file --batch`; the state is then built from the observation without git.
public enum RollStateLoader {
    /// Loads the state of every repository in the snapshot, read with the snapshot's workspace's runner.
    public static func load(snapshot: Snapshot, batch: CatFileBatch, jobs: Int) throws -> RollState {
        let project = snapshot.project
        _ = try snapshot.branch(project.manifest.generalBranch)
        let observation = try ObservationReader.read(
            snapshot: snapshot, tenants: project.tenants, options: .roll(jobs: jobs), batch: batch)
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
