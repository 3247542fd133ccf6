import Foundation

/// Where a push that landed is written down: the refs under `prefix` in `repository` that keep a copy of the
/// remote's branches (`refs/tenantctl/remotes/origin/` in the superproject), as `git push` updates
/// `refs/remotes/<remote>/…` for the branches it pushed. A branch `refs/heads/<b>` set on the remote sets
/// `<prefix><b>`; one deleted there deletes it.
public struct PushTracking: Sendable, Equatable {
    /// The repository that keeps the copy (it has the pushed commits: the pushing repository itself).
    public var repository: String
    /// The namespace of the copy, ending in `/`.
    public var prefix: String

    public init(repository: String, prefix: String) {
        self.repository = repository
        self.prefix = prefix
    }

    /// Sets the copy of every branch `updates` changed to what the remote now has (one `update-ref --stdin`).
    func record(_ updates: [RefUpdate], repositoryName: String, git: Git) throws {
        let values = updates.compactMap { update -> (ref: String, commit: String?)? in
            guard update.ref.isBranch else { return nil }
            return (prefix + update.ref.shortName, update.new?.hex)
        }
        try GitRepository(repository, git: git).setRefs(
            values, message: "tenantctl: pushed",
            context: "record the pushed branches of \(repositoryName) in \(prefix)")
    }
}
