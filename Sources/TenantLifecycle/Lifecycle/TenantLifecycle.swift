import Foundation

/// `tenant add` and `tenant remove`.
public enum TenantLifecycle {
    /// What `tenant add` is asked to do.
    public struct AddRequest: Sendable {
        /// The new tenant's id (also its branch name).
        public var id: String
        /// Display name.
        public var name: String?
        /// `nil` or the general branch: start from general development; else the tenant to copy.
        public var from: String?
        /// The active modules; nil takes the source tenant's (or every module when starting from general_dev).
        public var modules: [String]?

        /// Creates a request.
        public init(id: String, name: String? = nil, from: String? = nil, modules: [String]? = nil) {
            self.id = id
            self.name = name
            self.from = from
            self.modules = modules
        }
    }

    /// Plans `tenant add`: `Tenants/<id>.json` on the general branch; the superproject branch `<id>` from the general
    /// branch (the same new commit) or from the source tenant's branch (plus a commit adding the same file); with a
    /// source tenant, a branch `<id>` in every module it customises (and the new tenant keeps active) at the source's
    /// pin, pushed before the superproject.
    public static func planAdd(_ request: AddRequest, state: Snapshot) throws -> LifecyclePlan {
        let project = state.project
        let id = request.id
        try refuseNewID(id, state: state)
        var source: Tenant?
        if let from = request.from, from != state.generalBranch {
            guard let tenant = project.tenant(id: from) else {
                throw LifecycleError(
                    "--from \(from): no such tenant (tenants: \(project.tenants.map(\.id).joined(separator: ", ")); "
                        + "or \(state.generalBranch))")
            }
            source = tenant
        }
        let modules = request.modules ?? source?.modules ?? project.manifest.modules.map(\.name)
        let unknown = modules.filter { project.module(named: $0) == nil }
        guard unknown.isEmpty else {
            throw UnknownNameError(kind: "module", names: unknown, known: project.manifest.modules.map(\.name))
        }
        var tenant = Tenant(
            id: id, name: request.name, branch: id, modules: modules, customised: [],
            file: ProjectReader.tenantPath(id))
        let effective = project.activeSet(for: tenant).effective
        // The source's modules on branches `branches` maps are customised too: the new tenant gets branches of its
        // own name there.
        tenant.customised = (source?.customisedModules ?? []).filter { effective.contains($0) }
        tenant.strings = source?.strings ?? []
        try validate(adding: tenant, state: state)

        // The module branches the new tenant starts with: the source's pins of the modules it customises.
        var starts: [String: String] = [:]
        if let source {
            let pins = try state.pins(at: try state.branch(source.branch))
            for name in tenant.customised {
                guard let module = project.module(named: name), let pin = pins[module.path] else {
                    throw LifecycleError("refusing to add tenant \(id): \(source.branch) pins no commit of \(name)")
                }
                starts[name] = pin
            }
        }
        // A module branch exactly at its planned start is what a run stopped between the module pushes and the
        // superproject push leaves behind: it is taken over, so that the re-run finishes. Any other is refused.
        let clashes = project.manifest.modules.map(\.name).filter {
            guard let existing = state.moduleBranches[$0]?[id] else { return false }
            return existing != starts[$0]
        }
        guard clashes.isEmpty else {
            throw LifecycleError(
                "refusing to add tenant \(id): module\(clashes.count == 1 ? "" : "s") "
                    + "\(clashes.joined(separator: ", ")) already \(clashes.count == 1 ? "has" : "have") a branch \(id)"
            )
        }

        let generalTip = try state.branch(state.generalBranch)
        let file = PathEdit(path: ProjectReader.tenantPath(id), change: .file(tenant.encoded()))
        var plan = LifecyclePlan()
        if let source {
            let sourceTip = try state.branch(source.branch)
            for name in tenant.customised where state.moduleBranches[name]?[id] == nil {
                guard let pin = starts[name] else { continue }
                plan.modulesFirst.append(
                    ModulePush(module: name, refs: [try RefUpdate(branch: id, new: pin, old: nil)]))
            }
            plan.commits.append(
                PlannedCommit(
                    branch: state.generalBranch, base: generalTip, edits: [file],
                    message: "add tenant \(id) (tenantctl tenant add)"))
            plan.commits.append(
                PlannedCommit(
                    branch: id, base: sourceTip, edits: [file],
                    message: "\(id): new tenant from \(source.id) (tenantctl tenant add)"))
        } else {
            plan.commits.append(
                PlannedCommit(
                    branch: state.generalBranch, base: generalTip, edits: [file],
                    message: "add tenant \(id) (tenantctl tenant add)", alsoCreates: [id]))
        }
        return plan
    }

    /// Refuses an id no new tenant may have: not a branch name, a path, an existing tenant's id or branch, or a
    /// branch the superproject (or, in case only, a module) has.
    static func refuseNewID(_ id: String, state: Snapshot) throws {
        if let problem = RefName.validateBranch(id) {
            throw LifecycleError("refusing tenant id \(id): \(problem)")
        }
        guard !id.contains("/") else {
            throw LifecycleError("refusing tenant id \(id): it names the file Tenants/<id>.json and cannot contain /")
        }
        if let existing = state.project.tenants.first(where: { $0.id == id || $0.branch == id }) {
            throw LifecycleError("refusing to add tenant \(id): tenant \(existing.id) exists (\(existing.file))")
        }
        guard id != state.generalBranch, state.branches[id] == nil else {
            throw LifecycleError("refusing to add tenant \(id): the superproject already has a branch \(id)")
        }
        try refuseCaseVariants(of: id, state: state)
    }

    /// Refuses a new tenant id when the superproject or a module has a branch whose name differs from it only in case
    /// or normalisation (`T1` for `t1`): on a case-insensitive file system, as macOS formats its disks by default,
    /// the two branches would be one file in every clone and in tenantctl's own refs.
    static func refuseCaseVariants(of id: String, state: Snapshot) throws {
        if let variant = BranchCaseCollision.variant(of: id, in: state.branches.keys) {
            throw LifecycleError(
                "refusing to add tenant \(id): the superproject has a branch \(variant), whose name differs from "
                    + "\(id) only in case (on a case-insensitive file system, as on macOS, they are one file); "
                    + "nothing was changed; choose another id")
        }
        let modules = state.project.manifest.modules.compactMap { module -> String? in
            guard let branches = state.moduleBranches[module.name],
                let variant = BranchCaseCollision.variant(of: id, in: branches.keys)
            else { return nil }
            return "\(module.name) has \(variant)"
        }
        guard modules.isEmpty else {
            throw LifecycleError(
                "refusing to add tenant \(id): a module branch differs from \(id) only in case (\(modules.joined(separator: "; "))"
                    + "; on a case-insensitive file system, as on macOS, they are one file); nothing was changed; "
                    + "choose another id")
        }
    }

    /// Whether the remotes hold tenant `id` as `tenant add` leaves it: declared in `Tenants/<id>.json` on the general
    /// branch, its superproject branch, and a branch `<id>` in every module it customises.
    public static func isAdded(_ id: String, state: Snapshot) -> Bool {
        guard let tenant = state.project.tenant(id: id), tenant.branch == id, state.branches[id] != nil else {
            return false
        }
        return tenant.customised.allSatisfy { state.moduleBranches[$0]?[id] != nil }
    }

    /// Whether the remotes hold no trace of tenant `id` that `tenant remove` deletes: no declaration, no
    /// superproject branch, no module branch of its name.
    public static func isRemoved(_ id: String, state: Snapshot) -> Bool {
        state.project.tenant(id: id) == nil && state.branches[id] == nil
            && state.moduleBranches.values.allSatisfy { $0[id] == nil }
    }

    /// Plans `tenant remove`: refuses while the tenant's branches (superproject and declared module branches) hold
    /// commits that no other branch of the same remote has, unless `archive`, which tags every such branch
    /// `archive/<branch>` before it is deleted. Order: module tags, then the superproject (tenant file removed from
    /// the general branch, branch deleted, tag) in one atomic push, then the module branches are deleted.
    public static func planRemove(id: String, archive: Bool, state: Snapshot) throws -> LifecyclePlan {
        let project = state.project
        guard let tenant = project.tenant(id: id) else {
            if let plan = try planRemoveLeftovers(id: id, archive: archive, state: state) { return plan }
            throw UnknownNameError(kind: "tenant", names: [id], known: project.tenants.map(\.id))
        }
        let tag = "refs/tags/archive/\(tenant.branch)"
        var unique: [String] = []
        var plan = LifecyclePlan()
        plan.commits.append(
            PlannedCommit(
                branch: state.generalBranch, base: try state.branch(state.generalBranch),
                edits: [PathEdit(path: ProjectReader.tenantPath(tenant.id), change: .remove)],
                message: "remove tenant \(tenant.id) (tenantctl tenant remove)"))
        if let tip = state.branches[tenant.branch] {
            let count = try OrphanBranches.onlyOn(
                tip, branchRef: state.ref(tenant.branch), glob: state.refPrefix + "*",
                repository: state.superproject)
            if count > 0 { unique.append("superproject branch \(tenant.branch): \(English.count(count, "commit"))") }
            plan.superprojectRefs.append(try RefUpdate(branch: tenant.branch, new: nil, old: tip))
            if archive { plan.superprojectRefs.append(try RefUpdate(checking: tag, new: tip, old: nil)) }
        }
        // A module branch `branches` maps is the module's own (a release line's): removing the tenant leaves it.
        for name in tenant.customisedModules where tenant.branches[name] == nil {
            let moduleBranch = tenant.moduleBranch(for: name)
            guard let tip = state.moduleBranches[name]?[moduleBranch], let mirror = state.existingMirror(of: name)
            else {
                continue
            }
            let count = try OrphanBranches.onlyOn(
                tip, branchRef: "refs/heads/\(moduleBranch)", glob: "refs/heads/*", repository: mirror)
            if count > 0 { unique.append("module \(name) branch \(moduleBranch): \(English.count(count, "commit"))") }
            if archive {
                plan.modulesFirst.append(
                    ModulePush(module: name, refs: [try RefUpdate(checking: tag, new: tip, old: nil)]))
            }
            plan.modulesAfter.append(
                ModulePush(
                    module: name, refs: [try RefUpdate(branch: moduleBranch, new: nil, old: tip)]))
        }
        if !unique.isEmpty && !archive {
            throw LifecycleError(
                "refusing to remove tenant \(tenant.id): these branches hold commits found on no other branch; "
                    + "pass --archive to tag them archive/\(tenant.branch) before deleting:\n"
                    + unique.map { "  " + $0 }.joined(separator: "\n"))
        }
        return plan
    }

    /// The re-run of a `tenant remove` that stopped after the superproject push: the tenant file is gone from the
    /// general branch (its history shows the deletion), the superproject has no branch `id`, and module branches
    /// `id` are left. Plans what the stopped run had left to do: the archive tags (with `archive`) and the deletion
    /// of those module branches, with the same refusal of unique commits without `archive`. Nil when `id` never was
    /// a tenant that left such branches.
    static func planRemoveLeftovers(id: String, archive: Bool, state: Snapshot) throws -> LifecyclePlan? {
        let leftovers = try OrphanBranches.ofRemovedTenants(state: state).filter {
            $0.branch == id
        }
        guard !leftovers.isEmpty, state.branches[id] == nil else { return nil }
        var plan = LifecyclePlan()
        var unique: [String] = []
        for leftover in leftovers {
            guard let mirror = state.existingMirror(of: leftover.module) else { continue }
            let count = try OrphanBranches.onlyOn(
                leftover.tip, branchRef: "refs/heads/\(id)", glob: "refs/heads/*", repository: mirror)
            if count > 0 {
                unique.append("module \(leftover.module) branch \(id): \(English.count(count, "commit"))")
            }
            if archive {
                plan.modulesFirst.append(
                    ModulePush(
                        module: leftover.module,
                        refs: [try RefUpdate(checking: "refs/tags/archive/\(id)", new: leftover.tip, old: nil)]))
            }
            plan.modulesAfter.append(
                ModulePush(
                    module: leftover.module, refs: [try RefUpdate(branch: id, new: nil, old: leftover.tip)]))
        }
        if !unique.isEmpty && !archive {
            throw LifecycleError(
                "refusing to finish removing tenant \(id): these branches left by its removal hold commits found on "
                    + "no other branch; pass --archive to tag them archive/\(id) before deleting:\n"
                    + unique.map { "  " + $0 }.joined(separator: "\n"))
        }
        return plan
    }

    static func validate(adding tenant: Tenant, state: Snapshot) throws {
        _ = try ProjectLoader.load(
            manifest: SourceFile(path: ProjectReader.manifestPath, data: state.project.manifest.encoded()),
            tenantFiles: state.tenantFiles(replacing: [tenant]),
            options: ValidationOptions(allowLocalRemotes: true))
    }
}
