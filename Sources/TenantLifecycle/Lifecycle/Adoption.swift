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
        /// The `branches` entries written into new tenant files, with why (``ModuleBranchProposal``).
        public var mappings: [ModuleBranchProposal] = []
        /// The pins off a module's general branch init could not map to one module branch, worded for its output.
        public var unmapped: [String] = []
    }

    /// `workspace`, the repository around the directory `init` runs in (``Workspace/enclosing(_:git:remote:)``: it
    /// need not have `modules.json` yet), when init can adopt it: it must have `.gitmodules`.
    public static func adoptable(_ workspace: Workspace) throws -> Workspace {
        guard FileManager.default.fileExists(atPath: workspace.root + "/.gitmodules") else {
            throw noGitmodules(workspace.root)
        }
        return workspace
    }

    /// The refusal of a superproject `root` without `.gitmodules`.
    static func noGitmodules(_ root: String) -> LifecycleError {
        LifecycleError(
            "\(root) has no .gitmodules: init adopts an existing submodule superproject (add the modules with "
                + "`git submodule add` first)")
    }

    /// Two or more submodules would get the same module name: nothing is written; `suggested` names every clashing
    /// submodule path after its path (`deps/a/src` → `deps-a-src`), for `init --module-name <path>=<name>`.
    public struct ModuleNameClash: Error, Sendable, Equatable, CustomStringConvertible {
        /// Module name → the clashing submodules (path and URL), in `.gitmodules` order.
        public var clashes: [(name: String, submodules: [(path: String, url: String)])]
        /// Submodule path → a name that sets it apart.
        public var suggested: [(path: String, name: String)]

        public var description: String {
            clashes.map { clash in
                ".gitmodules: submodules "
                    + clash.submodules.map { "\($0.path) (\(RemoteURL.redacted($0.url)))" }.joined(separator: " and ")
                    + " would all be module \(clash.name)"
            }.joined(separator: "\n")
        }

        public static func == (lhs: Self, rhs: Self) -> Bool { lhs.description == rhs.description }
    }

    /// The modules of `.gitmodules`, in its order: each named by ``moduleName(for:)`` unless `names` (submodule
    /// path → module name, from `--module-name`) names it; URL as written, no dependencies. Throws
    /// ``ModuleNameClash`` when two would get the same name (compared as the manifest compares names: case and
    /// Unicode normalisation folded), a ``LifecycleError`` for an entry without path or URL, or a `names` path that
    /// is no submodule.
    public static func modules(from gitmodules: [GitmodulesEntry], names: [String: String] = [:]) throws -> [Module] {
        var modules: [Module] = []
        var problems: [String] = []
        for entry in gitmodules {
            guard let path = entry.path, let url = entry.url else {
                problems.append(".gitmodules: submodule \(entry.name) has no path or no url")
                continue
            }
            modules.append(Module(name: names[path] ?? moduleName(for: entry), path: path, url: url, dependsOn: []))
        }
        let paths = Set(modules.map(\.path))
        for path in names.keys.sorted() where !paths.contains(path) {
            problems.append(
                "--module-name \(path)=…: .gitmodules has no submodule at \(path) (submodules: "
                    + modules.map(\.path).joined(separator: ", ") + ")")
        }
        guard problems.isEmpty else { throw LifecycleError(problems.joined(separator: "\n")) }
        let byName = Dictionary(grouping: modules, by: { ProjectLoader.folded($0.name) })
        var clash = ModuleNameClash(clashes: [], suggested: [])
        var reported = Set<String>()
        for module in modules {
            let key = ProjectLoader.folded(module.name)
            guard let same = byName[key], same.count > 1, reported.insert(key).inserted else { continue }
            clash.clashes.append((module.name, same.map { ($0.path, $0.url) }))
            clash.suggested += same.map {
                ($0.path, moduleName(forPath: $0.path.replacingOccurrences(of: "/", with: "-")))
            }
        }
        guard clash.clashes.isEmpty else { throw clash }
        return modules
    }

    /// Plans the files: modules from `.gitmodules` (``modules(from:names:)``); one tenant per branch (local or on
    /// the remote) matching `glob`, except the general branch, `main`, `master`; a branch with `/` (`customer/acme`)
    /// becomes the id `customer-acme` and keeps its branch; every module active; `customised` = modules whose remote
    /// has a branch of the tenant's name (`moduleBranches`: module name → its remote's branch names); `branches` =
    /// the `proposals` for the tenant's branch (``ModuleBranchProposal``), written for the files init writes.
    ///
    /// A module whose remote has no branch `generalBranch` gets its own `generalBranch`: its remote's default branch
    /// (`moduleDefaults`: module name → the branch its remote's HEAD names).
    public static func plan(
        workspace: Workspace, generalBranch: String, glob: String, gitmodules: [GitmodulesEntry],
        moduleNames: [String: String] = [:], branches: [String], moduleBranches: [String: Set<String>],
        moduleDefaults: [String: String] = [:], proposals: ModuleBranchProposal.Found = .init()
    ) throws -> Plan {
        var modules = try modules(from: gitmodules, names: moduleNames)
        for index in modules.indices {
            let name = modules[index].name
            if moduleBranches[name]?.contains(generalBranch) == false, let own = moduleDefaults[name],
                own != generalBranch
            {
                modules[index].generalBranch = own
            }
        }
        let manifest = ModuleManifest(generalBranch: generalBranch, modules: modules)
        var tenants: [Tenant] = []
        var skipped: [String] = []
        let candidates = candidateBranches(branches, generalBranch: generalBranch, glob: glob)
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
            var mapped: [String: String] = [:]
            for proposal in proposals.proposals where proposal.tenantBranch == branch {
                mapped[proposal.module] = proposal.branch
            }
            tenants.append(
                Tenant(
                    id: id, branch: branch, modules: modules.map(\.name), customised: customised, branches: mapped,
                    file: ProjectReader.tenantPath(id)))
        }
        let tenantBranches = Set(tenants.map(\.branch))
        _ = try ProjectLoader.load(
            manifest: SourceFile(path: ProjectReader.manifestPath, data: manifest.encoded()),
            tenantFiles: tenants.map { SourceFile(path: $0.file, data: $0.encoded()) },
            options: ValidationOptions(allowLocalRemotes: true))
        let files =
            [(ProjectReader.manifestPath, manifest.encoded())] + tenants.map { ($0.file, $0.encoded()) }
        let planned = files.map {
            PlannedFile(path: $0.0, data: $0.1, exists: FileManager.default.fileExists(atPath: workspace.path($0.0)))
        }
        let kept = Set(planned.filter(\.exists).map(\.path))
        let written = Set(tenants.filter { !kept.contains($0.file) }.map(\.branch))
        return Plan(
            root: workspace.root, files: planned, skipped: skipped,
            mappings: proposals.proposals.filter { written.contains($0.tenantBranch) }.sorted {
                ($0.tenantBranch, $0.module) < ($1.tenantBranch, $1.module)
            },
            unmapped: proposals.unmapped.filter { note in tenantBranches.contains { note.hasPrefix($0 + ":") } })
    }

    /// The branches that become tenants: those matching `glob`, except the general branch, `HEAD`, `main` and
    /// `master`, sorted.
    public static func candidateBranches(_ branches: [String], generalBranch: String, glob: String) -> [String] {
        Set(branches).sorted().filter { branch in
            branch != generalBranch && branch != "HEAD" && branch != "main" && branch != "master"
                && fnmatch(glob, branch, 0) == 0
        }
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

    /// The module name `init` gives a submodule: the repository name of its URL (`…/libdshowcapture.git` →
    /// `libdshowcapture`), else the last component of its submodule name, else of its path — not its path's last
    /// component alone, which is often a generic `src` or `lib` — made usable by ``moduleName(forPath:)``.
    public static func moduleName(for entry: GitmodulesEntry) -> String {
        let candidates = [entry.url.flatMap(repositoryName(ofURL:)), Optional(entry.name), entry.path]
        return candidates.lazy.compactMap { $0.flatMap(usableName(_:)) }.first ?? "Module"
    }

    /// The repository name a URL ends in, without `.git` (`https://host/org/Repo.git/` → `Repo`, `git@host:Repo`
    /// → `Repo`, `../Repo.git` → `Repo`); nil when it names none (`.`, `..`).
    public static func repositoryName(ofURL url: String) -> String? {
        var text = Substring(url)
        while text.hasSuffix("/") { text = text.dropLast() }
        if text.hasSuffix("/.git") { text = text.dropLast(5) }
        while text.hasSuffix("/") { text = text.dropLast() }
        let last = text.split(whereSeparator: { $0 == "/" || $0 == ":" || $0 == "\\" }).last.map(String.init) ?? ""
        let name = last.hasSuffix(".git") ? String(last.dropLast(4)) : last
        return name.isEmpty || name == "." || name == ".." ? nil : name
    }

    /// A name made usable as a module name: the last component of `path`, with every character a module name
    /// cannot have (whitespace, control and invisible characters) replaced by `-` (`Modules/My Module` →
    /// `My-Module`).
    public static func moduleName(forPath path: String) -> String {
        usableName(path) ?? "Module"
    }

    /// ``moduleName(forPath:)``, nil when nothing usable is left.
    static func usableName(_ path: String) -> String? {
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
        return name.isEmpty ? nil : name
    }

    /// The tenant id `init` gives a branch: the branch with every `/` replaced by `-` (`customer/acme` →
    /// `customer-acme`); the tenant keeps the branch.
    public static func tenantID(forBranch branch: String) -> String {
        branch.replacingOccurrences(of: "/", with: "-")
    }

    /// Local branches and the remote's branches as tenantctl fetched them, by name.
    public static func branches(_ workspace: Workspace) throws -> [String] {
        Array(try branchTips(workspace).keys)
    }

    /// Local branches and the remote's branches as tenantctl fetched them, name → tip (the remote's where both have
    /// the branch: what the other commands read).
    public static func branchTips(_ workspace: Workspace) throws -> [String: String] {
        let local = try workspace.superproject.branches(under: "refs/heads/", what: workspace.root)
        let remote = try SuperprojectRemote.branches(workspace)
        return local.merging(remote) { _, remote in remote }
    }

    /// The branch a remote's HEAD names (its default branch), from `ls-remote --symref`; nil when it names none.
    public static func defaultBranch(ofRemote remote: String, in repository: GitRepository) throws -> String? {
        try repository.remoteDefaultBranch(
            of: remote, context: "read the default branch of \(RemoteURL.redacted(remote))")
    }

    /// The general branch `init` adopts when none is given: `general_dev` where it exists, else the remote's default
    /// branch (its HEAD), else the branch checked out. `branches`: local and remote branch names.
    public static func detectGeneralBranch(_ workspace: Workspace, branches: [String], hasRemote: Bool)
        throws -> (branch: String, source: String)
    {
        if branches.contains(ModuleManifest.defaultGeneralBranch) {
            return (ModuleManifest.defaultGeneralBranch, "tenantctl's default")
        }
        if hasRemote,
            let head = try defaultBranch(ofRemote: workspace.remoteName, in: workspace.superproject)
        {
            return (head, "the default branch of \(workspace.remoteName)")
        }
        if let current = try workspace.superproject.headBranch(context: "read the current branch") {
            return (current, "the branch checked out")
        }
        throw LifecycleError(
            "cannot tell the general branch: no branch \(ModuleManifest.defaultGeneralBranch), no default branch on "
                + "the remote, HEAD detached; pass --general-branch <branch>")
    }
}
