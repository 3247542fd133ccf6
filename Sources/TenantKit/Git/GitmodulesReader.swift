import Foundation

/// Reads the `.gitmodules` of a superproject commit without a checkout.
public enum GitmodulesReader {
    /// The submodules the `.gitmodules` of `commit` declares, in file order; empty when the commit has no
    /// `.gitmodules` file.
    public static func entries(at commit: String, in repository: String, git: Git) throws(GitError)
        -> [GitmodulesEntry]
    {
        try GitRepository(repository, git: git).gitmodules(at: commit)
    }
}

extension GitmodulesReader {
    /// Where a module is in the `.gitmodules` `entries` of some commit, found by its identity rather than by
    /// today's path: the entry with the submodule `name` the module has elsewhere (on the general branch), else
    /// the one whose URL is one of `urls` (compared with `sameURL`). nil when neither is there, or when the URL
    /// matches several entries.
    public static func locate(
        name: String?, urls: [String], in entries: [GitmodulesEntry], sameURL: (String, String) -> Bool
    ) -> GitmodulesEntry? {
        if let name, let entry = entries.first(where: { $0.name == name && $0.path != nil }) {
            return entry
        }
        let matching = entries.filter { entry in
            guard entry.path != nil, let url = entry.url else { return false }
            return urls.contains { sameURL($0, url) }
        }
        return matching.count == 1 ? matching.first : nil
    }
}
