import Foundation

/// `init`: adopt an existing submodule superproject by writing `modules.json` and `Tenants/<id>.json`.
public enum Adoption {
    /// A file `init` wants to write.
    public struct PlannedFile: Sendable, Equatable {
        /// Path relative to the superproject root.
        public var path: String
        /// The content.
        public var data: Data
        /// The file exists already: it is kept as it is.
        public var exists: Bool
    }

    /// What `init` found and will write.
    public struct Plan: Sendable, Equatable {
        /// The superproject root.
        public var root: String
        /// The files, `modules.json` first.
        public var files: [PlannedFile]
        /// Branches that match the glob but cannot be tenant ids (e.g. contain `/`), with the reason.
        public var skipped: [String]
    }

    /// The superproject root around `directory` (it need not have `modules.json` yet); it must have `.gitmodules`.
    public static func locate(from directory: String, git: Git) throws -> Workspace {
        let root = try git.text(
            ["rev-parse", "--show-toplevel"], in: directory, context: "find the repository around \(directory)")
        let gitDirectory = try git.text(
            ["rev-parse", "--absolute-git-dir"], in: root, context: "find the git directory of \(root)")
        guard FileManager.default.fileExists(atPath: root + "/.gitmodules") else {
            throw LifecycleError(
                "\(root) has no .gitmodules: init adopts an existing submodule superproject (add the modules with "
                    + "`git submodule add` first)")
        }
        return Workspace(root: root, gitDirectory: gitDirectory)
    }

    /// Plans the files: modules from `.gitmodules` (name = last path component, URL as written, no dependencies);
    /// one tenant per branch (local or on origin) matching `glob`, except the general branch, `main`, `master`;
    /// every module active; `customised` = modules whose remote has a branch of the tenant's name
    /// (`moduleBranches`: module name → its remote's branch names).
    public static func plan(
        workspace: Workspace, generalBranch: String, glob: String, gitmodules: [GitmodulesEntry],
        branches: [String], moduleBranches: [String: Set<String>]
    ) throws -> Plan {
        var modules: [Module] = []
        var problems: [String] = []
        for entry in gitmodules {
            guard let path = entry.path, let url = entry.url else {
                problems.append(".gitmodules: submodule \(entry.name) has no path or no url")
                continue
            }
            let name = path.split(separator: "/").last.map(String.init) ?? path
            if modules.contains(where: { $0.name == name }) {
                problems.append(".gitmodules: two submodules end in \(name); write modules.json by hand")
            }
            modules.append(Module(name: name, path: path, url: url, dependsOn: []))
        }
        guard problems.isEmpty else { throw LifecycleError(problems.joined(separator: "\n")) }
        let manifest = ModuleManifest(generalBranch: generalBranch, modules: modules)
        var tenants: [Tenant] = []
        var skipped: [String] = []
        for branch in Set(branches).sorted() {
            guard branch != generalBranch, branch != "HEAD", branch != "main", branch != "master",
                fnmatch(glob, branch, 0) == 0
            else { continue }
            if branch.contains("/") {
                skipped.append("\(branch): a tenant id names the file Tenants/<id>.json and cannot contain /")
                continue
            }
            let customised = modules.map(\.name).filter { moduleBranches[$0]?.contains(branch) ?? false }
            tenants.append(
                Tenant(
                    id: branch, modules: modules.map(\.name), customised: customised,
                    file: ProjectReader.tenantPath(branch)))
        }
        _ = try ProjectLoader.load(
            manifest: SourceFile(path: ProjectReader.manifestPath, data: manifest.encoded()),
            tenantFiles: tenants.map { SourceFile(path: $0.file, data: $0.encoded()) },
            options: ValidationOptions(allowLocalRemotes: true))
        let files =
            [(ProjectReader.manifestPath, manifest.encoded())] + tenants.map { ($0.file, $0.encoded()) }
        return Plan(
            root: workspace.root,
            files: files.map {
                PlannedFile(
                    path: $0.0, data: $0.1, exists: FileManager.default.fileExists(atPath: workspace.path($0.0)))
            },
            skipped: skipped)
    }

    /// Writes the files that do not exist yet (never overwriting one, even if it appeared meanwhile); returns the
    /// paths written.
    public static func write(_ plan: Plan) throws -> [String] {
        var written: [String] = []
        for file in plan.files where !file.exists {
            let url = URL(fileURLWithPath: plan.root).appendingPathComponent(file.path)
            do {
                try FileManager.default.createDirectory(
                    at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                try file.data.write(to: url, options: .withoutOverwriting)
            } catch {
                throw LifecycleError(
                    "cannot write \(file.path) (written so far: \(written.isEmpty ? "nothing" : written.joined(separator: ", "))): "
                        + error.localizedDescription)
            }
            written.append(file.path)
        }
        return written
    }

    /// Local branches and branches of origin (remote-tracking), by name.
    public static func branches(_ workspace: Workspace, git: Git) throws -> [String] {
        let local = try GitRefs.branches(under: "refs/heads/", in: workspace.root, git: git, what: workspace.root)
        let remote = try GitRefs.branches(
            under: "refs/remotes/origin/", in: workspace.root, git: git, what: workspace.root)
        return Array(Set(local.keys).union(remote.keys))
    }
}
