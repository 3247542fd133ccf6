import Foundation

/// `tenantctl diff <tenant> [module]`: what a tenant customised, against the general branch, as `git diff A...B`
/// and audit's customisation count see it: from where the tenant forked off the general branch (the merge base),
/// never the general branch's newer work shown reversed. First the superproject's own files the tenant branch changed
/// (gitlinks left out: the files audit lists), then, per module whose tenant pin has commits the general branch's
/// pin lacks, `git diff <general pin>...<tenant pin>` as git prints it (or its `--stat`), the paths named from the
/// superproject. A tenant only behind the general branch customised nothing. Reads the superproject's branches as
/// last fetched and the modules' commits from their checkouts or tenantctl's mirrors; fetches and changes nothing.
/// The command parses and renders.
///
/// git processes: one `for-each-ref`, one `cat-file --batch` for both pins, one `merge-base --is-ancestor` and one
/// `diff` for the superproject, then per module whose pins differ one `merge-base --is-ancestor` and one `diff` (and
/// a `cat-file -e` per commit to find a repository that has it).
public struct TenantDiff: Sendable {
    /// One module whose pins differ.
    public struct ModuleDiff: Sendable, Equatable, Encodable {
        /// The module's name.
        public var module: String
        /// Its path in the superproject.
        public var path: String
        /// The general branch's pin (nil: the general branch does not pin it).
        public var from: String?
        /// The tenant branch's pin (nil: the tenant branch does not pin it).
        public var to: String?
        /// git's output (patch or stat) from the merge base of the two pins to the tenant's; empty when one side
        /// has no pin.
        public var diff: String
    }

    /// The superproject's own files the tenant branch changed since it forked off the general branch.
    public struct SuperprojectDiff: Sendable, Equatable, Encodable {
        /// The general branch's commit and the tenant branch's (as last fetched).
        public var from: String
        public var to: String
        /// git's output (patch or stat) of `git diff <from>...<to>`, gitlinks left out.
        public var diff: String
    }

    /// What `diff` shows.
    public struct Report: Sendable, Encodable {
        public var schemaVersion = 1
        /// The tenant's id.
        public var tenant: String
        /// The tenant's superproject branch.
        public var branch: String
        /// The general branch compared against.
        public var generalBranch: String
        /// The superproject commits compared (as last fetched).
        public var generalCommit: String
        public var tenantCommit: String
        /// The superproject's own customisation (its files, not its gitlinks); nil when the tenant changed none of
        /// them, or when one module was asked for.
        public var superproject: SuperprojectDiff?
        /// The modules the tenant customised (its pin has commits the general branch's lacks), in manifest order.
        public var modules: [ModuleDiff]
        /// `stat` or `patch`.
        public var format: String
    }

    /// The tenant (id or branch).
    public var tenant: String
    /// Only this module.
    public var module: String?
    /// Patch or stat.
    public var format: GitRepository.DiffFormat
    /// Colour git's output.
    public var color: Bool

    public init(tenant: String, module: String? = nil, format: GitRepository.DiffFormat = .patch, color: Bool = false) {
        self.tenant = tenant
        self.module = module
        self.format = format
        self.color = color
    }

    /// The diff of `workspace`'s tenant. Unknown names are refused before any git process, against the working
    /// tree's `modules.json` and `Tenants/`.
    public func run(workspace: Workspace, validation: ValidationOptions) throws -> Report {
        let project = try ProjectReader.workingTree(workspace, options: validation)
        guard let found = project.tenant(id: tenant) else {
            throw UnknownNameError(kind: "tenant", names: [tenant], known: project.tenants.map(\.id))
        }
        var modules = project.manifest.modules
        if let module {
            guard let named = project.module(named: module) else {
                throw UnknownNameError(kind: "module", names: [module], known: modules.map(\.name))
            }
            modules = [named]
        }
        let general = project.manifest.generalBranch
        let branches = try Self.remoteBranches(workspace)
        let missing = [general, found.branch].filter { branches[$0] == nil }
        guard let generalCommit = branches[general], let tenantCommit = branches[found.branch] else {
            throw SnapshotError(
                "\(workspace.remoteName) has no branch \(missing.joined(separator: " or ")) as last fetched; "
                    + "run `tenantctl audit` (it fetches) and then `tenantctl diff \(found.id)` again")
        }
        let paths = modules.map(\.path)
        let batch = try workspace.superproject.openBatch()
        let pins: [String: [String: String]]
        do {
            pins = try PinReader.pins(of: [generalCommit, tenantCommit], paths: paths, batch: batch)
            try batch.close()
        } catch {
            try? batch.close()
            throw error
        }
        var report = Report(
            tenant: found.id, branch: found.branch, generalBranch: general, generalCommit: generalCommit,
            tenantCommit: tenantCommit, superproject: nil, modules: [], format: format == .stat ? "stat" : "patch")
        if module == nil {
            report.superproject = try superprojectDiff(
                workspace, from: generalCommit, to: tenantCommit, general: general, branch: found.branch)
        }
        for module in modules {
            let from = pins[generalCommit]?[module.path]
            let to = pins[tenantCommit]?[module.path]
            guard from != to else { continue }
            var entry = ModuleDiff(module: module.name, path: module.path, from: from, to: to, diff: "")
            if let from, let to {
                let repository = try Self.repository(
                    having: [from, to], module: module, workspace: workspace)
                // Only behind: the general branch's pin has everything of the tenant's, nothing customised.
                if try repository.isAncestor(
                    to, of: from, context: "compare the pins of \(general) and \(found.branch) in \(module.name)")
                {
                    continue
                }
                let output = try repository.diff(
                    from: from, to: to, format: format, prefix: module.path + "/", color: color, sinceMergeBase: true,
                    context: "diff \(module.name) between the pins of \(general) and \(found.branch)")
                entry.diff = String(decoding: output, as: UTF8.self)
            }
            report.modules.append(entry)
        }
        return report
    }

    /// The superproject's files the tenant branch changed since its merge base with the general branch (gitlinks
    /// left out); nil when it changed none (or is only behind).
    private func superprojectDiff(
        _ workspace: Workspace, from: String, to: String, general: String, branch: String
    ) throws -> SuperprojectDiff? {
        let superproject = workspace.superproject
        guard
            from != to,
            try !superproject.isAncestor(
                to, of: from, context: "compare \(general) and \(branch) in the superproject")
        else { return nil }
        let output = try superproject.diff(
            from: from, to: to, format: format, prefix: "", color: color, sinceMergeBase: true,
            ignoringSubmodules: true, context: "diff the superproject's files between \(general) and \(branch)")
        guard !output.isEmpty else { return nil }
        return SuperprojectDiff(from: from, to: to, diff: String(decoding: output, as: UTF8.self))
    }

    /// The superproject's remote branches as tenantctl last fetched them, else as the clone's remote-tracking refs
    /// have them (before tenantctl's first fetch).
    static func remoteBranches(_ workspace: Workspace) throws -> [String: String] {
        let fetched = try SuperprojectRemote.branches(workspace)
        if !fetched.isEmpty { return fetched }
        return try workspace.superproject.branches(
            under: "refs/remotes/\(workspace.remoteName)/", what: "the superproject")
    }

    /// The module's checkout when it has both commits, else tenantctl's mirror of it; else an error with the step
    /// that fetches them.
    static func repository(having commits: [String], module: Module, workspace: Workspace) throws
        -> GitRepository
    {
        let checkout = workspace.path(module.path)
        let mirror = ModuleMirrors(workspace: workspace).path(for: module.name)
        for candidate in [checkout, mirror] where FileManager.default.fileExists(atPath: candidate) {
            let repository = workspace.superproject.repository(at: candidate)
            guard try CheckoutPresence.of(repository) == .repository || candidate == mirror else { continue }
            if try commits.allSatisfy({ try repository.hasCommit($0) }) { return repository }
        }
        throw SnapshotError(
            "module \(module.name): the pins \(commits.map { ObjectID.short($0) }.joined(separator: " and ")) are in neither "
                + "\(module.path) nor tenantctl's mirror; run `tenantctl audit` (it fetches every module) and then "
                + "`tenantctl diff` again")
    }
}
