import Foundation

/// One `audit --history`: the same cells as audit's at points in the past, from one walk of each repository's
/// history for all the points. Reads the object store only (no working tree); without `fetch` no network.
///
/// git processes: those of the snapshot; in the superproject one dated `log` of the general branch and the tenant
/// branches and one `cat-file --batch` for the pins of every distinct tenant commit at the points; per module one
/// dated `log` of its general branch and every pin, and one `diff-tree --stdin` for the lines of every distinct
/// (pin, merge base) pair. Each distinct (pin, general commit) pair is compared once, in memory.
public struct AuditHistoryRun: Sendable {
    /// The tenants (by id or branch); all when empty.
    public var tenants: [String] = []
    /// The modules (by name); all when empty.
    public var modules: [String] = []
    /// The first point (default: twelve months before the last).
    public var since: HistoryBound?
    /// The last point (default: now).
    public var until: HistoryBound?
    /// How far apart the points are.
    public var every: HistoryStep = .month
    /// Repositories read at the same time.
    public var jobs = 4
    /// When the history is made (`SOURCE_DATE_EPOCH` when set): the default last point.
    public var generatedAt = Date()

    public init() {}

    /// Refuses unknown tenant and module names (before any module is fetched).
    public func checkNames(_ project: Project) throws {
        _ = try AuditRun.selectTenants(tenants, in: project)
        _ = try selectModules(project)
    }

    /// The modules named, in manifest order; all when none is named.
    func selectModules(_ project: Project) throws -> [Module] {
        let all = project.manifest.modules
        guard !modules.isEmpty else { return all }
        let unknown = modules.filter { name in !all.contains { $0.name == name } }
        guard unknown.isEmpty else { throw UnknownNameError(kind: "module", names: unknown, known: all.map(\.name)) }
        return all.filter { modules.contains($0.name) }
    }

    /// The whole run on `workspace`: the remotes fetched under the workspace lock (none without `fetch`), then the
    /// history read.
    public func run(workspace: Workspace, fetch: Bool, wait: Bool, console: Console?) throws -> AuditHistory {
        let lock =
            fetch
            ? try WorkspaceLock(
                gitDirectory: workspace.commonDirectory, waiting: .readOnly(wait: wait), console: console) : nil
        let snapshot: Snapshot
        do {
            defer { lock?.release() }
            let options = Snapshot.Options(
                purpose: .report, fetch: fetch, jobs: jobs, allowLocalRemotes: workspace.git.allowLocalRemotes,
                checkNames: { [self] project in try checkNames(project) })
            snapshot = try Snapshot.load(workspace: workspace, options: options, console: console)
        }
        return try history(snapshot: snapshot, console: console)
    }

    /// The history of the snapshot's repositories.
    public func history(snapshot: Snapshot, console: Console? = nil) throws -> AuditHistory {
        let project = snapshot.project
        let selected = try AuditRun.selectTenants(tenants, in: project)
        let columns = try selectModules(project)
        let general = snapshot.generalBranch
        guard let generalTip = snapshot.branches[general] else {
            throw ObservationError(
                "the superproject has no \(snapshot.ref(general)); fetch it (run without --no-fetch) or check the "
                    + "name of the general branch in modules.json")
        }
        let superproject = snapshot.superproject
        let tips = selected.compactMap { snapshot.branches[$0.branch] }
        let graph = try superproject.datedHistory(
            tips: [generalTip] + Set(tips).subtracting([generalTip]).sorted(), what: "the superproject")
        let generalLine = graph.firstParentLine(from: generalTip)
        let now = Int(generatedAt.timeIntervalSince1970)
        let until = try time(of: self.until, snapshot: snapshot) ?? now
        let since = try time(of: self.since, snapshot: snapshot) ?? HistoryPoints.yearBefore(until)
        let points = HistoryPoints.points(since: since, until: until, step: every, generalLine: generalLine)
        // Each tenant's superproject commit at each point (nil: absent).
        let onGeneral = graph.graph.reachability(from: [generalTip])
        let commits: [[String?]] = selected.map { tenant in
            guard let tip = snapshot.branches[tenant.branch] else { return points.map { _ in nil } }
            let line = graph.firstParentLine(from: tip)
            // The tenant's first own first-parent commit: the oldest one not on the general branch; a branch without
            // one (a tenant just added, still at a general commit) counts from its tip.
            guard let firstOwn = line.last(where: { !onGeneral.contains($0.id) }) ?? line.first else {
                return points.map { _ in nil }
            }
            return points.map { point in
                firstOwn.date <= point ? DatedHistory.commit(at: point, on: line) : nil
            }
        }
        let read = try readColumns(columns, commits: commits, points: points, snapshot: snapshot, console: console)
        let series = selected.indices.map { row in
            HistoryTenant(
                id: selected[row].id, branch: selected[row].branch,
                points: points.indices.map { column in
                    let present = commits[row][column] != nil
                    let oldest = read.compactMap { $0.oldestBehind[row][column] }.min()
                    return HistoryPoint(
                        present: present, cells: read.map { $0.cells[row][column] },
                        behindDays: present ? oldest.map { max(0, (points[column] - $0) / 86_400) } ?? 0 : nil)
                })
        }
        return AuditHistory(
            generalBranch: general, modules: columns.map(\.name), points: points, tenants: series,
            source: AuditSource(
                generalCommit: generalTip, generatedAt: generatedAt, remote: snapshot.workspace.remoteName,
                url: try snapshot.remoteURL ?? SuperprojectRemote.originURL(snapshot.workspace)))
    }

    /// Every module's cells (`commits`: tenant × point, the tenant's superproject commit), with the cache under the
    /// superproject's git directory (``HistoryCache``): what it holds is not read again, what was read is added.
    func readColumns(
        _ columns: [Module], commits: [[String?]], points: [Int], snapshot: Snapshot, console: Console?
    ) throws -> [HistoryColumn] {
        let directory = HistoryCache.directory(snapshot.workspace)
        var cache = HistoryCache.loadPins(directory)
        try readPins(Set(commits.flatMap { $0.compactMap { $0 } }), columns: columns, snapshot: snapshot, into: &cache)
        let pins = cache.pins
        let project = snapshot.project
        let read = try Concurrent.map(columns, jobs: jobs) { module in
            let cellPins = commits.map { row in
                row.map { commit in commit.flatMap { pins[$0]?[module.path] }.flatMap { $0.isEmpty ? nil : $0 } }
            }
            return try HistoryColumn.read(
                module, general: project.generalBranch(of: module), pins: cellPins, points: points,
                snapshot: snapshot, cache: HistoryCache.loadModule(module.name, directory: directory))
        }
        do {
            try cache.savePins(directory)
            for (module, column) in zip(columns, read) {
                try HistoryCache.saveModule(module.name, column.cache, directory: directory)
            }
        } catch {
            // The history is complete; only the next run's time is lost.
            console?.warn("could not keep what --history computed for the next run: \(error)")
        }
        return read
    }

    /// The pins of the modules' paths on the commits the cache lacks, through one `cat-file --batch`.
    func readPins(_ commits: Set<String>, columns: [Module], snapshot: Snapshot, into cache: inout HistoryCache)
        throws
    {
        let paths = columns.map(\.path)
        let missing = commits.filter { commit in
            guard let known = cache.pins[commit] else { return true }
            return paths.contains { known[$0] == nil }
        }
        guard !missing.isEmpty, !columns.isEmpty else { return }
        let batch = try snapshot.superproject.openBatch()
        let read: [String: [String: String]]
        do {
            read = try PinReader.pins(of: missing.sorted(), paths: paths, batch: batch)
            try batch.close()
        } catch {
            try? batch.close()  // the error thrown is the one that stopped the read
            throw error
        }
        for commit in missing {
            for path in paths { cache.pins[commit, default: [:]][path] = read[commit]?[path] ?? "" }
        }
        cache.pinsChanged = true
    }

    /// The time of a bound: a date as given, a revision's committer date (a superproject revision as git names it,
    /// else a branch of the remote); nil without a bound.
    func time(of bound: HistoryBound?, snapshot: Snapshot) throws -> Int? {
        switch bound {
        case nil: return nil
        case .time(let time): return time
        case .revision(let revision):
            let context = "read the committer date of \(revision)"
            if let date = try snapshot.superproject.committerDate(of: revision, context: context) { return date }
            if let tip = snapshot.branches[revision],
                let date = try snapshot.superproject.committerDate(of: tip, context: context)
            {
                return date
            }
            throw ObservationError(
                "\(revision) is neither a date (2026-01-31, 2026-01-31T12:00:00Z) nor a revision of the superproject; "
                    + "try: git -C \(ShellWord.quote(snapshot.workspace.root)) log -1 \(ShellWord.quote(revision))")
        }
    }
}
