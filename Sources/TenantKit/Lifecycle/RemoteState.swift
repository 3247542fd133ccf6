import Foundation

/// The remotes as fetched: the project read from the superproject's `origin/<general branch>`, the superproject's
/// remote branches and tags, and a mirror of every module with its branches.
///
/// Repository-wide commands plan against this snapshot and push with leases (or fast-forward only), so a remote
/// that moved since the fetch rejects the push instead of losing work.
public struct RemoteState: Sendable {
    /// The superproject working copy.
    public var workspace: Workspace
    /// The project as committed on `origin/<general branch>`.
    public var project: Project
    /// Superproject branch name → commit on `origin`.
    public var branches: [String: String]
    /// Module name → mirror spec (resolved remote URL).
    public var specs: [String: MirrorSpec]
    /// Module name → mirror path.
    public var mirrors: [String: String]
    /// Module name → branch name → commit, as on the module's remote.
    public var moduleBranches: [String: [String: String]]

    /// The general branch's name.
    public var generalBranch: String { project.manifest.generalBranch }

    /// Fetches the superproject and every module (unless `fetch` is false), then reads the snapshot.
    public static func load(
        workspace: Workspace, git: Git, options: ValidationOptions, fetch: Bool = true, console: Console? = nil
    ) throws -> RemoteState {
        guard try Superproject.originURL(workspace, git: git) != nil else {
            throw LifecycleError(
                "the superproject at \(workspace.root) has no remote 'origin'; repository-wide commands work on "
                    + "the remotes")
        }
        if fetch {
            console?.progress("fetching the superproject…")
            try Superproject.fetch(workspace, git: git)
        }
        let branches = try refs(prefix: "refs/remotes/origin/", in: workspace.root, git: git)
        // The general branch is named by modules.json, which lives on it: take the working tree's word first.
        let generalGuess = ProjectReader.generalBranchHint(workspace)
        guard branches[generalGuess] != nil else {
            throw LifecycleError(
                "the superproject's origin has no branch \(generalGuess); tenantctl reads modules.json and Tenants/ "
                    + "from it (run `tenantctl init` and push the files first)")
        }
        var project = try ProjectReader.revision(
            "refs/remotes/origin/\(generalGuess)", repository: workspace.root, git: git, options: options)
        let declared = project.manifest.generalBranch
        if declared != generalGuess {
            guard branches[declared] != nil else {
                throw LifecycleError("modules.json names the general branch \(declared), which origin does not have")
            }
            project = try ProjectReader.revision(
                "refs/remotes/origin/\(declared)", repository: workspace.root, git: git, options: options)
        }
        let specList = try ModuleRemotes.specs(for: project.manifest.modules, workspace: workspace, git: git)
        let store = ModuleMirrors(workspace: workspace, git: git)
        let mirrors: [String: String]
        if fetch {
            console?.progress("fetching \(specList.count) module repositor\(specList.count == 1 ? "y" : "ies")…")
            mirrors = try store.sync(specList, console: console)
        } else {
            mirrors = try store.existing(specList)
        }
        var moduleBranches: [String: [String: String]] = [:]
        for (name, path) in mirrors {
            moduleBranches[name] = try refs(prefix: "refs/heads/", in: path, git: git)
        }
        return RemoteState(
            workspace: workspace, project: project, branches: branches,
            specs: Dictionary(uniqueKeysWithValues: specList.map { ($0.name, $0) }), mirrors: mirrors,
            moduleBranches: moduleBranches)
    }

    /// Refs under `prefix` (prefix removed) → object id.
    static func refs(prefix: String, in repository: String, git: Git) throws -> [String: String] {
        let output = try git.run(
            ["for-each-ref", "--format=%(refname)%00%(objectname)", "--end-of-options", prefix], in: repository,
            context: "list \(prefix) in \(repository)")
        guard let refs = GitParse.refs(output.text) else {
            throw GitError(
                context: "list \(prefix)", kind: .unparseableOutput(detail: "for-each-ref output"), command: [],
                directory: repository, stderr: "")
        }
        var result: [String: String] = [:]
        for (ref, id) in refs where ref.hasPrefix(prefix) && ref != prefix + "HEAD" {
            result[String(ref.dropFirst(prefix.count))] = id
        }
        return result
    }

    /// The commit of a superproject branch on origin.
    public func branch(_ name: String) throws -> String {
        guard let id = branches[name] else {
            throw LifecycleError("the superproject's origin has no branch \(name)")
        }
        return id
    }

    /// Module path → pinned commit on a superproject commit (only gitlinks).
    public func pins(at commit: String, git: Git) throws -> [String: String] {
        let paths = project.manifest.modules.map(\.path)
        guard !paths.isEmpty else { return [:] }
        let output = try git.run(
            ["ls-tree", "-z", "--end-of-options", commit, "--"] + paths, in: workspace.root,
            context: "read the pins of \(commit)")
        guard let entries = GitParse.lsTree(output.stdout) else {
            throw GitError(
                context: "read the pins of \(commit)", kind: .unparseableOutput(detail: "ls-tree output"),
                command: [], directory: workspace.root, stderr: "")
        }
        var pins: [String: String] = [:]
        for (entry, path) in entries where entry.isGitlink { pins[path] = entry.id }
        return pins
    }

    /// Whether `ancestor` is reachable from `descendant` in a module mirror (both must exist there).
    public func isAncestor(_ ancestor: String, of descendant: String, module: String, git: Git) throws -> Bool {
        guard let mirror = mirrors[module] else { throw LifecycleError("module \(module) has no mirror") }
        let output = try git.run(
            ["merge-base", "--is-ancestor", "--end-of-options", ancestor, descendant], in: mirror,
            context: "check whether \(ancestor) is on \(descendant) in \(module)", accepting: [0, 1])
        return output.status == 0
    }

    /// Whether a commit exists in a module mirror.
    public func hasCommit(_ commit: String, module: String, git: Git) throws -> Bool {
        guard let mirror = mirrors[module] else { throw LifecycleError("module \(module) has no mirror") }
        let output = try git.run(
            ["cat-file", "-e", "--end-of-options", commit + "^{commit}"], in: mirror,
            context: "look up \(commit) in \(module)", accepting: [0, 1, 128])
        return output.status == 0
    }

    /// The tenant files as they are after replacing or removing some (for validating a change with the loader).
    public func tenantFiles(replacing changed: [Tenant], removing removed: Set<String> = []) -> [SourceFile] {
        var byID: [String: Tenant] = [:]
        for tenant in project.tenants { byID[tenant.id] = tenant }
        for tenant in changed { byID[tenant.id] = tenant }
        return byID.values.filter { !removed.contains($0.id) }.sorted { $0.id < $1.id }.map {
            SourceFile(path: RemoteState.tenantPath($0.id), data: $0.encoded())
        }
    }

    /// `Tenants/<id>.json`.
    public static func tenantPath(_ id: String) -> String { "\(ProjectReader.tenantsDirectory)/\(id).json" }
}
