import Foundation

/// The snapshot could not be taken: no remote, no general branch, a module that cannot be reached.
public struct SnapshotError: Error, Sendable, Equatable, CustomStringConvertible {
    public var description: String

    public init(_ description: String) { self.description = description }
}

/// The remotes as fetched, built once per run: the superproject's remote branches, the project (`modules.json`,
/// `Tenants/`) read at the general branch, and a mirror of every module with its branches.
///
/// This is the only place that fetches for the repository-wide commands (roll, audit, verify, the lifecycle
/// commands, compose from refs) and the only place that decides which refs are "the remote's". Commands plan
/// against the snapshot and push with fast-forward checks or leases, so a remote that moved since the fetch rejects
/// the push instead of losing work.
public struct Snapshot: Sendable {
    /// How to take the snapshot.
    public struct Options: Sendable {
        /// Fetch the superproject and the modules first (`--no-fetch` turns it off).
        public var fetch: Bool
        /// Module repositories fetched at the same time.
        public var jobs: Int
        /// How the project files are validated.
        public var validation: ValidationOptions
        /// Go on when some module repositories cannot be fetched: they are listed in ``Snapshot/unreachable``
        /// (roll, audit and verify report them per module); otherwise the load fails naming every one.
        public var allowUnreachableModules: Bool
        /// The project to use instead of the one committed on the remote's general branch: `verify` before the
        /// files' first push checks the working tree's files against the remotes.
        public var project: Project?
        /// Checks the names a command was given against the project read from the superproject, before any module
        /// is fetched: an unknown tenant or module costs one fetch, not one per module.
        public var checkNames: (@Sendable (Project) throws -> Void)?
        /// Keep the superproject's `cat-file --batch` the project files were read with open, in
        /// ``Snapshot/batch``, for the caller's further reads (roll reads every branch's files and trees through
        /// it); the caller closes it.
        public var keepBatch = false
        /// The superproject was fetched already by this run (a second snapshot, with other project files): only the
        /// modules are fetched, and "fetching the superproject" is not said twice.
        public var superprojectFetched = false
        /// List each module mirror's branches (one `for-each-ref` per module). Off for audit: ``ObservationReader``
        /// reads them with each module's commit graph, one listing per repository; the snapshot's
        /// ``Snapshot/moduleBranches`` stay empty (``Snapshot/moduleBranchesListed`` is false).
        public var listModuleBranches = true

        /// What a snapshot is taken for; it decides how strict the snapshot is.
        public enum Purpose: Sendable {
            /// A command that reports or plans per tenant and module (audit, verify, roll): invalid tenant files and
            /// module remotes that cannot be fetched stay in the snapshot, to be reported (or blocked) one by one.
            case report
            /// Any other command: every file valid, every module remote fetched, or no snapshot.
            case strict
        }

        /// The options of a snapshot taken for `purpose`: the one place where they are decided.
        public init(
            purpose: Purpose, fetch: Bool = true, jobs: Int = 4, allowLocalRemotes: Bool, project: Project? = nil,
            checkNames: (@Sendable (Project) throws -> Void)? = nil
        ) {
            let partial = purpose == .report
            self.init(
                fetch: fetch, jobs: jobs,
                validation: ValidationOptions(allowLocalRemotes: allowLocalRemotes, keepInvalidTenants: partial),
                allowUnreachableModules: partial, project: project, checkNames: checkNames)
        }

        public init(
            fetch: Bool = true, jobs: Int = 4, validation: ValidationOptions = .init(),
            allowUnreachableModules: Bool = false, project: Project? = nil,
            checkNames: (@Sendable (Project) throws -> Void)? = nil
        ) {
            self.fetch = fetch
            self.jobs = jobs
            self.validation = validation
            self.allowUnreachableModules = allowUnreachableModules
            self.project = project
            self.checkNames = checkNames
        }
    }

    /// The superproject working copy (or bare repository) the run started in.
    public var workspace: Workspace
    /// The project as committed on the remote's general branch.
    public var project: Project
    /// Where the superproject's fetched branches are: tenantctl's own namespace, `refs/tenantctl/remotes/<remote>/`
    /// (``SuperprojectRemote``), whatever the clone's refspec.
    public var refPrefix: String
    /// Superproject branch name → commit, as on the remote.
    public var branches: [String: String]
    /// Module name → mirror spec (resolved remote URL).
    public var specs: [String: MirrorSpec]
    /// Module name → mirror path.
    public var mirrors: [String: String]
    /// Module name → branch name → commit, as on the module's remote; empty when ``moduleBranchesListed`` is false.
    public var moduleBranches: [String: [String: String]]
    /// Whether ``moduleBranches`` were listed (``Options/listModuleBranches``); when not, ``ObservationReader`` reads
    /// them with the modules' graphs.
    public var moduleBranchesListed = true
    /// Module name → why it could not be fetched (only with ``Options/allowUnreachableModules``); such a module has
    /// no mirror and no branches in this snapshot.
    public var unreachable: [String: String] = [:]
    /// The superproject's `cat-file --batch`, started after the fetch, when ``Options/keepBatch`` asked for it;
    /// the caller closes it.
    public var batch: CatFileBatch?
    /// The configured URL of the superproject's remote, as read by ``load(workspace:options:console:)`` (nil
    /// in a snapshot made from parts).
    public var remoteURL: String?
    /// Whether ``load(workspace:options:console:)`` fetched the remotes (false with `--no-fetch`): what reads
    /// more of a remote later (the forges' review refs) fetches only then.
    public var fetched = false

    /// The general branch's name (from the `modules.json` read at it).
    public var generalBranch: String { project.manifest.generalBranch }

    /// Creates a snapshot from parts already read (tests, and commands that read state another way).
    public init(
        workspace: Workspace, project: Project, refPrefix: String = "refs/tenantctl/remotes/origin/",
        branches: [String: String], specs: [String: MirrorSpec], mirrors: [String: String],
        moduleBranches: [String: [String: String]]
    ) {
        self.workspace = workspace
        self.project = project
        self.refPrefix = refPrefix
        self.branches = branches
        self.specs = specs
        self.mirrors = mirrors
        self.moduleBranches = moduleBranches
    }

    /// Fetches the superproject and every module (unless `options.fetch` is false), then reads the snapshot.
    ///
    /// git processes: one fetch of the superproject, one `for-each-ref` of it, one `ls-tree` and one
    /// `cat-file --batch` for the project files (kept open with ``Options/keepBatch``), and per module one fetch (or
    /// clone) and one `for-each-ref` (none with ``Options/listModuleBranches`` off).
    public static func load(workspace: Workspace, options: Options, console: Console? = nil) throws
        -> Snapshot
    {
        guard let originURL = try SuperprojectRemote.originURL(workspace) else {
            do {
                try SuperprojectRemote.requireRemote(workspace)
            } catch let error as SnapshotError {
                throw SnapshotError(
                    error.description + "; the repository-wide commands (roll, audit, verify, customize, tenant, "
                        + "module, tag) work on the remotes")
            }
            throw SnapshotError("the superproject has no remote '\(workspace.remoteName)'")
        }
        if options.fetch, !options.superprojectFetched {
            console?.progress("fetching the superproject")
            try SuperprojectRemote.fetch(workspace, remoteChecked: true)
        }
        let refPrefix = SuperprojectRemote.refPrefix(workspace)
        let branches = try SuperprojectRemote.branches(workspace)
        if branches.isEmpty && !options.fetch {
            throw SnapshotError(
                "tenantctl has not fetched the superproject's remote \(workspace.remoteName) in this clone yet; run "
                    + "once without --no-fetch")
        }
        let batch = options.keepBatch ? try workspace.superproject.openBatch() : nil
        var handedOn = false
        // On an error the batch is ended here; the error thrown is the one that stopped the load.
        defer { if !handedOn { try? batch?.close() } }
        let project =
            try options.project
            ?? readProject(
                workspace: workspace, branches: branches, refPrefix: refPrefix, options: options.validation,
                batch: batch)
        try options.checkNames?(project)
        let specList = try ModuleRemotes.specs(
            for: project.manifest.modules, base: originURL, allowLocalRemotes: workspace.git.allowLocalRemotes)
        let store = ModuleMirrors(workspace: workspace)
        let synced: (mirrors: [String: String], failures: [(module: String, error: String)])
        if options.fetch {
            let count = specList.count
            console?.progress(
                "fetching \(count) module repositor\(count == 1 ? "y" : "ies") (\(options.jobs) at a time)")
            synced = store.syncEach(specList, jobs: options.jobs, console: console)
        } else {
            synced = store.existingEach(specList)
        }
        guard synced.failures.isEmpty || options.allowUnreachableModules else {
            throw MirrorError(failures: synced.failures)
        }
        let mirrors = synced.mirrors
        let listed = options.listModuleBranches ? Array(mirrors).sorted { $0.key < $1.key } : []
        let moduleBranches = try Concurrent.map(listed, jobs: options.jobs) { name, path in
            (
                name,
                try workspace.superproject.repository(at: path).branches(under: "refs/heads/", what: "module \(name)")
            )
        }
        var snapshot = Snapshot(
            workspace: workspace, project: project, refPrefix: refPrefix, branches: branches,
            specs: Dictionary(uniqueKeysWithValues: specList.map { ($0.name, $0) }), mirrors: mirrors,
            moduleBranches: Dictionary(uniqueKeysWithValues: moduleBranches))
        snapshot.unreachable = Dictionary(synced.failures, uniquingKeysWith: { first, _ in first })
        snapshot.moduleBranchesListed = options.listModuleBranches
        snapshot.remoteURL = originURL
        snapshot.fetched = options.fetch
        snapshot.batch = batch
        handedOn = true
        return snapshot
    }

    /// Reads the project at the general branch. The general branch is named by the `modules.json` that lives on
    /// it: the candidate is the working tree's `generalBranch` (or `general_dev` when the working tree's file cannot
    /// be read), and the file read at the candidate must name the same branch, or the branch it names is read.
    /// A working tree without the file (a tenant branch before its first roll) takes the branch that names itself
    /// the general branch in its own file (``GeneralBranchLocator``).
    static func readProject(
        workspace: Workspace, branches: [String: String], refPrefix: String, options: ValidationOptions,
        batch: CatFileBatch? = nil
    ) throws -> Project {
        var hint = ProjectReader.generalBranchHint(workspace)
        if hint.branch == nil, !FileManager.default.fileExists(atPath: workspace.path(ProjectReader.manifestPath)),
            let found = try GeneralBranchLocator.find(workspace)
        {
            hint = (found.name, nil)
        }
        let candidate = hint.branch ?? ModuleManifest.defaultGeneralBranch
        guard branches[candidate] != nil else {
            var message =
                "the superproject's remote has no branch \(candidate), where tenantctl reads modules.json and "
                + "Tenants/ from"
            if let problem = hint.problem {
                message += " (the working tree's modules.json names no general branch: \(problem))"
            } else if hint.branch != nil {
                message += " (named by generalBranch in the working tree's modules.json)"
            }
            throw SnapshotError(message + "; push it first (`tenantctl init` creates the files)")
        }
        let project = try ProjectReader.revision(
            refPrefix + candidate, in: workspace.superproject, options: options, batch: batch)
        let declared = project.manifest.generalBranch
        guard declared != candidate else { return project }
        guard branches[declared] != nil else {
            throw SnapshotError(
                "modules.json on \(workspace.remoteName)/\(candidate) names the general branch \(declared), which the "
                    + "superproject's remote does not have")
        }
        let named = try ProjectReader.revision(
            refPrefix + declared, in: workspace.superproject, options: options, batch: batch)
        guard named.manifest.generalBranch == declared else {
            throw SnapshotError(
                "modules.json on \(workspace.remoteName)/\(candidate) names the general branch \(declared), but "
                    + "modules.json on \(declared) names \(named.manifest.generalBranch)")
        }
        return named
    }

    /// Whether the remote's `branch`, as last fetched, has a `modules.json` (false before the files' first push).
    public static func remoteHasProjectFiles(_ workspace: Workspace, branch: String) throws -> Bool {
        try workspace.superproject.hasObject(
            SuperprojectRemote.refPrefix(workspace) + branch + ":" + ProjectReader.manifestPath,
            context: "look for modules.json on the remote's \(branch)")
    }

    /// The fetched ref of a superproject branch (`refs/tenantctl/remotes/origin/<branch>`).
    public func ref(_ branch: String) -> String { refPrefix + branch }

    /// The commit of a superproject branch on the remote.
    public func branch(_ name: String) throws -> String {
        guard let id = branches[name] else {
            throw SnapshotError("the superproject's remote has no branch \(name)")
        }
        return id
    }

    /// The mirror of a module.
    public func mirror(_ module: String) throws -> String {
        guard let mirror = mirrors[module] else {
            if let error = unreachable[module] {
                throw SnapshotError("module \(module) could not be fetched: \(error)")
            }
            throw SnapshotError("module \(module) has no mirror")
        }
        return mirror
    }

    /// The superproject's repository.
    public var superproject: GitRepository { workspace.superproject }

    /// The repository of a module's mirror; throws as ``mirror(_:)`` does when the module has none.
    public func mirrorRepository(of module: String) throws -> GitRepository {
        superproject.repository(at: try mirror(module))
    }

    /// The repository of a module's mirror; nil when the module has none in this snapshot.
    public func existingMirror(of module: String) -> GitRepository? {
        mirrors[module].map { superproject.repository(at: $0) }
    }

    /// Module path → pinned commit on a superproject commit (only gitlinks).
    public func pins(at commit: String) throws -> [String: String] {
        try superproject.pins(at: commit, paths: project.manifest.modules.map(\.path))
    }

    /// Whether `ancestor` is reachable from `descendant` in a module mirror (both must exist there).
    public func isAncestor(_ ancestor: String, of descendant: String, module: String) throws -> Bool {
        try mirrorRepository(of: module).isAncestor(
            ancestor, of: descendant,
            context: "check whether \(ObjectID.short(ancestor)) is on \(ObjectID.short(descendant)) in \(module)")
    }

    /// Whether a commit exists in a module mirror.
    public func hasCommit(_ commit: String, module: String) throws -> Bool {
        try mirrorRepository(of: module).hasObject(
            commit + "^{commit}", context: "look up \(ObjectID.short(commit)) in \(module)")
    }

    /// The tenant files as they are after replacing or removing some (for validating a change with the loader).
    public func tenantFiles(replacing changed: [Tenant], removing removed: Set<String> = []) -> [SourceFile] {
        var byID: [String: Tenant] = [:]
        for tenant in project.tenants { byID[tenant.id] = tenant }
        for tenant in changed { byID[tenant.id] = tenant }
        return byID.values.filter { !removed.contains($0.id) }.sorted { $0.id < $1.id }.map {
            SourceFile(path: ProjectReader.tenantPath($0.id), data: $0.encoded())
        }
    }
}
