import Foundation

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
        [workspace.fetchedRefPrefix, "refs/heads/", "refs/remotes/\(workspace.remoteName)/"]
    }

    /// The general branch: among the branches under the first of ``prefixes(_:)`` that has one, the branch whose
    /// `modules.json` names itself as the general branch. nil when no branch has such a file; throws when several do.
    public static func find(_ workspace: Workspace) throws -> Found? {
        let refs = try workspace.superproject.refs(prefixes(workspace), what: "the superproject")
        let batch = try workspace.superproject.openBatch()
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
    public static func ref(of name: String, _ workspace: Workspace) throws -> String? {
        for prefix in prefixes(workspace)
        where try hasManifest(prefix + name, workspace: workspace) {
            return prefix + name
        }
        return nil
    }

    /// Whether `revision` has a `modules.json`.
    package static func hasManifest(_ revision: String, workspace: Workspace) throws(GitError) -> Bool {
        try workspace.superproject.resolves(
            "\(revision):\(ProjectReader.manifestPath)",
            context: "look for \(ProjectReader.manifestPath) on \(revision)")
    }
}
