import Foundation

/// Where roll's superproject merges run: a git directory of their own that shares only the superproject's object
/// store.
///
/// `merge-tree` in a superproject whose submodules are checked out opens the repository of every submodule whose
/// gitlink both sides changed (merge-ort looks there for a commit that contains both): per merge it reads that
/// module's config and refs. A roll merges the general branch into every tenant branch, and with T tenants
/// customising a module that is T × (the module's refs): at 10,000 tenants × 50 modules the one `merge-tree` of the
/// superproject ran for minutes after a `switch`. roll sets every gitlink by its pin rule afterwards, so it never
/// needed that search; in a git directory with no submodules (and no work tree) git finds none, and the merges give
/// what they give in a fresh clone. The objects (and the trees the merges write) stay in the superproject's store.
enum SubmoduleFreeMerge {
    /// `superproject` run with `GIT_DIR` set to `<commonDirectory>/tenantctl/merge-directory` (created when missing;
    /// HEAD, an empty refs directory, a config with the object format of `objectID`) and `GIT_OBJECT_DIRECTORY` to
    /// the superproject's objects. A shallow superproject's `shallow` file is copied, so the merge bases stay the
    /// same.
    static func repository(merging superproject: GitRepository, commonDirectory: String, objectID: String) throws
        -> GitRepository
    {
        let directory = commonDirectory + "/tenantctl/merge-directory"
        let manager = FileManager.default
        try manager.createDirectory(atPath: directory + "/refs", withIntermediateDirectories: true)
        let format = objectID.count == 64 ? "sha256" : "sha1"
        let config =
            "[core]\n\trepositoryformatversion = \(format == "sha1" ? 0 : 1)\n\tbare = true\n"
            + (format == "sha1" ? "" : "[extensions]\n\tobjectformat = sha256\n")
        try Data(config.utf8).write(to: URL(fileURLWithPath: directory + "/config"), options: .atomic)
        try Data("ref: refs/heads/merge\n".utf8).write(
            to: URL(fileURLWithPath: directory + "/HEAD"), options: .atomic)
        let shallow = directory + "/shallow"
        if manager.fileExists(atPath: shallow) { try manager.removeItem(atPath: shallow) }
        if manager.fileExists(atPath: commonDirectory + "/shallow") {
            try manager.copyItem(atPath: commonDirectory + "/shallow", toPath: shallow)
        }
        return superproject.runBy(
            superproject.git.with(
                environment: ["GIT_DIR": directory, "GIT_OBJECT_DIRECTORY": commonDirectory + "/objects"]))
    }
}
