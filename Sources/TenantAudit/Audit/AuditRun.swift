import Foundation

/// One `audit`: the tenants chosen, the observation gathered once, the report judged from it, with what it describes
/// and, when asked for, one cell's commits and what the HTML page shows. The command parses its options and renders
/// what this returns; rendering runs no git.
public struct AuditRun: Sendable {
    /// The tenants to audit (by id or branch); all when empty.
    public var tenants: [String]
    /// With one tenant: the module whose cell's commits are listed.
    public var module: String?
    /// The CI gate: `.gitmodules` drift fails it too.
    public var check: Bool
    /// Repositories read at the same time.
    public var jobs: Int
    /// When the report is made (`SOURCE_DATE_EPOCH` when set).
    public var generatedAt: Date
    /// How the checked-out files are validated on a pull request.
    public var validation: ValidationOptions
    /// Gather what the HTML page shows beyond the report (``AuditPage``).
    public var page: Bool
    /// Which reports list the files each customisation changes (one `diff-tree` per repository): the command asks
    /// for them where its format shows them.
    public var changedFiles: ChangedFiles = .computed
    /// Reads the proposals of the review rolls as the run journal has them, for the project read (the command
    /// gives it: the journal is above this layer); the report shows the ones still followed, and their findings.
    /// Nil: none.
    public var reviews: (@Sendable (Project) throws -> [ObservedReview])?
    /// Reads the landings by squash or rebase that the remotes show (``AuditRemoteLandings``), shown beside the
    /// journals' reviews (``FindingJudge/reviews(journal:remote:)``). Nil: none.
    public var remoteLandings: AuditRemoteLandings?

    public init(
        tenants: [String] = [], module: String? = nil, check: Bool = false, jobs: Int = 4,
        generatedAt: Date = Date(), validation: ValidationOptions = ValidationOptions(), page: Bool = false
    ) {
        self.tenants = tenants
        self.module = module
        self.check = check
        self.jobs = jobs
        self.generatedAt = generatedAt
        self.validation = validation
        self.page = page
    }

    /// Whether a report lists the files each customisation changes, in every cell (`changedFiles`).
    public enum ChangedFiles: Sendable, Equatable {
        /// Listed (the HTML page, Markdown, the table's matrix, `audit --changed-files`).
        case computed
        /// Not computed: every cell's `changedFiles` is nil (the JSON without `--changed-files`).
        case notComputed
        /// Listed when the report has at most this many tenants (invalid tenant files included), else not
        /// computed: the table, whose compact view above that many shows no changed files.
        case upToTenants(Int)

        /// Whether a report of `tenants` tenants lists them.
        public func computed(tenants: Int) -> Bool {
            switch self {
            case .computed: true
            case .notComputed: false
            case .upToTenants(let limit): tenants <= limit
            }
        }
    }

    /// Refuses unknown tenant and module names (before any module is fetched).
    public func checkNames(_ project: Project) throws {
        _ = try Self.selectTenants(tenants, in: project)
        if let module, !project.manifest.modules.contains(where: { $0.name == module }) {
            throw UnknownNameError(kind: "module", names: [module], known: project.manifest.modules.map(\.name))
        }
    }

    /// The whole audit of `workspace`: the remotes fetched into the mirrors under the workspace lock (waiting for it
    /// with `wait`; no lock without `fetch`: reading the mirrors needs none), unknown names refused before any module
    /// is fetched, then the facts read and judged. Returns the report and, with ``page``, what the HTML page shows
    /// beyond it. Every repository read is the workspace's or its snapshot's.
    public func run(workspace: Workspace, fetch: Bool, wait: Bool, console: Console?) throws -> (
        report: AuditReport, page: AuditPage?
    ) {
        AuditMemory.limitArenas()
        let lock =
            fetch
            ? try WorkspaceLock(
                gitDirectory: workspace.commonDirectory, waiting: .readOnly(wait: wait), console: console) : nil
        let snapshot: Snapshot
        do {
            defer { lock?.release() }
            var options = Snapshot.Options(
                purpose: .report, fetch: fetch, jobs: jobs, allowLocalRemotes: workspace.git.allowLocalRemotes,
                checkNames: { [self] project in try checkNames(project) })
            // The modules' branches are read with their graphs (ObservationReader): one listing per repository.
            options.listModuleBranches = false
            // The pins are read through the `cat-file --batch` that read the project files.
            options.keepBatch = true
            snapshot = try Self.load(workspace: workspace, options: options, console: console)
            if fetch, let remoteLandings {
                do {
                    try remoteLandings.fetch(snapshot)
                } catch {
                    try? snapshot.batch?.close()  // the error thrown is the one that stopped the fetch
                    throw error
                }
            }
        }
        let observed: (report: AuditReport, observation: ProjectObservation)
        do {
            observed = try observedReport(snapshot: snapshot)
        } catch {
            try? snapshot.batch?.close()  // the error thrown is the one that stopped the read
            throw error
        }
        try snapshot.batch?.close()
        let (report, observation) = observed
        guard page else { return (report, nil) }
        return (report, try pageFacts(report, observation: observation, snapshot: snapshot))
    }

    /// The snapshot of the remotes; before the files' first push (right after `tenantctl init`, while the remote's
    /// general branch has no `modules.json` yet), taken with the working tree's files, as verify does, and that is
    /// said. The error of the first load stands when the remote has the files, or the fetch itself failed; invalid
    /// working-tree files are refused naming each problem.
    static func load(workspace: Workspace, options: Snapshot.Options, console: Console?) throws -> Snapshot {
        do {
            return try Snapshot.load(workspace: workspace, options: options, console: console)
        } catch let error as GitError {
            throw error
        } catch let error as ManifestError {
            throw error
        } catch {
            let hint = ProjectReader.generalBranchHint(workspace).branch ?? ModuleManifest.defaultGeneralBranch
            guard FileManager.default.fileExists(atPath: workspace.path(ProjectReader.manifestPath)),
                try SuperprojectRemote.originURL(workspace) != nil,
                try !Snapshot.remoteHasProjectFiles(workspace, branch: hint)
            else { throw error }
            let project = try ProjectReader.workingTree(workspace, options: options.validation)
            let general = project.manifest.generalBranch
            guard try SuperprojectRemote.branches(workspace)[general] != nil,
                try !Snapshot.remoteHasProjectFiles(workspace, branch: general)
            else { throw error }
            console?.progress(
                "note: \(workspace.remoteName)/\(general) has no modules.json yet (not pushed since tenantctl init): "
                    + "audit reads modules.json and Tenants/ from the working tree, as verify does, and the "
                    + "branches and modules from the remote")
            var retry = options
            retry.project = project
            retry.superprojectFetched = options.fetch
            return try Snapshot.load(workspace: workspace, options: retry, console: console)
        }
    }

    /// The report.
    ///
    /// git processes: those of ``ObservationReader``; `rev-parse HEAD` and the remote's URL; four more for one
    /// cell's commits; those of ``remoteLandings`` (none for a project without review settings).
    public func report(snapshot: Snapshot) throws -> AuditReport {
        try observedReport(snapshot: snapshot).report
    }

    /// The report and the observation it was judged from (the HTML page reads the modules' general branches there).
    public func observedReport(snapshot: Snapshot) throws -> (
        report: AuditReport, observation: ProjectObservation
    ) {
        let project = snapshot.project
        let selected = try Self.selectTenants(tenants, in: project)
        let invalidNamed = Set(tenants.compactMap { project.invalidTenant(id: $0)?.id })
        let invalid = project.invalidTenants.filter { tenants.isEmpty || invalidNamed.contains($0.id) }
        let listsChangedFiles = changedFiles.computed(tenants: selected.count + invalid.count)
        let observation = try ObservationReader.read(
            snapshot: snapshot, tenants: selected,
            options: ObservationReader.Options(jobs: jobs, changedFiles: listsChangedFiles), batch: snapshot.batch)
        var findings = try checkedOutFindings(snapshot)
        if check {
            findings += FindingJudge.gitmodulesFindings(project: project, observation: observation)
                .map(AuditFinding.init)
        }
        var report = Auditor.report(
            project: project, tenants: selected, observation: observation, invalidTenants: invalid,
            findings: findings, changedFiles: listsChangedFiles)
        // A report says what it describes: the general branch's commit, the remote, the time, the version.
        report.source = AuditSource(
            generalCommit: observation.superproject.generalTip, generatedAt: generatedAt,
            remote: snapshot.workspace.remoteName,
            url: try snapshot.remoteURL ?? SuperprojectRemote.originURL(snapshot.workspace))
        if reviews != nil || remoteLandings != nil {
            let shown = FindingJudge.reviews(
                journal: try reviews?(project) ?? [], remote: try remoteLandings?.read(snapshot, observation) ?? [])
            report = Auditor.adding(shown, to: report, observation: observation, now: generatedAt)
        }
        if let module {
            report.cell = try cellCommits(
                module, report: report, snapshot: snapshot, observation: observation)
        }
        return (report, observation)
    }

    /// What the HTML page shows that the report does not carry: the tenants' display names, the modules' paths and
    /// the cells' commits (bounded: ``AuditPageCommits``), read from the modules' mirrors.
    func pageFacts(
        _ report: AuditReport, observation: ProjectObservation, snapshot: Snapshot
    ) throws -> AuditPage {
        let project = snapshot.project
        var names: [String: String] = [:]
        for tenant in project.tenants { names[tenant.id] = tenant.name }
        var paths: [String: String] = [:]
        var sources: [String: AuditPageCommits.Source] = [:]
        for module in project.manifest.modules {
            paths[module.name] = module.path
            // A module whose mirror is missing (an unreachable remote) has `?` cells with a finding: no commits.
            if let general = observation.modules[module.name]?.branches[project.generalBranch(of: module)],
                let mirror = snapshot.existingMirror(of: module.name)
            {
                sources[module.name] = AuditPageCommits.Source(generalCommit: general, repository: mirror)
            }
        }
        let commits = try AuditPageCommits.load(report, sources: sources, jobs: jobs)
        return AuditPage(tenantNames: names, modulePaths: paths, commits: commits)
    }

    /// The commits of the one tenant's `module` cell, or nil when there is no pin or general branch to compare (the
    /// report's findings say why).
    func cellCommits(
        _ module: String, report: AuditReport, snapshot: Snapshot, observation: ProjectObservation
    ) throws -> AuditCellCommits? {
        guard let tenant = report.tenants.first,
            let entry = tenant.modules.first(where: { $0.module == module }), let pin = entry.pin,
            let declared = snapshot.project.module(named: module)
        else { return nil }
        let general = snapshot.project.generalBranch(of: declared)
        guard let generalCommit = observation.modules[module]?.branches[general] else { return nil }
        return try AuditCellCommits.load(
            tenant: tenant.id, module: module, pin: pin, generalBranch: general, generalCommit: generalCommit,
            repository: try snapshot.mirrorRepository(of: module))
    }

    /// On a pull request (HEAD is not the fetched general branch) the checked-out `modules.json` and `Tenants/` are
    /// validated too, so that a change that breaks them fails the gate.
    func checkedOutFindings(_ snapshot: Snapshot) throws -> [AuditFinding] {
        let workspace = snapshot.workspace
        guard FileManager.default.fileExists(atPath: workspace.path(ProjectReader.manifestPath)) else { return [] }
        guard
            let head = try workspace.superproject.objectID(
                of: "HEAD", peeledTo: .commit, context: "read HEAD of the superproject")?.hex,
            head != snapshot.branches[snapshot.generalBranch]
        else { return [] }
        do {
            _ = try ProjectReader.workingTree(workspace, options: validation)
            return []
        } catch let error as ManifestError {
            return error.problems.map { problem in
                let tenantFile = problem.file.hasPrefix(ProjectReader.tenantsDirectory + "/")
                return AuditFinding(
                    tenantFile ? .invalidTenantFile : .invalidFile,
                    "checked-out \(problem.description) (HEAD differs from \(snapshot.generalBranch))")
            }
        }
    }

    /// The tenants named (by id or branch), in file order; all when none is named.
    public static func selectTenants(_ tenants: [String], in project: Project) throws -> [Tenant] {
        guard !tenants.isEmpty else { return project.tenants }
        let unknown = tenants.filter { project.tenant(id: $0) == nil && project.invalidTenant(id: $0) == nil }
        guard unknown.isEmpty else {
            throw UnknownNameError(kind: "tenant", names: unknown, known: project.tenants.map(\.id))
        }
        let wanted = Set(tenants.compactMap { project.tenant(id: $0)?.id })
        return project.tenants.filter { wanted.contains($0.id) }
    }
}
