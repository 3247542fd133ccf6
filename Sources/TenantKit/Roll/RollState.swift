import Foundation

/// A module as roll sees it: name, path of its gitlink in the superproject, remote URL as written in the manifest.
public struct RollModule: Sendable, Equatable, Codable {
    /// Module name.
    public var name: String
    /// Gitlink path in the superproject (`Modules/Article`).
    public var path: String
    /// Remote URL as written in `modules.json` (absolute or relative to the superproject's origin).
    public var url: String

    public init(name: String, path: String, url: String) {
        self.name = name
        self.path = path
        self.url = url
    }
}

/// A tenant as roll sees it.
public struct RollTenant: Sendable, Equatable, Codable {
    /// Tenant id (`t2`).
    public var id: String
    /// Branch name in the superproject and in every customised module.
    public var branch: String
    /// Modules that have a tenant branch.
    public var customised: [String]

    public init(id: String, branch: String, customised: [String]) {
        self.id = id
        self.branch = branch
        self.customised = customised
    }
}

/// Something in the observed state that makes roll impossible.
public struct RollError: Error, Sendable, Equatable, CustomStringConvertible {
    public var description: String

    public init(_ description: String) { self.description = description }
}

/// A lenient reader of a tenant branch's own `modules.json`: roll only needs its module paths, to find gitlinks
/// of modules that were removed on the general branch. (The general branch's files go through `ProjectLoader`.)
public enum RollManifest {
    struct ModulesFile: Decodable {
        var generalBranch: String?
        var modules: [RollModule]
    }

    /// Decodes `modules.json`; returns the general branch name and the modules.
    public static func modules(_ data: [UInt8], file: String) throws -> (generalBranch: String, modules: [RollModule]) {
        do {
            let decoded = try JSONDecoder().decode(ModulesFile.self, from: Data(data))
            for module in decoded.modules {
                try checkName(module.name, what: "module name", file: file)
                try checkPath(module.path, file: file)
            }
            return (decoded.generalBranch ?? "general_dev", decoded.modules)
        } catch let error as RollError {
            throw error
        } catch {
            throw RollError("\(file): \(error)")
        }
    }

    static func checkName(_ name: String, what: String, file: String) throws {
        let allowed = CharacterSet.alphanumerics.union(CharacterSet(charactersIn: "_-."))
        guard !name.isEmpty, !name.hasPrefix("-"), !name.hasPrefix("."), !name.contains(".."),
            name.unicodeScalars.allSatisfy({ allowed.contains($0) })
        else { throw RollError("\(file): invalid \(what) \"\(name)\"") }
    }

    static func checkPath(_ path: String, file: String) throws {
        let components = path.split(separator: "/", omittingEmptySubsequences: false)
        guard !path.isEmpty, !path.hasPrefix("/"),
            components.allSatisfy({ !$0.isEmpty && $0 != "." && $0 != ".." && $0.lowercased() != ".git" }),
            path.unicodeScalars.allSatisfy({ !CharacterSet.controlCharacters.contains($0) })
        else { throw RollError("\(file): invalid module path \"\(path)\"") }
    }
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
    /// Branch name → commit (from `refs/remotes/origin/*`).
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

/// Everything roll plans from: the manifest on the general branch and the refs and pins of every repository.
public struct RollState: Sendable, Equatable {
    /// `general_dev`.
    public var generalBranch: String
    /// Modules of the general branch's manifest.
    public var modules: [RollModule]
    /// Tenants of the general branch's `Tenants/`.
    public var tenants: [RollTenant]
    /// The superproject.
    public var superproject: SuperprojectState
    /// Module name → its repository state.
    public var repositories: [String: ModuleRepositoryState]

    public init(
        generalBranch: String, modules: [RollModule], tenants: [RollTenant], superproject: SuperprojectState,
        repositories: [String: ModuleRepositoryState]
    ) {
        self.generalBranch = generalBranch
        self.modules = modules
        self.tenants = tenants
        self.superproject = superproject
        self.repositories = repositories
    }
}

/// Loads a ``RollState`` with batch reads: one `for-each-ref` and one `for-each-ref --contains` per repository,
/// one `cat-file --batch` for every superproject file and tree.
public struct RollStateLoader {
    /// The superproject (non-bare working copy or bare repository).
    public var superproject: String
    /// The ref namespace of the superproject's remote branches (`refs/remotes/origin/`).
    public var remotePrefix: String
    let git: Git

    public init(superproject: String, remotePrefix: String = "refs/remotes/origin/", git: Git) {
        self.superproject = superproject
        self.remotePrefix = remotePrefix
        self.git = git
    }

    /// Reads the refs of a repository under `prefix` (branch name → commit) and which of them contain `general`.
    public static func branches(in repository: String, prefix: String, general: String, git: Git) throws -> (
        branches: [String: String], containGeneral: Set<String>
    ) {
        let output = try git.run(
            ["for-each-ref", "--format=%(refname)%00%(objectname)", prefix], in: repository,
            context: "read the branches of \(repository)")
        guard let refs = GitParse.refs(output.text) else {
            throw RollError("cannot parse the branches of \(repository)")
        }
        var branches: [String: String] = [:]
        for (ref, id) in refs where ref.hasPrefix(prefix) {
            branches[String(ref.dropFirst(prefix.count))] = id
        }
        var contain: Set<String> = []
        if let tip = branches[general] {
            let containing = try git.run(
                ["for-each-ref", "--format=%(refname)", "--contains", tip, prefix], in: repository,
                context: "find the branches of \(repository) that contain \(general)")
            for ref in containing.lines where ref.hasPrefix(prefix) {
                contain.insert(String(ref.dropFirst(prefix.count)))
            }
        }
        return (branches, contain)
    }

    /// Loads the whole state. `modulePath` gives the repository (mirror) of each module, already fetched.
    public func load(
        manifest: (generalBranch: String, modules: [RollModule], tenants: [RollTenant]), batch: CatFileBatch,
        modulePath: (RollModule) -> String
    ) throws -> RollState {
        let general = manifest.generalBranch
        let observed = try Self.branches(in: superproject, prefix: remotePrefix, general: general, git: git)
        var superBranches = observed.branches
        let contain = observed.containGeneral
        superBranches = superBranches.filter { $0.key != "HEAD" }
        // Pins of the general branch and every tenant branch, and each tenant branch's own module paths.
        var branchesToRead = [general]
        branchesToRead += manifest.tenants.map(\.branch).filter { superBranches[$0] != nil }
        var modulePaths: [String: [String]] = [:]
        let manifests = try batch.objects(branchesToRead.map { "\(remotePrefix)\($0):modules.json" })
        for (branch, object) in zip(branchesToRead, manifests) {
            // A tenant branch's own manifest only tells which gitlinks were modules there; unreadable means none.
            modulePaths[branch] = []
            if let object, object.type == "blob" {
                do {
                    modulePaths[branch] = try RollManifest.modules(object.data, file: "modules.json on \(branch)")
                        .modules.map(\.path)
                } catch {
                    modulePaths[branch] = []
                }
            }
        }
        var pins: [String: [String: String]] = [:]
        let allPaths = Set(manifest.modules.map(\.path)).union(modulePaths.values.flatMap { $0 })
        let parents = Set(allPaths.map(Self.parent))
        for branch in branchesToRead {
            guard let tip = superBranches[branch] else { continue }
            let sortedParents = parents.sorted()
            let trees = try batch.objects(sortedParents.map { $0.isEmpty ? "\(tip)^{tree}" : "\(tip):\($0)" })
            var branchPins: [String: String] = [:]
            for (parent, tree) in zip(sortedParents, trees) {
                guard let tree, tree.type == "tree" else { continue }
                guard let entries = GitParse.treeObject(tree.data) else {
                    throw RollError("cannot parse tree \(tree.id) of \(branch)")
                }
                for entry in entries where entry.isGitlink {
                    let path = parent.isEmpty ? entry.name : parent + "/" + entry.name
                    if allPaths.contains(path) { branchPins[path] = entry.id }
                }
            }
            pins[branch] = branchPins
        }
        var repositories: [String: ModuleRepositoryState] = [:]
        for module in manifest.modules {
            let found = try Self.branches(in: modulePath(module), prefix: "refs/heads/", general: general, git: git)
            repositories[module.name] = ModuleRepositoryState(
                branches: found.branches, containGeneral: found.containGeneral)
        }
        return RollState(
            generalBranch: general, modules: manifest.modules, tenants: manifest.tenants,
            superproject: SuperprojectState(
                branches: superBranches, containGeneral: contain, pins: pins, modulePaths: modulePaths),
            repositories: repositories)
    }

    static func parent(_ path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "" }
        return String(path[..<slash])
    }
}
