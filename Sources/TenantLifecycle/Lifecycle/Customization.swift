import Foundation

/// `customize` and its undo: fork a module for a tenant, or give the fork back.
public enum Customization {
    /// Plans `customize <tenant> <module> [--from <commit>]`: the module's tenant branch at the tenant's pin (or
    /// `from`), the module declared in `Tenants/<id>.json` on the general branch and on the tenant branch, and the
    /// tenant re-pinned to the branch's start when `from` differs from the pin.
    ///
    /// Refuses an unknown tenant or module, a module the tenant does not effectively use, one already customised,
    /// and an existing module branch of the tenant's name.
    public static func plan(
        tenant tenantID: String, module moduleName: String, from: String?, state: Snapshot
    ) throws -> LifecyclePlan {
        let project = state.project
        let (tenant, module) = try lookUp(tenant: tenantID, module: moduleName, in: project)
        guard project.activeSet(for: tenant).effective.contains(module.name) else {
            throw LifecycleError(
                "refusing to customise \(module.name) for tenant \(tenant.id): the module is not in the tenant's "
                    + "effective active set (\(state.project.activeSet(for: tenant).effective.joined(separator: ", ")))"
            )
        }
        try refuseCustomised(tenant, module: module)
        let tenantTip = try state.branch(tenant.branch)
        let pins = try state.pins(at: tenantTip)
        guard let pin = pins[module.path] else {
            throw LifecycleError(
                "refusing to customise \(module.name) for tenant \(tenant.id): branch \(tenant.branch) pins no "
                    + "commit at \(module.path) (run `tenantctl roll` first)")
        }
        let start = try from.map { try resolveOnRemote($0, module: module.name, state: state) } ?? pin
        // A branch exactly at the start is what a run stopped between the module push and the superproject push
        // leaves behind (docs/GUARANTEES.md): it is taken over, so that a re-run converges. Any other is refused.
        let moduleBranch = tenant.moduleBranch(for: module.name)
        if let variant = BranchCaseCollision.variant(
            of: moduleBranch, in: state.moduleBranches[module.name]?.keys.map { $0 } ?? [])
        {
            throw LifecycleError(
                "refusing to customise \(module.name) for tenant \(tenant.id): module \(module.name) has a branch "
                    + "\(variant), whose name differs from \(moduleBranch) only in case (on a case-insensitive file "
                    + "system, as on macOS, they are one file); nothing was changed; rename or delete \(variant) on "
                    + "the module's remote first")
        }
        let existing = state.moduleBranches[module.name]?[moduleBranch]
        if let existing, existing != start {
            throw LifecycleError(
                "refusing to customise \(module.name) for tenant \(tenant.id): module \(module.name) already has a "
                    + "branch \(moduleBranch) (at \(ObjectID.short(existing))); nothing was changed. To follow that "
                    + "branch: tenantctl customize \(tenant.id) \(module.name) --branch \(moduleBranch)")
        }
        var updated = tenant
        updated.customised = project.manifest.modules.map(\.name).filter {
            tenant.customised.contains($0) || $0 == module.name
        }
        try validate(updated, state: state)
        let file = ProjectReader.tenantPath(tenant.id)
        var plan = LifecyclePlan()
        if existing == nil {
            plan.modulesFirst = [
                ModulePush(
                    module: module.name, refs: [try RefUpdate(branch: moduleBranch, new: start, old: nil)])
            ]
        }
        plan.commits.append(
            PlannedCommit(
                branch: state.generalBranch, base: try state.branch(state.generalBranch),
                edits: [PathEdit(path: file, change: .file(updated.encoded()))],
                message: "\(tenant.id): customise \(module.name) (tenantctl customize)"))
        var tenantEdits = [PathEdit(path: file, change: .file(updated.encoded()))]
        if start != pin { tenantEdits.append(PathEdit(path: module.path, change: .gitlink(start))) }
        plan.commits.append(
            PlannedCommit(
                branch: tenant.branch, base: tenantTip, edits: tenantEdits,
                message: "\(tenant.id): customise \(module.name), pin \(module.name)@\(moduleBranch)"
                    + " (tenantctl customize)"))
        return plan
    }

    /// Plans `customize <tenant> <module> --branch <branch>`: the tenant follows the module's existing branch
    /// `branch` (a release line's `release/5.5.6`), written as `"branches": {"<module>": "<branch>"}` in
    /// `Tenants/<id>.json` on the general branch and on the tenant branch. Nothing is created or pushed in the
    /// module, and the tenant's pin stays as it is (roll moves it to the branch's head).
    ///
    /// Refuses an unknown tenant or module, a module the tenant does not effectively use or customises already, a
    /// branch the module's remote does not have, the module's general branch, and a branch that does not have the
    /// tenant's pin (the tenant would not be following it).
    public static func planAdoption(
        tenant tenantID: String, module moduleName: String, branch: String, state: Snapshot
    ) throws -> LifecyclePlan {
        let project = state.project
        let (tenant, module) = try lookUp(tenant: tenantID, module: moduleName, in: project)
        let refusing = "refusing to customise \(module.name) for tenant \(tenant.id) on branch \(branch)"
        if let reason = RefName.validateBranch(branch) {
            throw LifecycleError("\(refusing): invalid branch name: \(reason)")
        }
        guard project.activeSet(for: tenant).effective.contains(module.name) else {
            throw LifecycleError(
                "\(refusing): the module is not in the tenant's effective active set "
                    + "(\(project.activeSet(for: tenant).effective.joined(separator: ", ")))")
        }
        try refuseCustomised(tenant, module: module)
        let moduleGeneral = project.generalBranch(of: module)
        guard branch != moduleGeneral else {
            throw LifecycleError("\(refusing): \(branch) is the module's general branch, which every tenant follows")
        }
        let branches = state.moduleBranches[module.name] ?? [:]
        guard branches[branch] != nil else {
            let others = branches.keys.filter { $0 != moduleGeneral }.sorted()
            throw LifecycleError(
                "\(refusing): module \(module.name) has no branch \(branch) on its remote (its other branches: "
                    + (others.isEmpty ? "none" : others.joined(separator: ", "))
                    + "); --branch adopts an existing branch, nothing was changed. To create a branch named after "
                    + "the tenant: tenantctl customize \(tenant.id) \(module.name)")
        }
        let tenantTip = try state.branch(tenant.branch)
        guard let pin = try state.pins(at: tenantTip)[module.path] else {
            throw LifecycleError(
                "\(refusing): branch \(tenant.branch) pins no commit at \(module.path) (run `tenantctl roll` first)")
        }
        guard let mirror = state.existingMirror(of: module.name) else {
            throw LifecycleError("module \(module.name) has no mirror")
        }
        guard try mirror.objectID(of: pin, peeledTo: .commit, context: "look for \(pin) in \(module.name)") != nil
        else {
            throw LifecycleError(
                "\(refusing): the tenant's pin \(ObjectID.short(pin)) of \(module.name) is not on the module's remote; "
                    + "push it to \(branch) first (git -C \(module.path) push origin \(pin):refs/heads/\(branch))")
        }
        let having = try mirror.branches(containing: pin, under: "refs/heads/", what: "module \(module.name)")
        guard having.contains(branch) else {
            let names = having.sorted()
            throw LifecycleError(
                "\(refusing): the tenant's pin \(ObjectID.short(pin)) of \(module.name) is not on \(branch) (it is on "
                    + (names.isEmpty ? "no branch" : names.joined(separator: ", "))
                    + "); adopt the branch the tenant pins, nothing was changed")
        }
        var updated = tenant
        updated.branches[module.name] = branch
        try validate(updated, state: state)
        let file = ProjectReader.tenantPath(tenant.id)
        let message = "\(tenant.id): customise \(module.name) on its branch \(branch) (tenantctl customize --branch)"
        var plan = LifecyclePlan()
        plan.commits.append(
            PlannedCommit(
                branch: state.generalBranch, base: try state.branch(state.generalBranch),
                edits: [PathEdit(path: file, change: .file(updated.encoded()))], message: message))
        plan.commits.append(
            PlannedCommit(
                branch: tenant.branch, base: tenantTip, edits: [PathEdit(path: file, change: .file(updated.encoded()))],
                message: message))
        return plan
    }

    /// Refuses a module the tenant customises already (on a branch of its name or one `branches` maps).
    static func refuseCustomised(_ tenant: Tenant, module: Module) throws {
        guard tenant.customises(module.name) else { return }
        throw LifecycleError(
            "refusing to customise \(module.name) for tenant \(tenant.id): it is already customised, on branch "
                + "\(tenant.moduleBranch(for: module.name)) (\(ProjectReader.tenantPath(tenant.id)))")
    }

    /// Whether the remotes hold `module` customised for `tenant` on `branch` as `customize --branch` leaves it: the
    /// mapping in the tenant's file on the general branch.
    public static func isAdopted(tenant tenantID: String, module moduleName: String, branch: String, state: Snapshot)
        -> Bool
    {
        state.project.tenant(id: tenantID)?.branches[moduleName] == branch
    }

    /// Whether the remotes hold `module` customised for `tenant` as `customize` leaves it: declared in the tenant's
    /// file on the general branch, and the module's branch of the tenant's name.
    public static func isCustomised(tenant tenantID: String, module moduleName: String, state: Snapshot) -> Bool {
        guard let tenant = state.project.tenant(id: tenantID), tenant.customises(moduleName) else {
            return false
        }
        return state.moduleBranches[moduleName]?[tenant.moduleBranch(for: moduleName)] != nil
    }

    /// Whether the remotes hold `module` back on the general branch for `tenant` as `customize --undo` leaves it:
    /// not declared in the tenant's file, and no module branch of the tenant's name.
    public static func isUncustomised(tenant tenantID: String, module moduleName: String, state: Snapshot) -> Bool {
        guard let tenant = state.project.tenant(id: tenantID), !tenant.customises(moduleName) else {
            return false
        }
        return state.moduleBranches[moduleName]?[tenant.branch] == nil
    }

    /// Plans the undo: only when the module's tenant branch has no commits beyond the general branch and the tenant's
    /// pin is on the general branch; otherwise refuses and lists the commits. The declaration goes first (general
    /// branch and tenant branch), then the module branch is deleted with a lease.
    public static func planUndo(tenant tenantID: String, module moduleName: String, state: Snapshot)
        throws -> LifecyclePlan
    {
        let project = state.project
        let (tenant, module) = try lookUp(tenant: tenantID, module: moduleName, in: project)
        if !tenant.customises(module.name),
            let leftover = state.moduleBranches[module.name]?[tenant.moduleBranch(for: module.name)],
            tenant.moduleBranch(for: module.name) != project.generalBranch(of: module)
        {
            return try planLeftoverDeletion(tenant: tenant, module: module, tip: leftover, state: state)
        }
        guard tenant.customises(module.name) else {
            throw LifecycleError(
                "refusing to undo: tenant \(tenant.id) does not customise \(module.name) "
                    + "(\(ProjectReader.tenantPath(tenant.id)))")
        }
        let moduleGeneral = project.generalBranch(of: module)
        guard let general = state.moduleBranches[module.name]?[moduleGeneral] else {
            throw LifecycleError("module \(module.name) has no branch \(moduleGeneral) on its remote")
        }
        let tenantTip = try state.branch(tenant.branch)
        // A branch `branches` maps is the module's own (a release line's): the undo leaves it and its commits, and
        // only asks that the tenant's pin be on the general branch.
        let adopted = tenant.branches[module.name] != nil
        let moduleBranch = tenant.moduleBranch(for: module.name)
        let branchTip = adopted ? nil : state.moduleBranches[module.name]?[moduleBranch]
        var tips = [String]()
        if let branchTip { tips.append(branchTip) }
        if let pin = try state.pins(at: tenantTip)[module.path] { tips.append(pin) }
        let extra = try commits(tips, notOn: general, module: module.name, state: state)
        guard extra.isEmpty else {
            throw LifecycleError(
                "refusing to undo the customisation of \(module.name) for tenant \(tenant.id): "
                    + (adopted ? "the tenant's pin" : "branch \(moduleBranch) of \(module.name) (or the tenant's pin)")
                    + " has \(extra.count) commit"
                    + "\(extra.count == 1 ? "" : "s") not on \(moduleGeneral):\n"
                    + extra.map { "  " + $0 }.joined(separator: "\n"))
        }
        var updated = tenant
        updated.customised.removeAll { $0 == module.name }
        updated.branches[module.name] = nil
        try validate(updated, state: state)
        let file = ProjectReader.tenantPath(tenant.id)
        var plan = LifecyclePlan()
        plan.commits.append(
            PlannedCommit(
                branch: state.generalBranch, base: try state.branch(state.generalBranch),
                edits: [PathEdit(path: file, change: .file(updated.encoded()))],
                message: "\(tenant.id): undo the customisation of \(module.name) (tenantctl customize --undo)"))
        plan.commits.append(
            PlannedCommit(
                branch: tenant.branch, base: tenantTip,
                edits: [PathEdit(path: file, change: .file(updated.encoded()))],
                message: "\(tenant.id): undo the customisation of \(module.name) (tenantctl customize --undo)"))
        if let branchTip {
            plan.modulesAfter = [
                ModulePush(
                    module: module.name,
                    refs: [try RefUpdate(branch: moduleBranch, new: nil, old: branchTip)])
            ]
        }
        return plan
    }

    /// The module branch of a tenant that does not declare the module customised: what an undo stopped between the
    /// superproject push and the branch deletion leaves (or a customisation stopped before its superproject push).
    /// Plans only its deletion, with a lease, under the same rule as the undo: no commits beyond the general branch.
    static func planLeftoverDeletion(tenant: Tenant, module: Module, tip: String, state: Snapshot) throws
        -> LifecyclePlan
    {
        let moduleGeneral = state.project.generalBranch(of: module)
        guard let general = state.moduleBranches[module.name]?[moduleGeneral] else {
            throw LifecycleError("module \(module.name) has no branch \(moduleGeneral) on its remote")
        }
        let moduleBranch = tenant.moduleBranch(for: module.name)
        let extra = try commits([tip], notOn: general, module: module.name, state: state)
        guard extra.isEmpty else {
            throw LifecycleError(
                "refusing to delete branch \(moduleBranch) of \(module.name), which tenant \(tenant.id) does not "
                    + "declare customised: it has \(English.count(extra.count, "commit")) not on \(moduleGeneral):\n"
                    + extra.map { "  " + $0 }.joined(separator: "\n"))
        }
        var plan = LifecyclePlan()
        plan.modulesAfter = [
            ModulePush(module: module.name, refs: [try RefUpdate(branch: moduleBranch, new: nil, old: tip)])
        ]
        return plan
    }

    static func lookUp(tenant id: String, module name: String, in project: Project) throws -> (Tenant, Module) {
        guard let tenant = project.tenant(id: id) else {
            throw UnknownNameError(kind: "tenant", names: [id], known: project.tenants.map(\.id))
        }
        guard let module = project.module(named: name) else {
            throw UnknownNameError(kind: "module", names: [name], known: project.manifest.modules.map(\.name))
        }
        return (tenant, module)
    }

    /// Checks the changed tenant file with the manifest loader (every rule of `verify`).
    static func validate(_ tenant: Tenant, state: Snapshot) throws {
        _ = try ProjectLoader.load(
            manifest: SourceFile(path: ProjectReader.manifestPath, data: state.project.manifest.encoded()),
            tenantFiles: state.tenantFiles(replacing: [tenant]),
            options: ValidationOptions(allowLocalRemotes: true))
    }

    /// Resolves a commit name in the module's mirror; it must be on some branch of the module's remote.
    static func resolveOnRemote(_ name: String, module: String, state: Snapshot) throws -> String {
        guard let mirror = state.existingMirror(of: module) else {
            throw LifecycleError("module \(module) has no mirror")
        }
        guard
            let id = try mirror.objectID(of: name, peeledTo: .commit, context: "resolve \(name) in \(module)")?.hex
        else {
            throw LifecycleError("--from \(name): no such commit in module \(module)'s remote")
        }
        let containing = try mirror.branches(containing: id, under: "refs/heads/", what: "module \(module)")
        guard !containing.isEmpty else {
            throw LifecycleError("--from \(name): commit \(id) is on no branch of module \(module)'s remote")
        }
        return id
    }

    /// `<short id> <subject>` of every commit reachable from `tips` but not from `base`, in a module mirror.
    static func commits(_ tips: [String], notOn base: String, module: String, state: Snapshot) throws
        -> [String]
    {
        guard !tips.isEmpty, let mirror = state.existingMirror(of: module) else { return [] }
        return try mirror.oneLineLog(
            tips, excluding: base, context: "list the commits of \(module) not on its general branch")
    }
}
