import Foundation

/// Something in the observed state that makes roll impossible.
public struct RollError: Error, Sendable, Equatable, CustomStringConvertible {
    public var description: String

    public init(_ description: String) { self.description = description }
}

/// The observed state of one module repository (its mirror).
public struct ModuleRepositoryState: Sendable, Equatable {
    /// Branch name → commit, as on the remote after the fetch.
    public var branches: [String: String]
    /// Branches that already contain the module's general branch tip.
    public var containGeneral: Set<String>

    public init(branches: [String: String], containGeneral: Set<String>) {
        self.branches = branches
        self.containGeneral = containGeneral
    }
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

    public init(
        branches: [String: String], containGeneral: Set<String>, pins: [String: [String: String]],
        modulePaths: [String: [String]]
    ) {
        self.branches = branches
        self.containGeneral = containGeneral
        self.pins = pins
        self.modulePaths = modulePaths
    }
}

/// Everything roll plans from: the project read at the general branch and the refs and pins of every repository.
public struct RollState: Sendable {
    /// The project (modules, tenants, the branch rule) as committed on the general branch.
    public var project: Project
    /// The superproject.
    public var superproject: SuperprojectState
    /// Module name → its repository state.
    public var repositories: [String: ModuleRepositoryState]

    public init(project: Project, superproject: SuperprojectState, repositories: [String: ModuleRepositoryState]) {
        self.project = project
        self.superproject = superproject
        self.repositories = repositories
    }

    /// The superproject's general branch.
    public var generalBranch: String { project.manifest.generalBranch }
}

/// Loads a ``RollState`` from a ``Snapshot`` with batch reads: one `for-each-ref --contains` per repository and one
/// `cat-file --batch` for every superproject file and tree.
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
        let modulePaths = try tenantModulePaths(
            branchesToRead, snapshot: snapshot, batch: batch, options: ValidationOptions(allowLocalRemotes: true))
        let allPaths = Set(project.manifest.modules.map(\.path)).union(modulePaths.values.flatMap { $0 })
        let tips = branchesToRead.compactMap { snapshot.branches[$0] }
        let pinsByCommit = try PinReader.pins(of: tips, paths: allPaths.sorted(), batch: batch)
        var pins: [String: [String: String]] = [:]
        for branch in branchesToRead {
            if let tip = snapshot.branches[branch] { pins[branch] = pinsByCommit[tip] ?? [:] }
        }
        let modules = project.manifest.modules
        let repositories = try Concurrent.map(modules, jobs: jobs) { module -> ModuleRepositoryState in
            let branches = snapshot.moduleBranches[module.name] ?? [:]
            guard let tip = branches[project.generalBranch(of: module)] else {
                return ModuleRepositoryState(branches: branches, containGeneral: [])
            }
            let containing = try GitRefs.containing(
                tip, under: "refs/heads/", in: try snapshot.mirror(module.name), git: git, what: "module \(module.name)"
            )
            return ModuleRepositoryState(branches: branches, containGeneral: containing)
        }
        return RollState(
            project: project,
            superproject: SuperprojectState(
                branches: snapshot.branches, containGeneral: contain, pins: pins, modulePaths: modulePaths),
            repositories: Dictionary(uniqueKeysWithValues: zip(modules.map(\.name), repositories)))
    }

    /// Branch → the module paths of that branch's own `modules.json`, validated by the one manifest loader. A branch
    /// whose file does not load gives no paths: roll then cannot see which of its gitlinks belong to modules removed
    /// on the general branch, and leaves them as they are.
    static func tenantModulePaths(
        _ branches: [String], snapshot: Snapshot, batch: CatFileBatch, options: ValidationOptions
    ) throws -> [String: [String]] {
        let files = try batch.objects(branches.map { "\(snapshot.ref($0)):\(ProjectReader.manifestPath)" })
        var paths: [String: [String]] = [:]
        for (branch, object) in zip(branches, files) {
            paths[branch] = []
            guard let object, object.type == "blob" else { continue }
            let file = SourceFile(path: "\(branch):\(ProjectReader.manifestPath)", data: Data(object.data))
            do {
                paths[branch] = try ProjectLoader.loadManifest(file, options: options).modules.map(\.path)
            } catch {
                continue  // documented above: an invalid file gives no paths
            }
        }
        return paths
    }
}
