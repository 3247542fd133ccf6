import Foundation

/// The superproject's remote branches as the working-copy commands (switch, pin) see them.
///
/// The one place switch and pin fetch the superproject and read its remote branches: tenantctl's own namespace
/// (``SuperprojectRemote``: every branch, complete history, whatever the clone's refspec and depth).
public enum WorkingCopyRemote {
    /// The ref that holds the remote's `branch` as last fetched (`refs/tenantctl/remotes/<remote>/<branch>`).
    public static func ref(of branch: String, in workspace: Workspace) -> String {
        SuperprojectRemote.refPrefix(workspace) + branch
    }

    /// Fetches the superproject when `fetch` (pruning branches deleted on the remote), then returns its remote
    /// branches: name → commit.
    public static func branches(_ workspace: Workspace, fetch: Bool, console: Console?) throws
        -> [String: String]
    {
        if fetch {
            console?.progress("fetching superproject")
            try SuperprojectRemote.fetch(workspace)
        }
        return try SuperprojectRemote.branches(workspace)
    }
}
