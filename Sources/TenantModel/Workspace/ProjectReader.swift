import Foundation

/// Reads the project files (`modules.json`, `Tenants/*.json`) from the working tree or from a commit.
public enum ProjectReader {
    /// The manifest's file name.
    public static let manifestPath = "modules.json"
    /// The folder of tenant files.
    public static let tenantsDirectory = "Tenants"

    /// Whether a file in `Tenants/` is read as a tenant file: its name ends in `.json` in any case, so that
    /// `t1.JSON` is reported by the loader (the extension must be `.json`) instead of being ignored.
    static func isTenantFileName(_ name: String) -> Bool {
        name.lowercased().hasSuffix(".json")
    }

    /// Reads the files from the superproject's working tree (switch, status, pin).
    public static func workingTree(_ workspace: Workspace, options: ValidationOptions) throws -> Project {
        let manifestURL = URL(fileURLWithPath: workspace.path(manifestPath))
        let manifest: Data
        do {
            manifest = try Data(contentsOf: manifestURL)
        } catch {
            throw WorkspaceError("cannot read \(manifestURL.path): \(error.localizedDescription)")
        }
        let tenantsURL = URL(fileURLWithPath: workspace.path(tenantsDirectory), isDirectory: true)
        var tenantFiles: [SourceFile] = []
        if FileManager.default.fileExists(atPath: tenantsURL.path) {
            let names: [String]
            do {
                names = try FileManager.default.contentsOfDirectory(atPath: tenantsURL.path)
            } catch {
                throw WorkspaceError("cannot list \(tenantsURL.path): \(error.localizedDescription)")
            }
            for name in names.sorted() where isTenantFileName(name) {
                let url = tenantsURL.appendingPathComponent(name)
                do {
                    tenantFiles.append(SourceFile(path: "\(tenantsDirectory)/\(name)", data: try Data(contentsOf: url)))
                } catch {
                    throw WorkspaceError("cannot read \(url.path): \(error.localizedDescription)")
                }
            }
        }
        return try ProjectLoader.load(
            manifest: SourceFile(path: manifestPath, data: manifest), tenantFiles: tenantFiles, options: options)
    }

    /// Reads the files from a commit without a checkout: one `ls-tree` and one `cat-file --batch` (`batch` when
    /// the caller has one open on `repository`, else one started and ended here).
    /// - Parameter revision: e.g. `refs/remotes/origin/general_dev`.
    public static func revision(
        _ revision: String, in repository: GitRepository, options: ValidationOptions, batch: CatFileBatch? = nil
    ) throws -> Project {
        let label = displayName(of: revision)
        let entries = try repository.treeEntries(
            at: revision, path: "\(tenantsDirectory)/", context: "list \(tenantsDirectory)/ on \(label)")
        let tenantEntries = entries.filter { $0.entry.mode.hasPrefix("100") && isTenantFileName($0.path) }
            .sorted { $0.path < $1.path }
        let names = ["\(revision):\(manifestPath)"] + tenantEntries.map(\.entry.id)
        let objects: [GitObject?]
        if let batch {
            objects = try batch.objects(names)
        } else {
            let own = try repository.openBatch()
            objects = try own.objects(names)
            try own.close()
        }
        guard let manifest = objects.first ?? nil, manifest.type == "blob" else {
            throw WorkspaceError("\(label) has no \(manifestPath); is this a tenantctl superproject?")
        }
        var tenantFiles: [SourceFile] = []
        for (entry, object) in zip(tenantEntries, objects.dropFirst()) {
            guard let object else {
                throw WorkspaceError("cannot read \(label):\(entry.path)")
            }
            tenantFiles.append(SourceFile(path: "\(label):\(entry.path)", data: Data(object.data)))
        }
        return try ProjectLoader.load(
            manifest: SourceFile(path: "\(label):\(manifestPath)", data: Data(manifest.data)), tenantFiles: tenantFiles,
            options: options)
    }

    /// The general branch the working tree's `modules.json` names: its `generalBranch`, or `general_dev` when the
    /// file omits it. When the file cannot be read or names no valid branch, `branch` is nil and `problem` says why
    /// (the caller decides what to do; the files on the general branch are validated strictly in any case).
    public static func generalBranchHint(_ workspace: Workspace) -> (branch: String?, problem: String?) {
        guard let data = FileManager.default.contents(atPath: workspace.path(manifestPath)) else {
            return (nil, "cannot read \(workspace.path(manifestPath))")
        }
        return declaredGeneralBranch(data)
    }

    /// The general branch a `modules.json` names (`general_dev` when it omits it), read leniently: nil with the
    /// reason when the file is no JSON object or names no valid branch.
    static func declaredGeneralBranch(_ data: Data) -> (branch: String?, problem: String?) {
        let value: JSONValue
        do {
            value = try JSONParser.parse(data)
        } catch {
            return (nil, "\(manifestPath): \(error)")
        }
        guard case .object(let members, _) = value else { return (nil, "\(manifestPath) is not a JSON object") }
        guard let member = members.first(where: { $0.key == "generalBranch" }) else {
            return (ModuleManifest.defaultGeneralBranch, nil)
        }
        guard case .string(let name, _) = member.value, RefName.validateBranch(name) == nil else {
            return (nil, "\(manifestPath): generalBranch is not a valid branch name")
        }
        return (name, nil)
    }

    /// The `review` objects of the working tree's `modules.json` (the manifest's and each module's): what the user has
    /// checked out, which says how reviews are proposed and which command opens them. Nil when the working tree has
    /// no `modules.json`; a file whose objects have problems is refused, naming the file and the field.
    public static func checkedOutReview(_ workspace: Workspace) throws -> CheckedOutReview? {
        let path = workspace.path(manifestPath)
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        var decoder = FieldDecoder(file: manifestPath)
        guard let manifest = ProjectLoader.decodeManifest(SourceFile(path: manifestPath, data: data), decoder: &decoder)
        else { throw ManifestError(problems: decoder.problems) }
        return CheckedOutReview(manifest: manifest)
    }

    /// `Tenants/<id>.json`.
    public static func tenantPath(_ id: String) -> String { "\(tenantsDirectory)/\(id).json" }

    /// `refs/remotes/origin/general_dev` and `refs/tenantctl/remotes/origin/general_dev` → `origin/general_dev`.
    package static func displayName(of revision: String) -> String {
        for prefix in ["refs/tenantctl/remotes/", "refs/remotes/", "refs/heads/", "refs/tags/"]
        where revision.hasPrefix(prefix) {
            return String(revision.dropFirst(prefix.count))
        }
        return revision
    }
}
