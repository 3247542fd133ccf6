import Foundation

/// The project files a superproject branch is worked with (switch, status, pin).
///
/// A branch with a `modules.json` has its own files. A tenant branch without one — an adopted superproject before
/// its first roll, an old release line — borrows the general branch's `modules.json` and `Tenants/`; its own
/// gitlinks say which commit each module is pinned at, and a module it does not have is not pinned there.
public enum BranchProject {
    /// The files of the checked-out branch: the working tree's `modules.json` and `Tenants/`, or, when the working
    /// tree has no `modules.json`, the general branch's.
    public static func workingTree(_ workspace: Workspace, git: Git, options: ValidationOptions) throws -> Project {
        if FileManager.default.fileExists(atPath: workspace.path(ProjectReader.manifestPath)) {
            return try ProjectReader.workingTree(workspace, options: options)
        }
        guard let general = try GeneralBranchLocator.find(workspace, git: git) else {
            throw WorkspaceError(
                "\(workspace.root) has no \(ProjectReader.manifestPath), and no branch of the superproject has one; "
                    + "is this a tenantctl superproject? (tenantctl init writes the files)")
        }
        let project = try ProjectReader.revision(general.ref, repository: workspace.root, git: git, options: options)
        return try placed(project, generalRef: general.ref, at: "HEAD", workspace: workspace, git: git)
    }

    /// The files at `revision`: its own, or — when it has no `modules.json` — those of the general branch
    /// `general` names (read from the remote's branch as last fetched, else the local branch).
    public static func revision(
        _ revision: String, general: String, workspace: Workspace, git: Git, options: ValidationOptions
    ) throws -> Project {
        if try hasManifest(revision, workspace: workspace, git: git) {
            return try ProjectReader.revision(revision, repository: workspace.root, git: git, options: options)
        }
        guard let ref = try GeneralBranchLocator.ref(of: general, workspace, git: git) else {
            throw WorkspaceError(
                "\(ProjectReader.displayName(of: revision)) has no \(ProjectReader.manifestPath), and neither has "
                    + "the general branch \(general), locally or on \(workspace.remoteName); is this a tenantctl "
                    + "superproject? (tenantctl init writes the files)")
        }
        let project = try ProjectReader.revision(ref, repository: workspace.root, git: git, options: options)
        return try placed(project, generalRef: ref, at: revision, workspace: workspace, git: git)
    }

    /// The general branch's project with each module at the path `revision` has it: a module whose path moved
    /// between the branches (same submodule name, or same URL, in `.gitmodules`) is found where `revision`'s
    /// `.gitmodules` puts it (``GitmodulesReader/locate(name:urls:in:sameURL:)``); every other module keeps its
    /// path.
    static func placed(_ project: Project, generalRef: String, at revision: String, workspace: Workspace, git: Git)
        throws -> Project
    {
        let here = try GitmodulesReader.entries(at: revision, in: workspace.root, git: git)
        guard !here.isEmpty else { return project }
        let general = try GitmodulesReader.entries(at: generalRef, in: workspace.root, git: git)
        let superOrigin = try SuperprojectRemote.originURL(workspace, git: git) ?? workspace.root
        func sameURL(_ lhs: String, _ rhs: String) -> Bool {
            guard let left = WorkingCopySwitch.resolved(lhs, superOrigin: superOrigin),
                let right = WorkingCopySwitch.resolved(rhs, superOrigin: superOrigin)
            else { return false }
            return WorkingCopySwitch.sameRemote(left, right)
        }
        var result = project
        for index in result.manifest.modules.indices {
            let module = result.manifest.modules[index]
            if here.contains(where: { $0.path == module.path }) { continue }
            let identity = general.first { $0.path == module.path }
            guard
                let found = GitmodulesReader.locate(
                    name: identity?.name,
                    urls: ([module.url] + [identity?.url].compactMap { $0 }).filter { !$0.isEmpty },
                    in: here, sameURL: sameURL),
                let path = found.path, !result.manifest.modules.contains(where: { $0.path == path })
            else { continue }
            result.manifest.modules[index].path = path
        }
        return result
    }

    /// Whether `revision` has a `modules.json`.
    static func hasManifest(_ revision: String, workspace: Workspace, git: Git) throws(GitError) -> Bool {
        try GitRepository(workspace.root, git: git).resolves(
            "\(revision):\(ProjectReader.manifestPath)",
            context: "look for \(ProjectReader.manifestPath) on \(revision)")
    }
}

/// Finds the general branch without the working tree's `modules.json`: the branch whose own `modules.json` names it
/// as the general branch.
public enum GeneralBranchLocator {
    /// A general branch and the ref its files are read from.
    public struct Found: Sendable, Equatable {
        /// The branch name (`main`).
        public var name: String
        /// The ref (`refs/tenantctl/remotes/origin/main`, `refs/heads/main` or `refs/remotes/origin/main`).
        public var ref: String
    }

    /// Where branches are looked for, in order: the remote's branches as tenantctl last fetched them, the local
    /// branches, the clone's remote-tracking branches.
    static func prefixes(_ workspace: Workspace) -> [String] {
        [SuperprojectRemote.refPrefix(workspace), "refs/heads/", "refs/remotes/\(workspace.remoteName)/"]
    }

    /// The general branch: among the branches under the first of ``prefixes(_:)`` that has one, the branch whose
    /// `modules.json` names itself as the general branch. nil when no branch has such a file; throws when several do.
    public static func find(_ workspace: Workspace, git: Git) throws -> Found? {
        let refs = try GitRefs.list(prefixes(workspace), in: workspace.root, git: git, what: "the superproject")
        let batch = try CatFileBatch(git: git, repository: workspace.root)
        defer { try? batch.close() }
        for prefix in prefixes(workspace) {
            let names = refs.keys.filter { $0.hasPrefix(prefix) && $0 != prefix + "HEAD" }.sorted()
            let files = try batch.objects(names.map { "\($0):\(ProjectReader.manifestPath)" })
            var found: [Found] = []
            for (ref, file) in zip(names, files) {
                guard let file, file.type == "blob" else { continue }
                let branch = String(ref.dropFirst(prefix.count))
                if ProjectReader.declaredGeneralBranch(Data(file.data)).branch == branch {
                    found.append(Found(name: branch, ref: ref))
                }
            }
            if found.count > 1 {
                throw WorkspaceError(
                    "the working tree has no \(ProjectReader.manifestPath), and several branches name themselves the "
                        + "general branch in theirs (\(found.map(\.name).joined(separator: ", "))); switch to the "
                        + "general branch first (git switch <branch>)")
            }
            if let first = found.first { return first }
        }
        return nil
    }

    /// The ref the files of the general branch `name` are read from: the first of ``prefixes(_:)`` whose branch
    /// `name` has a `modules.json`; nil when none has.
    public static func ref(of name: String, _ workspace: Workspace, git: Git) throws -> String? {
        for prefix in prefixes(workspace)
        where try BranchProject.hasManifest(prefix + name, workspace: workspace, git: git) {
            return prefix + name
        }
        return nil
    }
}
