import Foundation

/// The superproject's own remote.
public enum SuperprojectRemote {
    /// Fetches `origin` (updates `refs/remotes/origin/*`; never touches local branches, the working tree or the
    /// submodules: `--no-recurse-submodules`, so the user's submodule repositories are not fetched into and a pin
    /// missing from a module remote does not fail the fetch).
    public static func fetch(_ workspace: Workspace, git: Git) throws {
        try git.run(
            ["fetch", "--quiet", "--prune", "--no-recurse-submodules", "--no-write-fetch-head", "origin"],
            in: workspace.root,
            context: "fetch the superproject from origin")
    }

    /// The configured URL of `origin` (the base of relative module URLs); nil when there is no origin.
    public static func originURL(_ workspace: Workspace, git: Git) throws -> String? {
        let output = try git.run(
            ["config", "--get", "remote.origin.url"], in: workspace.root, context: "read the superproject's origin URL",
            accepting: [0, 1])
        return output.status == 0 ? output.text : nil
    }
}
