import Foundation
import TenantKit

/// Materialises the thesis' ERP example (``ExampleScenario``) as real repositories:
///
/// - `<dir>/remotes/<Module>.git`: one bare repository per module with `general_dev` and the tenant branches;
/// - `<dir>/remotes/Superproject.git`: the bare superproject with `.gitmodules` (relative URLs `../<Module>.git`,
///   paths `Modules/<Module>`, submodule names = module names), `modules.json`, `Tenants/` and the branding files,
///   on branches `general_dev`, `t1`, `t2`, `t3`;
/// - `<dir>/workspace`: a clone of the superproject on `general_dev`, submodules initialised and each on a local
///   `general_dev` branch tracking `origin/general_dev` (not detached).
///
/// Superproject history: `general_dev` has two commits (files, then the submodules pinned to every module's
/// `general_dev` tip); each tenant branch is `general_dev` plus one commit with its branding (AF.1) that also
/// re-pins the modules the tenant customised to the tip of their tenant branch (t2: Infrastructure and Customer,
/// t3: Order).
///
/// Decision: every superproject branch keeps the gitlinks of all four modules, also `t2`, which does not use
/// Article and Order. The thesis does the same (chapter 5.3.5: the subprojects stay in the `t2` branch, only
/// linking and ActiveModules leave them out), and it keeps roll's pin rule uniform: every branch pins every module.
/// Which modules a tenant actually uses is the `modules` list of `Tenants/<id>.json`.
///
/// Determinism: every repository is written by one `git fast-import` process from a stream with a fixed author,
/// committer and explicit dates (2013-01-01 plus one hour per commit, the updates a month later) and an explicit
/// SHA-1 object format, so commit ids are identical on every run and machine. Stage `after-updates` only adds the
/// update commits on top; every other commit id is the same as in `before-updates`.
///
/// Safety: refuses an existing non-empty directory before writing anything. Local (`file`) remotes are allowed only
/// for the clone of the repositories it has just created.
public struct ExampleBuilder: Sendable {
    /// Author and committer of every example commit.
    public static let identity = "tenantctl example <example@tenantctl.invalid>"
    /// The date of the first commit (2013-01-01T00:00:00Z, the thesis' year).
    public static let baseTime = 1_356_998_400
    /// The name of the superproject repository under `remotes/`.
    public static let superprojectName = "Superproject"

    /// The runner the example's repositories are created with: before the example exists there is no workspace to
    /// hand them out, so the builder, which creates them, does (``repository(at:)``, ``remote(_:in:)``).
    let git: Git

    /// Creates a builder that runs `git`.
    public init(git: Git) {
        self.git = git
    }

    /// The example's repository at `path`: a bare remote under `remotes/`, or a checkout in its workspace.
    public func repository(at path: String) -> GitRepository { git.repository(at: path) }

    /// The bare remote of `name` (a module, or ``superprojectName``) in the example's `remotes` directory.
    public func remote(_ name: String, in remotes: String) -> GitRepository {
        repository(at: "\(remotes)/\(name).git")
    }

    /// Creates the example in `directory` (missing or empty).
    public func build(in directory: String, stage: ExampleStage) throws -> ExampleResult {
        let root = URL(fileURLWithPath: directory).standardizedFileURL.path
        let createdRoot = try Self.prepare(root)
        let remotes = root + "/remotes"
        let workspace = root + "/workspace"
        do {
            var clock = Clock()
            var branches: [String: [String: String]] = [:]
            var pins: [String: [String: String]] = [:]
            for repo in ExampleScenario.modules {
                let written = try writeModule(repo, to: "\(remotes)/\(repo.name).git", stage: stage, clock: &clock)
                branches[repo.name] = written.tips
                pins[repo.name] = written.pins
            }
            branches[Self.superprojectName] = try writeSuperproject(
                to: "\(remotes)/\(Self.superprojectName).git", pins: pins, clock: &clock)
            try cloneWorkspace(from: "\(remotes)/\(Self.superprojectName).git", to: workspace)
            return ExampleResult(
                directory: root, remotes: remotes, workspace: workspace, stage: stage, branches: branches)
        } catch {
            // Leave the directory as it was found (missing or empty): remove only what this run created.
            try? FileManager.default.removeItem(atPath: remotes)
            try? FileManager.default.removeItem(atPath: workspace)
            if createdRoot { try? FileManager.default.removeItem(atPath: root) }
            throw error
        }
    }

    /// Lands the general changes AF.5/AF.6 on the modules' `general_dev` in an example built at stage
    /// `before-updates` (what `--stage after-updates` does at build time; the commit ids are the same).
    /// The superproject pins do not move: that is roll's job. Returns module → new `general_dev` tip.
    @discardableResult
    public func landUpdates(remotes: String) throws -> [String: String] {
        try land(ExampleScenario.modules.map { ($0.name, $0.updates) }, remotes: remotes)
    }

    /// Lands the general changes of stage `conflict` (``ExampleScenario/conflicts``) on the modules' `general_dev` in
    /// an example whose updates have landed (and may have been rolled): what `--stage conflict` adds at build time,
    /// with the same commit ids. Returns module → new `general_dev` tip.
    @discardableResult
    public func landConflicts(remotes: String) throws -> [String: String] {
        try land(
            ExampleScenario.modules.map { ($0.name, ExampleScenario.conflicts[$0.name] ?? []) }, remotes: remotes,
            conflicts: true)
    }

    /// Appends `commits` to each module's `general_dev` on its remote.
    func land(_ commits: [(module: String, commits: [ExampleCommit])], remotes: String, conflicts: Bool = false)
        throws -> [String: String]
    {
        var clock = Clock()
        var tips: [String: String] = [:]
        let general = ExampleScenario.generalBranch
        for (name, updates) in commits where !updates.isEmpty {
            var stream = FastImportStream()
            var parent: Int?
            for update in updates {
                parent = stream.commit(
                    ref: general, parent: parent, parentRef: parent == nil ? "refs/heads/\(general)^0" : nil,
                    time: conflicts ? clock.nextConflict() : clock.nextUpdate(), message: update.message,
                    changes: FastImportStream.changes(update.files))
            }
            let ids = try remote(name, in: remotes).fastImport(
                stream.finished(), marks: stream.marks, context: "land the general changes on \(name)")
            tips[name] = ids.last
        }
        return tips
    }

    /// Checks that `root` is missing or an empty directory, and creates it if missing; returns whether it did.
    static func prepare(_ root: String) throws -> Bool {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: root, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else {
                throw ExampleError(description: "cannot create the example in \(root): it is a file, not a directory")
            }
            let contents: [String]
            do {
                contents = try FileManager.default.contentsOfDirectory(atPath: root)
            } catch {
                // Unreadable is not "empty": refuse rather than write into a directory we cannot inspect.
                throw ExampleError(
                    description: "cannot read \(root): \(error.localizedDescription); nothing was written")
            }
            guard contents.isEmpty else {
                throw ExampleError(
                    description:
                        "refusing to create the example in \(root): the directory is not empty (nothing was written); "
                        + "name a new or empty directory")
            }
            return false
        } else {
            do {
                try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
            } catch {
                throw ExampleError(description: "cannot create \(root): \(error.localizedDescription)")
            }
            return true
        }
    }

    // MARK: - Modules

    /// Writes one module repository; returns the branch tips on the remote and the tips the superproject pins
    /// (before the updates).
    func writeModule(_ repo: ExampleModuleRepo, to path: String, stage: ExampleStage, clock: inout Clock) throws -> (
        tips: [String: String], pins: [String: String]
    ) {
        var stream = FastImportStream()
        var lastMark: [String: Int] = [:]
        for branch in repo.branches {
            var parent: Int?
            if let from = branch.from {
                guard let mark = lastMark[from] else {
                    throw ExampleError(description: "\(repo.name): branch \(branch.name) forks from unknown \(from)")
                }
                parent = mark
            }
            for commit in branch.commits {
                parent = stream.commit(
                    ref: branch.name, parent: parent, time: clock.next(), message: commit.message,
                    changes: FastImportStream.changes(commit.files))
            }
            if let parent { lastMark[branch.name] = parent }
            if branch.commits.isEmpty, let parent { stream.reset(ref: branch.name, to: parent) }
        }
        let pinMarks = lastMark
        if stage == .afterUpdates || stage == .conflict {
            let general = ExampleScenario.generalBranch
            for update in repo.updates {
                lastMark[general] = stream.commit(
                    ref: general, parent: lastMark[general], time: clock.nextUpdate(), message: update.message,
                    changes: FastImportStream.changes(update.files))
            }
            // The conflicting changes have a clock of their own: every other commit id is that of after-updates.
            for change in stage == .conflict ? ExampleScenario.conflicts[repo.name] ?? [] : [] {
                lastMark[general] = stream.commit(
                    ref: general, parent: lastMark[general], time: clock.nextConflict(), message: change.message,
                    changes: FastImportStream.changes(change.files))
            }
        }
        let ids = try importStream(stream, into: path, context: "write the example repository \(repo.name)")
        return (lastMark.mapValues { ids[$0] ?? "" }, pinMarks.mapValues { ids[$0] ?? "" })
    }

    // MARK: - Superproject

    func writeSuperproject(to path: String, pins: [String: [String: String]], clock: inout Clock) throws -> [String:
        String]
    {
        let general = ExampleScenario.generalBranch
        var stream = FastImportStream()
        var files = ExampleScenario.superprojectGeneralFiles
        files["modules.json"] = ExampleScenario.modulesJSON
        for tenant in ExampleScenario.tenantJSON { files["Tenants/\(tenant.id).json"] = tenant.json }
        let first = stream.commit(
            ref: general, parent: nil, time: clock.next(),
            message: "ERP app superproject: colour scheme, strings configuration, modules.json and tenants",
            changes: files.sorted { $0.key < $1.key }.map { ($0.key, .blob($0.value)) })

        var gitmodules = ""
        var generalPins: [(String, FastImportStream.Change)] = []
        for repo in ExampleScenario.modules {
            gitmodules += "[submodule \"\(repo.name)\"]\n\tpath = Modules/\(repo.name)\n\turl = ../\(repo.name).git\n"
            guard let pin = pins[repo.name]?[general] else {
                throw ExampleError(description: "\(repo.name) has no \(general) branch")
            }
            generalPins.append(("Modules/\(repo.name)", .gitlink(pin)))
        }
        let modulesCommit = stream.commit(
            ref: general, parent: first, time: clock.next(),
            message: "Modules as git submodules, pinned to their general_dev (thesis 5.3.3)",
            changes: [(".gitmodules", .blob(gitmodules))] + generalPins)

        var marks = [general: modulesCommit]
        for tenant in ExampleScenario.tenantJSON {
            var changes: [(String, FastImportStream.Change)] = (ExampleScenario.tenantBranding[tenant.id] ?? [:])
                .sorted { $0.key < $1.key }.map { ($0.key, .blob($0.value)) }
            var customised: [String] = []
            for repo in ExampleScenario.modules {
                if let pin = pins[repo.name]?[tenant.id] {
                    changes.append(("Modules/\(repo.name)", .gitlink(pin)))
                    customised.append("\(repo.name)@\(tenant.id)")
                }
            }
            let pinned = customised.isEmpty ? "" : "; pin " + customised.joined(separator: ", ")
            marks[tenant.id] = stream.commit(
                ref: tenant.id, parent: modulesCommit, time: clock.next(),
                message: "\(tenant.id): colour scheme, app name and images (AF.1)\(pinned)", changes: changes)
        }
        let ids = try importStream(stream, into: path, context: "write the example superproject")
        return marks.mapValues { ids[$0] ?? "" }
    }

    // MARK: - git

    /// Creates a bare repository at `path` with `HEAD` → `general_dev` and runs one `git fast-import` on it.
    /// Returns mark → commit id.
    func importStream(_ stream: FastImportStream, into path: String, context: String) throws -> [Int: String] {
        let repository = try GitRepository.initBare(
            at: path, git: git, objectFormat: "sha1", initialBranch: ExampleScenario.generalBranch, context: context)
        let lines = try repository.fastImport(stream.finished(), marks: stream.marks, context: context)
        var ids: [Int: String] = [:]
        for (index, line) in lines.enumerated() { ids[index + 1] = line }
        return ids
    }

    /// Clones the superproject, initialises the submodules and puts each on a local `general_dev` branch.
    func cloneWorkspace(from superproject: String, to workspace: String) throws {
        // Local remotes are allowed here only: both ends are directories this run has just created.
        let local = git.allowingLocalRemotes()
        let general = ExampleScenario.generalBranch
        let clone = try GitRepository.clone(
            superproject, into: workspace, branch: general, remoteName: "origin", git: local,
            context: "clone the example superproject")
        try clone.initialiseSubmodules(remoteName: "origin", jobs: 4, context: "initialise the example's submodules")
        // The remotes are local directories this run created: let tenantctl use them from this workspace
        // (local config only; a clone of the workspace does not inherit it).
        try clone.setConfig(
            "tenantctl.allowLocalRemotes", to: "true", context: "allow the example's local remotes")
        for repo in ExampleScenario.modules {
            let module = clone.repository(at: "\(workspace)/Modules/\(repo.name)")
            try module.checkOutResetting(general, context: "put module \(repo.name) on \(general)")
            try module.setUpstream(
                of: general, to: "origin/\(general)", context: "let \(repo.name)'s \(general) track origin")
        }
    }

    /// Commit dates: one hour apart from ``ExampleBuilder/baseTime``; updates a month later.
    struct Clock {
        var commits = 0
        var updates = 0

        mutating func next() -> Int {
            defer { commits += 1 }
            return ExampleBuilder.baseTime + commits * 3600
        }

        var conflicts = 0

        /// The conflicting changes of stage `conflict`: a day after the updates.
        mutating func nextConflict() -> Int {
            defer { conflicts += 1 }
            return ExampleBuilder.baseTime + 31 * 86_400 + conflicts * 3600
        }

        mutating func nextUpdate() -> Int {
            defer { updates += 1 }
            return ExampleBuilder.baseTime + 30 * 86_400 + updates * 3600
        }
    }
}
