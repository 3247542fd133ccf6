import Foundation

/// The audit could not read what it needs.
public struct AuditError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What went wrong, naming the repository or ref.
    public var description: String

    /// Creates an error.
    public init(_ description: String) { self.description = description }
}

/// The superproject as the audit sees it.
public struct AuditSuperprojectState: Sendable {
    /// The head of `general_dev`.
    public var generalTip: String
    /// Tenant branch → head (only branches that exist).
    public var tenantTips: [String: String]
    /// Tenant branch → module path → pinned commit (gitlinks of the branch head). A module the branch has at
    /// another path (``movedPaths``) is listed under its path in `modules.json`.
    public var pins: [String: [String: String]]
    /// Tenant branch → module name → the path the branch has the module at, for modules it has at another path than
    /// `modules.json` gives (moved since: ``ModuleLocator``).
    public var movedPaths: [String: [String: String]] = [:]
    /// Tenant branch → comparison with `general_dev`.
    public var comparisons: [String: Comparison]
    /// Tenant branch → files (not gitlinks) changed against the merge base with `general_dev`.
    public var changedFiles: [String: [String]]
    /// Tenant branch → its commits that `general_dev` took (merged back).
    public var mergedBack: [String: [String]] = [:]
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
    /// Pin → files changed against the merge base with `general_dev` (customised pins only), nested gitlinks (the
    /// module's own submodules) included.
    public var changedFiles: [String: [String]]
    /// Pin → the commit it names (annotated tags peeled).
    public var pinCommits: [String: String] = [:]
    /// Tenant branch of this module → its commits the module's general branch took (merged back).
    public var mergedBack: [String: [String]] = [:]
}

/// Everything the ``Auditor`` needs, read from git with O(modules) processes.
public struct AuditState: Sendable {
    /// The superproject.
    public var superproject: AuditSuperprojectState
    /// Module name → its repository (modules that could not be fetched have none).
    public var modules: [String: AuditModuleState]
    /// Module name → why it could not be fetched.
    public var unreachable: [String: String] = [:]

    /// Reads the state for `tenants` from a snapshot of the remotes.
    ///
    /// git processes: superproject 3 (`rev-list`, `cat-file --batch`, `diff-tree --stdin`), each module 2
    /// (`rev-list`, `diff-tree --stdin`), `jobs` repositories at a time; none per tenant. Only the pins are read
    /// first (the modules' graphs include them); the superproject's graph and diffs are one more job next to the
    /// modules'.
    public static func load(snapshot: Snapshot, tenants: [Tenant], git: Git, jobs: Int = 4) throws -> AuditState {
        let project = snapshot.project
        let tips = try superprojectTips(snapshot: snapshot, tenants: tenants)
        let (pins, movedPaths) = try readPins(
            snapshot: snapshot, generalTip: tips.generalTip, tenantTips: tips.tenantTips, git: git)
        let fetched = project.manifest.modules.filter { snapshot.unreachable[$0.name] == nil }
        let tenantBranches = project.tenants.map(\.branch) + project.invalidTenants.map(\.branch)
        // Module path → the distinct pins of the tenants, in one pass over the tenants' pins.
        var distinctPins: [String: Set<String>] = [:]
        for tenant in tenants {
            for (path, pin) in pins[tenant.branch] ?? [:] { distinctPins[path, default: []].insert(pin) }
        }
        let pinsByPath = distinctPins
        enum Job: Sendable {
            case superproject
            case module(Module)
        }
        enum Loaded: Sendable {
            case superproject(AuditSuperprojectState)
            case module(String, AuditModuleState)
        }
        let results = try Concurrent.map([Job.superproject] + fetched.map(Job.module), jobs: jobs) { job -> Loaded in
            switch job {
            case .superproject:
                return .superproject(
                    try loadSuperproject(
                        snapshot: snapshot, generalTip: tips.generalTip, tenantTips: tips.tenantTips, pins: pins,
                        git: git))
            case .module(let module):
                let modulePins = pinsByPath[module.path] ?? []
                return .module(
                    module.name,
                    try loadModule(
                        module.name, repository: try snapshot.mirror(module.name),
                        branches: snapshot.moduleBranches[module.name] ?? [:],
                        general: project.generalBranch(of: module), pins: modulePins, tenantBranches: tenantBranches,
                        git: git))
            }
        }
        var superproject: AuditSuperprojectState?
        var modules: [String: AuditModuleState] = [:]
        for result in results {
            switch result {
            case .superproject(let state): superproject = state
            case .module(let name, let state): modules[name] = state
            }
        }
        guard var superproject else { throw AuditError("the superproject's state was not read") }
        superproject.movedPaths = movedPaths
        var state = AuditState(superproject: superproject, modules: modules)
        state.unreachable = snapshot.unreachable
        return state
    }

    /// The general branch's head and the tenants' branch heads on the superproject's remote.
    static func superprojectTips(snapshot: Snapshot, tenants: [Tenant]) throws -> (
        generalTip: String, tenantTips: [String: String]
    ) {
        let general = snapshot.project.manifest.generalBranch
        guard let generalTip = snapshot.branches[general] else {
            throw AuditError(
                "the superproject has no \(snapshot.ref(general)); fetch it (run without --no-fetch) or check the "
                    + "remote")
        }
        var tenantTips: [String: String] = [:]
        for tenant in tenants {
            if let tip = snapshot.branches[tenant.branch] { tenantTips[tenant.branch] = tip }
        }
        return (generalTip, tenantTips)
    }

    /// Tenant branch → module path → pinned commit, with one `cat-file --batch`; a module a branch has at another
    /// path (found by its identity, ``ModuleLocator``) listed under its path, and tenant branch → module name → that
    /// other path.
    static func readPins(snapshot: Snapshot, generalTip: String, tenantTips: [String: String], git: Git) throws
        -> (pins: [String: [String: String]], moved: [String: [String: String]])
    {
        let modules = snapshot.project.manifest.modules
        let batch = try CatFileBatch(git: git, repository: snapshot.workspace.root)
        var pinsByCommit = try PinReader.pins(of: Array(tenantTips.values), paths: modules.map(\.path), batch: batch)
        let located = try ModuleLocator.moved(
            modules: modules, pins: pinsByCommit, reference: generalTip, batch: batch,
            repository: snapshot.workspace.root, git: git)
        try batch.close()
        var movedByCommit: [String: [String: String]] = [:]
        for (commit, locations) in located {
            for module in modules {
                guard let location = locations[module.name] else { continue }
                pinsByCommit[commit, default: [:]][module.path] = location.pin
                movedByCommit[commit, default: [:]][module.name] = location.path
            }
        }
        return (
            tenantTips.mapValues { pinsByCommit[$0] ?? [:] },
            tenantTips.compactMapValues { movedByCommit[$0] }
        )
    }

    static func loadSuperproject(
        snapshot: Snapshot, generalTip: String, tenantTips: [String: String], pins: [String: [String: String]],
        git: Git
    ) throws -> AuditSuperprojectState {
        let repository = snapshot.workspace.root
        let graph = try CommitGraph.load(
            tips: [generalTip] + tenantTips.values.sorted(), repository: repository, git: git,
            what: "the superproject")
        var comparisons: [String: Comparison] = [:]
        for (branch, tip) in tenantTips {
            guard let comparison = graph.compare(tip, with: generalTip) else {
                throw AuditError("the superproject's commit graph lacks \(tip) (branch \(branch))")
            }
            comparisons[branch] = comparison
        }
        var pairs: [(commit: String, base: String)] = []
        for (branch, tip) in tenantTips.sorted(by: { $0.key < $1.key }) {
            if let base = comparisons[branch]?.mergeBase, base != tip { pairs.append((tip, base)) }
        }
        let changedByCommit = try changedPaths(
            pairs, repository: repository, what: "the superproject", gitlinks: false, git: git)
        var changedFiles: [String: [String]] = [:]
        var mergedBack: [String: [String]] = [:]
        let generalHistory = graph.history(of: generalTip)
        for (branch, tip) in tenantTips {
            changedFiles[branch] = changedByCommit[tip] ?? []
            let taken = generalHistory.map { graph.tenantOnlyCommits(of: tip, in: $0) } ?? []
            if !taken.isEmpty { mergedBack[branch] = taken }
        }
        var state = AuditSuperprojectState(
            generalTip: generalTip, tenantTips: tenantTips, pins: pins, comparisons: comparisons,
            changedFiles: changedFiles)
        state.mergedBack = mergedBack
        return state
    }

    static func loadModule(
        _ name: String, repository: String, branches: [String: String], general: String, pins: Set<String>,
        tenantBranches: [String] = [], git: Git
    ) throws -> AuditModuleState {
        let what = "module \(name)"
        let tips = Set(branches.values)
        let graph = try CommitGraph.load(
            tips: tips.sorted() + pins.subtracting(tips).sorted(), repository: repository, git: git, what: what)
        let resolved = try ModulePins.resolve(
            pins, graph: graph, branchTips: tips, repository: repository, git: git, what: what)
        var comparisons: [String: Comparison] = [:]
        var pairs: [(commit: String, base: String)] = []
        var mergedBack: [String: [String]] = [:]
        if let generalTip = branches[general] {
            for pin in pins.sorted() {
                let commit = resolved.commit(pin)
                guard let comparison = graph.compare(commit, with: generalTip) else { continue }
                comparisons[pin] = comparison
                if let base = comparison.mergeBase, base != commit { pairs.append((commit, base)) }
            }
            let generalHistory = graph.history(of: generalTip)
            for branch in tenantBranches {
                guard let tip = branches[branch], let generalHistory else { continue }
                let taken = graph.tenantOnlyCommits(of: tip, in: generalHistory)
                if !taken.isEmpty { mergedBack[branch] = taken }
            }
        }
        // A module's own submodules (nested gitlinks) are part of what a customisation changes.
        let changed = try changedPaths(pairs, repository: repository, what: what, gitlinks: true, git: git)
        var changedFiles: [String: [String]] = [:]
        let diffed = Set(pairs.map(\.commit))  // a set: one lookup per pin, not a scan of the pairs
        for pin in pins where comparisons[pin] != nil {
            let commit = resolved.commit(pin)
            if diffed.contains(commit) { changedFiles[pin] = changed[commit] ?? [] }
        }
        var state = AuditModuleState(
            branches: branches, graph: graph, pinsOnRemote: resolved.onRemote, comparisons: comparisons,
            changedFiles: changedFiles)
        state.pinCommits = resolved.commits
        state.mergedBack = mergedBack
        return state
    }

    /// Commit → paths changed between `base` and `commit`, for many pairs with one `diff-tree --stdin`.
    /// Paths whose old or new entry is a gitlink are left out unless `gitlinks` (the superproject's gitlinks are its
    /// modules, reported per module; a module's own gitlinks are nested submodules, reported as changed files).
    static func changedPaths(
        _ pairs: [(commit: String, base: String)], repository: String, what: String, gitlinks: Bool, git: Git
    ) throws -> [String: [String]] {
        guard !pairs.isEmpty else { return [:] }
        var seen = Set<String>()
        var input = ""
        for pair in pairs where seen.insert(pair.commit).inserted { input += "\(pair.commit) \(pair.base)\n" }
        let output = try git.run(
            ["diff-tree", "--stdin", "-r", "--raw", "-z", "--no-renames"], in: repository, input: Data(input.utf8),
            context: "list the files changed in \(what)")
        guard let parsed = AuditParse.diffTreeRaw(output.stdout, gitlinks: gitlinks) else {
            throw AuditError("cannot parse the changed files of \(what)")
        }
        return parsed
    }
}

/// Pure parsers for the audit's git output.
public enum AuditParse {
    /// Parses `git diff-tree --stdin -r --raw -z` output: a commit id record, then for every change
    /// `:<old mode> <new mode> <old id> <new id> <status>` NUL `<path>` NUL. Returns commit → changed paths
    /// (gitlink changes left out unless `gitlinks`), or nil when the output has another shape.
    public static func diffTreeRaw(_ data: Data, gitlinks: Bool = false) -> [String: [String]]? {
        // One pass over the bytes (no per-field Data or String for the fields that are not kept): at 1000 × 50 the
        // listing has tens of thousands of records.
        data.withUnsafeBytes { (buffer: UnsafeRawBufferPointer) -> [String: [String]]? in
            let bytes = buffer.bindMemory(to: UInt8.self)
            let count = bytes.count
            var result: [String: [String]] = [:]
            var current: String?
            var start = 0
            func field(from position: Int) -> Int? {
                var end = position
                while end < count && bytes[end] != 0 { end += 1 }
                return end < count ? end : nil
            }
            while start < count {
                if bytes[start] == 0 {
                    start += 1
                    continue
                }
                let end = field(from: start) ?? count
                if bytes[start] == UInt8(ascii: ":") {
                    // `:<old mode> <new mode> <old id> <new id> <status>` NUL `<path>` NUL
                    guard let commit = current, end < count else { return nil }
                    let pathEnd = field(from: end + 1) ?? count
                    guard pathEnd > end + 1 else { return nil }
                    var spaces = 0
                    for index in start..<end where bytes[index] == UInt8(ascii: " ") { spaces += 1 }
                    guard spaces >= 4 else { return nil }
                    let isGitlink =
                        Self.isGitlinkMode(bytes, at: start + 1) || Self.isGitlinkMode(bytes, at: start + 8)
                    if gitlinks || !isGitlink {
                        let path = String(
                            decoding: UnsafeBufferPointer(rebasing: bytes[(end + 1)..<pathEnd]), as: UTF8.self)
                        result[commit, default: []].append(path)
                    }
                    start = pathEnd + 1
                } else {
                    let length = end - start
                    guard length == 40 || length == 64 else { return nil }
                    let id = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
                    current = id
                    if result[id] == nil { result[id] = [] }
                    start = end + 1
                }
            }
            return result
        }
    }

    /// Whether the six bytes at `position` are `160000` followed by a space (a gitlink's mode in raw diff output).
    private static func isGitlinkMode(_ bytes: UnsafeBufferPointer<UInt8>, at position: Int) -> Bool {
        let mode: [UInt8] = [49, 54, 48, 48, 48, 48, 32]  // "160000 "
        guard position + mode.count <= bytes.count else { return false }
        for (offset, byte) in mode.enumerated() where bytes[position + offset] != byte { return false }
        return true
    }
}
