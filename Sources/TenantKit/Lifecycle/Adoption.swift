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
    public static func locate(from directory: String, git: Git, remote: String = Workspace.defaultRemoteName) throws
        -> Workspace
    {
        let root = try git.text(
            ["rev-parse", "--show-toplevel"], in: directory, context: "find the repository around \(directory)")
        let gitDirectory = try git.text(
            ["rev-parse", "--absolute-git-dir"], in: root, context: "find the git directory of \(root)")
        guard FileManager.default.fileExists(atPath: root + "/.gitmodules") else {
            throw LifecycleError(
                "\(root) has no .gitmodules: init adopts an existing submodule superproject (add the modules with "
                    + "`git submodule add` first)")
        }
        return Workspace(root: root, gitDirectory: gitDirectory, remoteName: remote)
    }

    /// Plans the files: modules from `.gitmodules` (name = last path component with whitespace and other characters a
    /// module name cannot have replaced by `-`, URL as written, no dependencies); one tenant per branch (local or on
    /// the remote) matching `glob`, except the general branch, `main`, `master`; a branch with `/` (`customer/acme`)
    /// becomes the id `customer-acme` and keeps its branch; every module active; `customised` = modules whose remote
    /// has a branch of the tenant's name (`moduleBranches`: module name → its remote's branch names).
    ///
    /// A module whose remote has no branch `generalBranch` gets its own `generalBranch`: its remote's default branch
    /// (`moduleDefaults`: module name → the branch its remote's HEAD names).
    public static func plan(
        workspace: Workspace, generalBranch: String, glob: String, gitmodules: [GitmodulesEntry],
        branches: [String], moduleBranches: [String: Set<String>], moduleDefaults: [String: String] = [:]
    ) throws -> Plan {
        var modules: [Module] = []
        var problems: [String] = []
        for entry in gitmodules {
            guard let path = entry.path, let url = entry.url else {
                problems.append(".gitmodules: submodule \(entry.name) has no path or no url")
                continue
            }
            let name = moduleName(forPath: path)
            if modules.contains(where: { $0.name == name }) {
                problems.append(".gitmodules: two submodules end in \(name); write modules.json by hand")
            }
            var module = Module(name: name, path: path, url: url, dependsOn: [])
            if moduleBranches[name]?.contains(generalBranch) == false, let own = moduleDefaults[name],
                own != generalBranch
            {
                module.generalBranch = own
            }
            modules.append(module)
        }
        guard problems.isEmpty else { throw LifecycleError(problems.joined(separator: "\n")) }
        let manifest = ModuleManifest(generalBranch: generalBranch, modules: modules)
        var tenants: [Tenant] = []
        var skipped: [String] = []
        let candidates = Set(branches).sorted().filter { branch in
            branch != generalBranch && branch != "HEAD" && branch != "main" && branch != "master"
                && fnmatch(glob, branch, 0) == 0
        }
        let byID = Dictionary(grouping: candidates, by: tenantID(forBranch:))
        for branch in candidates {
            let id = tenantID(forBranch: branch)
            if let others = byID[id], others.count > 1 {
                skipped.append(
                    "\(branch): branches \(others.joined(separator: ", ")) would all be tenant \(id); write "
                        + "Tenants/\(id).json by hand")
                continue
            }
            if let reason = RefName.validateBranch(id) {
                skipped.append("\(branch): the tenant id \(id) is not usable (\(reason)); write the file by hand")
                continue
            }
            let customised = modules.map(\.name).filter { moduleBranches[$0]?.contains(branch) ?? false }
            tenants.append(
                Tenant(
                    id: id, branch: branch, modules: modules.map(\.name), customised: customised,
                    file: ProjectReader.tenantPath(id)))
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

    /// The module name `init` gives the submodule at `path`: its last component, with every character a module name
    /// cannot have (whitespace, control and invisible characters) replaced by `-` (`Modules/My Module` →
    /// `My-Module`).
    public static func moduleName(forPath path: String) -> String {
        let last = path.split(separator: "/").last.map(String.init) ?? path
        var scalars = String.UnicodeScalarView()
        for scalar in last.unicodeScalars {
            let bad =
                scalar.properties.isWhitespace || scalar.properties.generalCategory == .control || scalar == "\\"
                || RepoPath.isInvisibleOrBidi(scalar)
            scalars.append(bad ? "-" : scalar)
        }
        var name = String(scalars)
        while name.hasPrefix("-") || name.hasPrefix(".") { name.removeFirst() }
        while name.contains("..") { name = name.replacingOccurrences(of: "..", with: ".") }
        return name.isEmpty ? "Module" : name
    }

    /// The tenant id `init` gives a branch: the branch with every `/` replaced by `-` (`customer/acme` →
    /// `customer-acme`); the tenant keeps the branch.
    public static func tenantID(forBranch branch: String) -> String {
        branch.replacingOccurrences(of: "/", with: "-")
    }

    /// Local branches and the remote's branches as tenantctl fetched them, by name.
    public static func branches(_ workspace: Workspace, git: Git) throws -> [String] {
        let local = try GitRefs.branches(under: "refs/heads/", in: workspace.root, git: git, what: workspace.root)
        let remote = try SuperprojectRemote.branches(workspace, git: git)
        return Array(Set(local.keys).union(remote.keys))
    }

    /// The branch a remote's HEAD names (its default branch), from `ls-remote --symref`; nil when it names none.
    public static func defaultBranch(ofRemote remote: String, in directory: String, git: Git) throws -> String? {
        let output = try git.runNetwork(
            ["ls-remote", "--symref", "--end-of-options", remote, "HEAD"], in: directory, remote: remote,
            context: "read the default branch of \(RemoteURL.redacted(remote))")
        for line in output.lines where line.hasPrefix("ref: refs/heads/") {
            let fields = line.dropFirst("ref: refs/heads/".count).split(separator: "\t")
            if fields.count == 2, fields[1] == "HEAD" { return String(fields[0]) }
        }
        return nil
    }

    /// The general branch `init` adopts when none is given: `general_dev` where it exists, else the remote's default
    /// branch (its HEAD), else the branch checked out. `branches`: local and remote branch names.
    public static func detectGeneralBranch(_ workspace: Workspace, branches: [String], hasRemote: Bool, git: Git)
        throws -> (branch: String, source: String)
    {
        if branches.contains(ModuleManifest.defaultGeneralBranch) {
            return (ModuleManifest.defaultGeneralBranch, "tenantctl's default")
        }
        if hasRemote,
            let head = try defaultBranch(ofRemote: workspace.remoteName, in: workspace.root, git: git)
        {
            return (head, "the default branch of \(workspace.remoteName)")
        }
        let current = try git.run(
            ["symbolic-ref", "--quiet", "--short", "HEAD"], in: workspace.root, context: "read the current branch",
            accepting: [0, 1])
        if current.status == 0, !current.text.isEmpty { return (current.text, "the branch checked out") }
        throw LifecycleError(
            "cannot tell the general branch: no branch \(ModuleManifest.defaultGeneralBranch), no default branch on "
                + "the remote, HEAD detached; pass --general-branch <branch>")
    }
}
