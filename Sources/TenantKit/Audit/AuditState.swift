import Foundation

/// The audit could not read what it needs.
public struct AuditError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What went wrong, naming the repository or ref.
    public var description: String

    /// Creates an error.
    public init(_ description: String) { self.description = description }
}

/// Where the audit reads from: the superproject's fetched refs and one repository per module.
public struct AuditSources: Sendable {
    /// The superproject repository (a clone; its working tree is never read).
    public var superproject: String
    /// Where the superproject's fetched branches are (`refs/remotes/origin/`).
    public var superprojectRefPrefix: String
    /// Module name → a repository whose `refs/heads/*` are the module remote's branches (a mirror).
    public var moduleRepositories: [String: String]

    /// Creates the sources.
    public init(
        superproject: String, superprojectRefPrefix: String = "refs/remotes/origin/",
        moduleRepositories: [String: String]
    ) {
        self.superproject = superproject
        self.superprojectRefPrefix = superprojectRefPrefix
        self.moduleRepositories = moduleRepositories
    }
}

/// The superproject as the audit sees it.
public struct AuditSuperprojectState: Sendable {
    /// The head of `general_dev`.
    public var generalTip: String
    /// Tenant branch → head (only branches that exist).
    public var tenantTips: [String: String]
    /// Tenant branch → module path → pinned commit (gitlinks of the branch head).
    public var pins: [String: [String: String]]
    /// Tenant branch → comparison with `general_dev`.
    public var comparisons: [String: Comparison]
    /// Tenant branch → files (not gitlinks) changed against the merge base with `general_dev`.
    public var changedFiles: [String: [String]]
}

/// One module repository as the audit sees it.
public struct AuditModuleState: Sendable {
    /// Branch name → head.
    public var branches: [String: String]
    /// The commit graph of every branch and every pin.
    public var graph: CommitGraph
    /// The pins reachable from some branch of the remote.
    public var pinsOnRemote: Set<String>
    /// Pin → comparison with the module's `general_dev` (pins in the graph, when `general_dev` exists).
    public var comparisons: [String: Comparison]
    /// Pin → files changed against the merge base with `general_dev` (customised pins only).
    public var changedFiles: [String: [String]]
}

/// Everything the ``Auditor`` needs, read from git with O(modules) processes.
public struct AuditState: Sendable {
    /// The superproject.
    public var superproject: AuditSuperprojectState
    /// Module name → its repository.
    public var modules: [String: AuditModuleState]

    /// Reads the state for `tenants` of `project` from `sources`.
    ///
    /// git processes: superproject 4 (`for-each-ref`, `rev-list`, `cat-file --batch`, `diff-tree --stdin`),
    /// each module 3 (`for-each-ref`, `rev-list`, `diff-tree --stdin`); none per tenant.
    public static func load(project: Project, tenants: [Tenant], sources: AuditSources, git: Git) throws
        -> AuditState
    {
        let general = project.manifest.generalBranch
        let superproject = try loadSuperproject(
            project: project, tenants: tenants, sources: sources, git: git)
        var modules: [String: AuditModuleState] = [:]
        for module in project.manifest.modules {
            guard let repository = sources.moduleRepositories[module.name] else {
                throw AuditError("no repository for module \(module.name)")
            }
            var pins = Set<String>()
            for tenant in tenants {
                if let pin = superproject.pins[tenant.branch]?[module.path] { pins.insert(pin) }
            }
            modules[module.name] = try loadModule(
                module.name, repository: repository, general: general, pins: pins, git: git)
        }
        return AuditState(superproject: superproject, modules: modules)
    }

    static func loadSuperproject(project: Project, tenants: [Tenant], sources: AuditSources, git: Git) throws
        -> AuditSuperprojectState
    {
        let repository = sources.superproject
        let prefix = sources.superprojectRefPrefix
        let general = project.manifest.generalBranch
        let refs = try readRefs(prefix: prefix, repository: repository, what: "the superproject", git: git)
        guard let generalTip = refs[general] else {
            throw AuditError(
                "the superproject has no \(prefix)\(general); fetch it (run without --no-fetch) or check the remote")
        }
        var tenantTips: [String: String] = [:]
        for tenant in tenants {
            if let tip = refs[tenant.branch] { tenantTips[tenant.branch] = tip }
        }
        let graph = try readGraph(
            tips: [generalTip] + tenantTips.values.sorted(), repository: repository, what: "the superproject",
            git: git)
        var comparisons: [String: Comparison] = [:]
        for (branch, tip) in tenantTips {
            guard let comparison = graph.compare(tip, with: generalTip) else {
                throw AuditError("the superproject's commit graph lacks \(tip) (branch \(branch))")
            }
            comparisons[branch] = comparison
        }
        let pins = try readPins(
            tips: tenantTips, paths: project.manifest.modules.map(\.path), repository: repository, git: git)
        var pairs: [(commit: String, base: String)] = []
        for (_, tip) in tenantTips.sorted(by: { $0.key < $1.key }) {
            if let base = graph.compare(tip, with: generalTip)?.mergeBase, base != tip { pairs.append((tip, base)) }
        }
        let modulePaths = Set(project.manifest.modules.map(\.path))
        let changedByCommit = try changedPaths(pairs, repository: repository, what: "the superproject", git: git)
        var changedFiles: [String: [String]] = [:]
        for (branch, tip) in tenantTips {
            changedFiles[branch] = (changedByCommit[tip] ?? []).filter { !modulePaths.contains($0) }
        }
        return AuditSuperprojectState(
            generalTip: generalTip, tenantTips: tenantTips, pins: pins, comparisons: comparisons,
            changedFiles: changedFiles)
    }

    static func loadModule(_ name: String, repository: String, general: String, pins: Set<String>, git: Git)
        throws -> AuditModuleState
    {
        let what = "module \(name)"
        let branches = try readRefs(prefix: "refs/heads/", repository: repository, what: what, git: git)
        let tips = Set(branches.values)
        let graph = try readGraph(
            tips: tips.sorted() + pins.subtracting(tips).sorted(), repository: repository, what: what, git: git)
        let onRemote = graph.reachable(from: tips)
        var comparisons: [String: Comparison] = [:]
        var pairs: [(commit: String, base: String)] = []
        if let generalTip = branches[general] {
            for pin in pins.sorted() {
                guard let comparison = graph.compare(pin, with: generalTip) else { continue }
                comparisons[pin] = comparison
                if let base = comparison.mergeBase, base != pin { pairs.append((pin, base)) }
            }
        }
        let changed = try changedPaths(pairs, repository: repository, what: what, git: git)
        var changedFiles: [String: [String]] = [:]
        for pair in pairs { changedFiles[pair.commit] = changed[pair.commit] ?? [] }
        return AuditModuleState(
            branches: branches, graph: graph, pinsOnRemote: pins.intersection(onRemote), comparisons: comparisons,
            changedFiles: changedFiles)
    }

    /// Branch name (after `prefix`) → head, from one `for-each-ref`.
    static func readRefs(prefix: String, repository: String, what: String, git: Git) throws -> [String: String] {
        let output = try git.run(
            ["for-each-ref", "--format=%(refname)%00%(objectname)", "--", prefix], in: repository,
            context: "read the branches of \(what)")
        guard let refs = GitParse.refs(output.text) else {
            throw AuditError("cannot parse the branches of \(what)")
        }
        var branches: [String: String] = [:]
        for (ref, id) in refs where ref.hasPrefix(prefix) {
            branches[String(ref.dropFirst(prefix.count))] = id
        }
        return branches
    }

    /// One `rev-list --parents --topo-order` walk from `tips` (missing commits are skipped).
    static func readGraph(tips: [String], repository: String, what: String, git: Git) throws -> CommitGraph {
        let input = Data(tips.map { $0 + "\n" }.joined().utf8)
        let output = try git.run(
            ["rev-list", "--parents", "--topo-order", "--ignore-missing", "--stdin"], in: repository, input: input,
            context: "read the commit graph of \(what)")
        guard let graph = CommitGraph(listing: output.text) else {
            throw AuditError("cannot parse the commit graph of \(what)")
        }
        return graph
    }

    /// Tenant branch → module path → gitlink, read from the parent trees of the module paths with one
    /// `cat-file --batch` (a gitlink itself is not an object of the superproject and cannot be read by name).
    static func readPins(tips: [String: String], paths: [String], repository: String, git: Git) throws
        -> [String: [String: String]]
    {
        func parent(_ path: String) -> (directory: String, name: String) {
            guard let slash = path.lastIndex(of: "/") else { return ("", path) }
            return (String(path[..<slash]), String(path[path.index(after: slash)...]))
        }
        let directories = Array(Set(paths.map { parent($0).directory })).sorted()
        let distinctTips = Array(Set(tips.values)).sorted()
        var names: [String] = []
        for tip in distinctTips {
            for directory in directories { names.append(directory.isEmpty ? "\(tip)^{tree}" : "\(tip):\(directory)") }
        }
        let batch = try CatFileBatch(git: git, repository: repository)
        let objects = try batch.objects(names)
        try batch.close()
        var treeByName: [String: [TreeEntry]] = [:]
        let idLength = (distinctTips.first?.utf8.count ?? 40) / 2  // SHA-1 (20 bytes) or SHA-256 (32 bytes)
        for (name, object) in zip(names, objects) {
            guard let object else { continue }  // the directory does not exist on that branch
            guard object.type == "tree", let entries = GitParse.treeObject(object.data, idLength: idLength) else {
                throw AuditError("cannot parse the tree \(name) of the superproject")
            }
            treeByName[name] = entries
        }
        var pinsByTip: [String: [String: String]] = [:]
        for tip in distinctTips {
            var pins: [String: String] = [:]
            for path in paths {
                let (directory, name) = parent(path)
                let key = directory.isEmpty ? "\(tip)^{tree}" : "\(tip):\(directory)"
                if let entry = treeByName[key]?.first(where: { $0.name == name && $0.isGitlink }) {
                    pins[path] = entry.id
                }
            }
            pinsByTip[tip] = pins
        }
        return tips.mapValues { pinsByTip[$0] ?? [:] }
    }

    /// Commit → paths changed between `base` and `commit`, for many pairs with one `diff-tree --stdin`.
    /// Paths whose old or new entry is a gitlink are left out.
    static func changedPaths(_ pairs: [(commit: String, base: String)], repository: String, what: String, git: Git)
        throws -> [String: [String]]
    {
        guard !pairs.isEmpty else { return [:] }
        var seen = Set<String>()
        var input = ""
        for pair in pairs where seen.insert(pair.commit).inserted { input += "\(pair.commit) \(pair.base)\n" }
        let output = try git.run(
            ["diff-tree", "--stdin", "-r", "--raw", "-z", "--no-renames"], in: repository, input: Data(input.utf8),
            context: "list the files changed in \(what)")
        guard let parsed = AuditParse.diffTreeRaw(output.stdout) else {
            throw AuditError("cannot parse the changed files of \(what)")
        }
        return parsed
    }
}

/// Pure parsers for the audit's git output.
public enum AuditParse {
    /// Parses `git diff-tree --stdin -r --raw -z` output: a commit id record, then for every change
    /// `:<old mode> <new mode> <old id> <new id> <status>` NUL `<path>` NUL. Returns commit → changed paths
    /// (gitlink changes left out), or nil when the output has another shape.
    public static func diffTreeRaw(_ data: Data) -> [String: [String]]? {
        var result: [String: [String]] = [:]
        var current: String?
        var records = data.split(separator: 0, omittingEmptySubsequences: false).makeIterator()
        while let record = records.next() {
            if record.isEmpty { continue }
            if record.first == UInt8(ascii: ":") {
                guard let commit = current, let path = records.next(), !path.isEmpty else { return nil }
                let fields = String(decoding: record.dropFirst(), as: UTF8.self).split(separator: " ")
                guard fields.count >= 5 else { return nil }
                if fields[0] == "160000" || fields[1] == "160000" { continue }
                result[commit, default: []].append(String(decoding: path, as: UTF8.self))
            } else {
                let id = String(decoding: record, as: UTF8.self)
                guard id.utf8.count == 40 || id.utf8.count == 64 else { return nil }
                current = id
                if result[id] == nil { result[id] = [] }
            }
        }
        return result
    }
}
