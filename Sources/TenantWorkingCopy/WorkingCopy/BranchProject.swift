import Foundation

/// The project files a superproject branch is worked with (switch, status, pin).
///
/// A branch with a `modules.json` has its own files. A tenant branch without one — an adopted superproject before
/// its first roll, an old release line — borrows the general branch's `modules.json` and `Tenants/`; its own
/// gitlinks say which commit each module is pinned at, and a module it does not have is not pinned there.
public enum BranchProject {
    /// The files of the checked-out branch: the working tree's `modules.json` and `Tenants/`, or, when the working
    /// tree has no `modules.json`, the general branch's.
    public static func workingTree(_ workspace: Workspace, options: ValidationOptions) throws -> Project {
        if FileManager.default.fileExists(atPath: workspace.path(ProjectReader.manifestPath)) {
            return try ProjectReader.workingTree(workspace, options: options)
        }
        guard let general = try GeneralBranchLocator.find(workspace) else {
            throw WorkspaceError(
                "\(workspace.root) has no \(ProjectReader.manifestPath), and no branch of the superproject has one; "
                    + "is this a tenantctl superproject? (tenantctl init writes the files)")
        }
        let project = try ProjectReader.revision(general.ref, in: workspace.superproject, options: options)
        return try placed(project, generalRef: general.ref, at: "HEAD", workspace: workspace)
    }

    /// The files at `revision`: its own, or — when it has no `modules.json` — those of the general branch
    /// `general` names (read from the remote's branch as last fetched, else the local branch).
    public static func revision(
        _ revision: String, general: String, workspace: Workspace, options: ValidationOptions
    ) throws -> Project {
        if try GeneralBranchLocator.hasManifest(revision, workspace: workspace) {
            return try ProjectReader.revision(revision, in: workspace.superproject, options: options)
        }
        guard let ref = try GeneralBranchLocator.ref(of: general, workspace) else {
            throw WorkspaceError(
                "\(ProjectReader.displayName(of: revision)) has no \(ProjectReader.manifestPath), and neither has "
                    + "the general branch \(general), locally or on \(workspace.remoteName); is this a tenantctl "
                    + "superproject? (tenantctl init writes the files)")
        }
        let project = try ProjectReader.revision(ref, in: workspace.superproject, options: options)
        return try placed(project, generalRef: ref, at: revision, workspace: workspace)
    }

    /// The general branch's project with each module at the path `revision` has it: a module whose path moved
    /// between the branches (same submodule name, or same URL, in `.gitmodules`) is found where `revision`'s
    /// `.gitmodules` puts it (``Gitmodules/locate(name:urls:sameURL:)``); every other module keeps its
    /// path.
    static func placed(_ project: Project, generalRef: String, at revision: String, workspace: Workspace)
        throws -> Project
    {
        let repository = workspace.superproject
        guard let here = try repository.gitmodules(at: revision), !here.entries.isEmpty else { return project }
        let general = try repository.gitmodules(at: generalRef) ?? Gitmodules()
        let superOrigin = try SuperprojectRemote.originURL(workspace) ?? workspace.root
        func sameURL(_ lhs: String, _ rhs: String) -> Bool {
            guard let left = WorkingCopySwitch.resolved(lhs, superOrigin: superOrigin),
                let right = WorkingCopySwitch.resolved(rhs, superOrigin: superOrigin)
            else { return false }
            return WorkingCopySwitch.sameRemote(left, right)
        }
        var result = project
        for index in result.manifest.modules.indices {
            let module = result.manifest.modules[index]
            if here.entry(atPath: module.path) != nil { continue }
            let identity = general.entry(atPath: module.path)
            guard
                let found = here.locate(
                    name: identity?.name,
                    urls: ([module.url] + [identity?.url].compactMap { $0 }).filter { !$0.isEmpty },
                    sameURL: sameURL),
                let path = found.path, !result.manifest.modules.contains(where: { $0.path == path })
            else { continue }
            result.manifest.modules[index].path = path
        }
        return result
    }
}
