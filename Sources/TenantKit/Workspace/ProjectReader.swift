import Foundation

/// Reads the project files (`modules.json`, `Tenants/*.json`) from the working tree or from a commit.
public enum ProjectReader {
    /// The manifest's file name.
    public static let manifestPath = "modules.json"
    /// The folder of tenant files.
    public static let tenantsDirectory = "Tenants"

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
            for name in names.sorted() where name.hasSuffix(".json") {
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

    /// Reads the files from a commit without a checkout: one `ls-tree` and one `cat-file --batch`.
    /// - Parameter revision: e.g. `refs/remotes/origin/general_dev`.
    public static func revision(_ revision: String, repository: String, git: Git, options: ValidationOptions) throws
        -> Project
    {
        let label = displayName(of: revision)
        let listing = try git.run(
            ["ls-tree", "-z", "--end-of-options", revision, "--", "\(tenantsDirectory)/"], in: repository,
            context: "list \(tenantsDirectory)/ on \(label)")
        guard let entries = GitParse.lsTree(listing.stdout) else {
            throw GitError(
                context: "list \(tenantsDirectory)/ on \(label)", kind: .unparseableOutput(detail: "ls-tree output"),
                command: [], directory: repository, stderr: "")
        }
        let tenantEntries = entries.filter { $0.entry.mode.hasPrefix("100") && $0.path.hasSuffix(".json") }
            .sorted { $0.path < $1.path }
        let batch = try CatFileBatch(git: git, repository: repository)
        let objects = try batch.objects(["\(revision):\(manifestPath)"] + tenantEntries.map(\.entry.id))
        try batch.close()
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

    /// The general branch that repository-wide commands read the files from: the `generalBranch` of the working
    /// tree's `modules.json` (every branch carries the same files after a roll), else `general_dev`. A file that
    /// cannot be read or names no valid branch gives the default; the files on that branch are then validated
    /// strictly as usual.
    public static func generalBranchHint(_ workspace: Workspace) -> String {
        let fallback = ModuleManifest.defaultGeneralBranch
        guard let data = FileManager.default.contents(atPath: workspace.path(manifestPath)),
            let value = try? JSONParser.parse(data), case .object(let members, _) = value,
            let member = members.first(where: { $0.key == "generalBranch" }),
            case .string(let name, _) = member.value, RefName.validateBranch(name) == nil
        else { return fallback }
        return name
    }

    /// `refs/remotes/origin/general_dev` → `origin/general_dev`.
    static func displayName(of revision: String) -> String {
        for prefix in ["refs/remotes/", "refs/heads/", "refs/tags/"] where revision.hasPrefix(prefix) {
            return String(revision.dropFirst(prefix.count))
        }
        return revision
    }
}

/// Module remote URLs, resolved as git resolves submodule URLs.
public enum ModuleRemotes {
    /// One mirror spec per module: relative URLs resolved against the superproject's origin URL
    /// (or its directory when it has no origin); local remotes refused unless allowed.
    public static func specs(for modules: [Module], workspace: Workspace, git: Git) throws -> [MirrorSpec] {
        let base = try Superproject.originURL(workspace, git: git) ?? workspace.root
        var specs: [MirrorSpec] = []
        var problems: [String] = []
        for module in modules {
            var resolved = module.url
            if RemoteURL.classify(module.url) == .relative {
                guard let url = RemoteURL.resolve(relative: module.url, against: base) else {
                    problems.append(
                        "module \(module.name): cannot resolve \(module.url) against the superproject's remote "
                            + RemoteURL.redacted(base))
                    continue
                }
                resolved = url
            }
            if RemoteURL.isLocal(resolved) && !git.allowLocalRemotes {
                problems.append(
                    "module \(module.name): remote \(RemoteURL.redacted(resolved)) is a local path; "
                        + "allow local remotes with --allow-local-remotes or TENANTCTL_ALLOW_LOCAL_REMOTES=1")
                continue
            }
            if let problem = RemoteURL.validate(resolved) {
                problems.append("module \(module.name): remote \(RemoteURL.redacted(resolved)): \(problem)")
                continue
            }
            specs.append(MirrorSpec(name: module.name, url: resolved))
        }
        guard problems.isEmpty else { throw WorkspaceError(problems.joined(separator: "\n")) }
        return specs
    }
}
