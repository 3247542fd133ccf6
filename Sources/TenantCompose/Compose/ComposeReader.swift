import Foundation

/// Reads a tenant's compose inputs: from the working copy (the checked-out tenant) or from the fetched refs.
public enum ComposeReader {
    /// The working copy's tenant: the superproject branch checked out, the project from the working tree, and each
    /// active module's files from its checked-out directory (as the app build sees them).
    public static func workingCopy(_ workspace: Workspace, options: ValidationOptions) throws -> ComposeInput {
        let project = try ProjectReader.workingTree(workspace, options: options)
        let head = try workspace.superproject.headBranch(context: "read the superproject's branch")
        let tenants = project.tenants.map(\.id).joined(separator: ", ")
        guard let branch = head else {
            throw ComposeError(
                .input,
                "the superproject's HEAD is detached, so it is no tenant; run `tenantctl switch <tenant>` "
                    + "or pass a tenant (\(tenants))")
        }
        guard let tenant = project.tenants.first(where: { $0.branch == branch }) else {
            throw ComposeError(
                .input,
                branch == project.manifest.generalBranch
                    ? "the working copy is on \(branch), the development view, not a tenant; run `tenantctl switch "
                        + "<tenant>` or pass a tenant (\(tenants))"
                    : "the superproject's branch \(branch) is no tenant's branch (tenants: \(tenants))")
        }
        let active = project.activeSet(for: tenant).effective
        let paths = active.compactMap { project.module(named: $0)?.path }
        let pins = try workspace.superproject.pins(at: "HEAD", paths: paths)
        var modules: [String: ComposeInput.ModuleFiles] = [:]
        var problems: [ComposeProblem] = []
        var warnings: [String] = []
        for name in active {
            guard let module = project.module(named: name) else { continue }
            let directory = workspace.path(module.path)
            guard try CheckoutPresence.of(workspace.checkout(at: module.path)) == .repository else {
                problems.append(
                    ComposeProblem(
                        .input,
                        "module \(name) is not checked out at \(module.path); run `tenantctl switch \(tenant.id)`"))
                continue
            }
            let head = try workspace.checkout(at: module.path).resolve("HEAD", context: "read HEAD of \(name)").hex
            if let pin = pins[module.path], pin != head {
                warnings.append(
                    "module \(name) is at \(ObjectID.short(head)), not at the pin \(ObjectID.short(pin)); composing what is "
                        + "checked out")
            }
            modules[name] = ComposeInput.ModuleFiles(
                strings: file(ComposeLayout.moduleStrings, inside: directory, label: module.path),
                description: file(ComposeLayout.moduleDescription, inside: directory, label: module.path))
        }
        guard problems.isEmpty else { throw ComposeError(problems: problems) }
        let strings = tenant.strings.map { path in
            (path: path, file: file(path, inside: workspace.root, label: nil))
        }
        return ComposeInput(
            project: project, tenant: tenant, origin: "the working copy", modules: modules, tenantStrings: strings,
            warnings: warnings)
    }

    /// A tenant from the fetched refs, without a working copy: the project and the tenant's `strings` files at
    /// `origin/<tenant branch>`, every active module's files at the tenant's pin from tenantctl's module mirrors.
    ///
    /// The one place compose reads the fetched state (``Snapshot``).
    public static func fetched(
        tenant id: String, workspace: Workspace, options: Snapshot.Options, console: Console?
    ) throws -> ComposeInput {
        var options = options
        options.checkNames = { project in  // a typo costs the superproject's fetch, not every module's
            guard project.tenant(id: id) != nil else {
                throw UnknownNameError(kind: "tenant", names: [id], known: project.tenants.map(\.id))
            }
        }
        let state = try Snapshot.load(workspace: workspace, options: options, console: console)
        guard let declared = state.project.tenant(id: id) else {
            throw UnknownNameError(kind: "tenant", names: [id], known: state.project.tenants.map(\.id))
        }
        let ref = state.ref(declared.branch)
        let tip = try state.branch(declared.branch)
        let project = try ProjectReader.revision(ref, in: workspace.superproject, options: options.validation)
        guard let tenant = project.tenant(id: declared.id) else {
            throw ComposeError(.input, "origin/\(declared.branch) has no \(ProjectReader.tenantPath(declared.id))")
        }
        let pins = try state.pins(at: tip)
        var problems: [ComposeProblem] = []
        var pinned: [String: (module: Module, pin: String)] = [:]
        for module in project.manifest.modules {
            guard let pin = pins[module.path] else { continue }
            pinned[module.name] = (module, pin)
        }
        func read(_ names: [String], module name: String) throws -> [ComposeFile]? {
            guard let entry = pinned[name], state.mirrors[name] != nil else {
                problems.append(ComposeProblem(.input, "origin/\(declared.branch) pins no commit of module \(name)"))
                return nil
            }
            guard let mirror = state.existingMirror(of: name), try state.hasCommit(entry.pin, module: name) else {
                problems.append(
                    ComposeProblem(
                        .input,
                        "module \(name): the pinned commit \(ObjectID.short(entry.pin)) of origin/\(declared.branch) is "
                            + "not on the module's remote"))
                return nil
            }
            return try blobs(names.map { "\(entry.pin):\($0)" }, in: mirror, label: name)
        }
        var modules: [String: ComposeInput.ModuleFiles] = [:]
        for name in project.activeSet(for: tenant).effective {
            if let files = try read([ComposeLayout.moduleStrings, ComposeLayout.moduleDescription], module: name) {
                modules[name] = ComposeInput.ModuleFiles(strings: files[0], description: files[1])
            }
        }
        var strings: [(path: String, file: ComposeFile)] = []
        for path in tenant.strings {
            if let owner = project.manifest.modules.first(where: { path.hasPrefix($0.path + "/") }) {
                let rest = String(path.dropFirst(owner.path.count + 1))
                if let files = try read([rest], module: owner.name) { strings.append((path, files[0])) }
            } else {
                strings.append((path, try blobs(["\(tip):\(path)"], in: workspace.superproject, label: ref)[0]))
            }
        }
        guard problems.isEmpty else { throw ComposeError(problems: problems) }
        return ComposeInput(
            project: project, tenant: tenant, origin: "origin/\(declared.branch)", modules: modules,
            tenantStrings: strings)
    }

    /// Reads blobs by name (`<commit>:<path>`); a name that does not resolve is missing, a tree is refused.
    static func blobs(_ names: [String], in repository: GitRepository, label: String) throws -> [ComposeFile] {
        let batch = try repository.openBatch()
        let objects = try batch.objects(names)
        try batch.close()
        return zip(names, objects).map { name, object in
            guard let object else { return .missing }
            guard object.type == "blob" else {
                return .refused(ComposeProblem(.missingFile, "\(label): \(name) is a \(object.type), not a file"))
            }
            return .present(Data(object.data))
        }
    }

    /// Reads `relative` under `root` from disk; refuses a path that leaves `root` through a symbolic link, and
    /// anything but a regular file.
    static func file(_ relative: String, inside root: String, label: String?) -> ComposeFile {
        let shown = label.map { "\($0)/\(relative)" } ?? relative
        let url = URL(fileURLWithPath: root).appendingPathComponent(relative)
        let fileManager = FileManager.default
        do {
            _ = try fileManager.attributesOfItem(atPath: url.path)  // lstat: a dangling link exists too
        } catch let error as CocoaError where error.code == .fileReadNoSuchFile || error.code == .fileNoSuchFile {
            return .missing
        } catch {
            return .refused(ComposeProblem(.missingFile, "cannot inspect \(shown): \(error.localizedDescription)"))
        }
        let resolvedRoot = URL(fileURLWithPath: root).resolvingSymlinksInPath().path
        let resolved = url.resolvingSymlinksInPath().path
        guard resolved.hasPrefix(resolvedRoot + "/") else {
            return .refused(
                ComposeProblem(.outsideRepository, "\(shown) resolves to \(resolved), outside \(resolvedRoot)"))
        }
        var isDirectory: ObjCBool = false
        guard fileManager.fileExists(atPath: resolved, isDirectory: &isDirectory) else { return .missing }
        guard !isDirectory.boolValue else {
            return .refused(ComposeProblem(.missingFile, "\(shown) is a directory, not a file"))
        }
        do {
            return .present(try Data(contentsOf: URL(fileURLWithPath: resolved)))
        } catch {
            return .refused(ComposeProblem(.missingFile, "cannot read \(shown): \(error.localizedDescription)"))
        }
    }
}
