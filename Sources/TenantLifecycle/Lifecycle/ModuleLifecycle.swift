import Foundation

/// `module add` and `module remove`: change the module set on the general branch; tenants receive the change with
/// their next roll (the merge of the general branch).
public enum ModuleLifecycle {
    /// Plans `module add`: `modules.json`, `.gitmodules` and the gitlink at the tip of the module's general branch,
    /// in one commit on the general branch. Refuses an invalid or duplicate name, path or URL, an unknown dependency,
    /// an occupied path, and a module remote without the general branch.
    public static func planAdd(
        name: String, url: String, path: String?, dependsOn: [String], state: Snapshot
    ) throws -> LifecyclePlan {
        let project = state.project
        let module = Module(name: name, path: path ?? "Modules/\(name)", url: url, dependsOn: dependsOn)
        if try isAdded(module, state: state) { return LifecyclePlan() }
        var manifest = project.manifest
        manifest.modules.append(module)
        try validate(manifest: manifest, tenants: state.tenantFiles(replacing: []))
        let generalTip = try state.branch(state.generalBranch)
        guard
            try !state.superproject.hasPath(
                module.path, at: generalTip, context: "check \(module.path) on \(state.generalBranch)")
        else {
            throw LifecycleError(
                "refusing to add module \(name): \(module.path) exists on \(state.generalBranch)")
        }
        let specs = try ModuleRemotes.specs(for: [module], workspace: state.workspace)
        let mirrors = try ModuleMirrors(workspace: state.workspace).sync(specs)
        guard let mirror = mirrors[name] else { throw LifecycleError("module \(name) has no mirror") }
        let branches = try state.superproject.repository(at: mirror).branches(under: "refs/heads/", what: mirror)
        var moduleGeneral = state.generalBranch
        if branches[moduleGeneral] == nil, let spec = specs.first,
            let head = try Adoption.defaultBranch(ofRemote: spec.url, in: state.superproject),
            branches[head] != nil
        {
            // A module whose remote has no general branch follows its own default branch.
            moduleGeneral = head
            manifest.modules[manifest.modules.count - 1].generalBranch = head
        }
        guard let tip = branches[moduleGeneral] else {
            throw LifecycleError(
                "refusing to add module \(name): its remote \(RemoteURL.redacted(url)) has no branch "
                    + "\(state.generalBranch) (branches: \(branches.keys.sorted().joined(separator: ", ")))")
        }
        let superproject = state.superproject
        let gitmodules = try superproject.gitmodules(at: generalTip) ?? Gitmodules()
        if gitmodules.entry(atPath: module.path) != nil || gitmodules.entry(named: name) != nil {
            throw LifecycleError(
                "refusing to add module \(name): .gitmodules already has a submodule \(name) or \(module.path)")
        }
        let newGitmodules = try superproject.gitmodulesAdding(name: name, path: module.path, url: url, at: generalTip)
        var plan = LifecyclePlan()
        plan.commits.append(
            PlannedCommit(
                branch: state.generalBranch, base: generalTip,
                edits: [
                    PathEdit(path: ProjectReader.manifestPath, change: .file(manifest.encoded())),
                    PathEdit(path: ".gitmodules", change: .file(newGitmodules)),
                    PathEdit(path: module.path, change: .gitlink(tip)),
                ],
                message: "add module \(name) at \(module.path), pinned to \(moduleGeneral) \(ObjectID.short(tip)) "
                    + "(tenantctl module add)"))
        return plan
    }

    /// Whether the general branch has `module` exactly as `module add` would write it (modules.json, the
    /// .gitmodules section of its name at its path and URL, a gitlink at its path): what a run leaves that stopped
    /// after its push. Its re-run then has nothing left to do instead of refusing the duplicate.
    static func isAdded(_ module: Module, state: Snapshot) throws -> Bool {
        guard let existing = state.project.module(named: module.name), existing.path == module.path,
            existing.url == module.url, existing.dependsOn == module.dependsOn
        else { return false }
        let generalTip = try state.branch(state.generalBranch)
        let repository = state.superproject
        let listing = try repository.treeEntries(
            at: generalTip, path: module.path, context: "check \(module.path) on \(state.generalBranch)")
        guard listing.count == 1, listing[0].entry.isGitlink else { return false }
        let entries = try repository.gitmodules(at: generalTip)?.entries ?? []
        return entries.contains { $0.name == module.name && $0.path == module.path && $0.url == module.url }
    }

    /// Whether the general branch's history has the commit `module remove <name>` writes: a module that is not in
    /// modules.json any more was removed by a run that stopped after its push, and its re-run has nothing left to do
    /// instead of calling the name unknown.
    static func wasRemoved(_ name: String, state: Snapshot) throws -> Bool {
        let generalTip = try state.branch(state.generalBranch)
        return try state.superproject.hasCommit(
            from: generalTip, withMessage: removalMessage(name),
            context: "look for the removal of module \(name) on \(state.generalBranch)")
    }

    static func removalMessage(_ name: String) -> String { "remove module \(name) (tenantctl module remove)" }

    /// Plans `module remove`: refuses while any tenant customises the module or another module depends on it; removes
    /// it from `modules.json`, `.gitmodules`, the tree (gitlink) and from every tenant's active modules, in one commit
    /// on the general branch. The module's repository is not touched.
    public static func planRemove(name: String, state: Snapshot) throws -> LifecyclePlan {
        let project = state.project
        guard let module = project.module(named: name) else {
            if try wasRemoved(name, state: state) { return LifecyclePlan() }
            throw UnknownNameError(kind: "module", names: [name], known: project.manifest.modules.map(\.name))
        }
        let customisers = project.tenants.filter { $0.customises(name) }.map(\.id)
        guard customisers.isEmpty else {
            throw LifecycleError(
                "refusing to remove module \(name): tenant\(customisers.count == 1 ? "" : "s") "
                    + "\(customisers.joined(separator: ", ")) customise\(customisers.count == 1 ? "s" : "") it "
                    + "(undo with `tenantctl customize --undo <tenant> \(name)` first)")
        }
        let dependants = project.manifest.modules.filter { $0.dependsOn.contains(name) }.map(\.name)
        guard dependants.isEmpty else {
            throw LifecycleError(
                "refusing to remove module \(name): \(dependants.joined(separator: ", ")) depend\(dependants.count == 1 ? "s" : "") on it"
            )
        }
        var manifest = project.manifest
        manifest.modules.removeAll { $0.name == name }
        var changed: [Tenant] = []
        for var tenant in project.tenants where tenant.modules.contains(name) {
            tenant.modules.removeAll { $0 == name }
            changed.append(tenant)
        }
        try validate(manifest: manifest, tenants: state.tenantFiles(replacing: changed))
        let generalTip = try state.branch(state.generalBranch)
        let superproject = state.superproject
        var edits = [
            PathEdit(path: ProjectReader.manifestPath, change: .file(manifest.encoded())),
            PathEdit(path: module.path, change: .remove),
        ]
        if let section = try superproject.gitmodules(at: generalTip)?.name(ofPath: module.path) {
            edits.append(
                PathEdit(
                    path: ".gitmodules",
                    change: .file(try superproject.gitmodulesRemoving(name: section, at: generalTip))))
        }
        edits += changed.map {
            PathEdit(path: ProjectReader.tenantPath($0.id), change: .file($0.encoded()))
        }
        var plan = LifecyclePlan()
        plan.commits.append(
            PlannedCommit(
                branch: state.generalBranch, base: generalTip, edits: edits,
                message: removalMessage(name)))
        return plan
    }

    static func validate(manifest: ModuleManifest, tenants: [SourceFile]) throws {
        _ = try ProjectLoader.load(
            manifest: SourceFile(path: ProjectReader.manifestPath, data: manifest.encoded()), tenantFiles: tenants,
            options: ValidationOptions(allowLocalRemotes: true))
    }
}
