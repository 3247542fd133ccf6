import Foundation

/// After module pushes from tenantctl's mirrors, the module checkouts of the working copy learn what their remote now
/// has, as `git push` would have told them: each checked-out module that had a push that landed gets its
/// `refs/remotes/origin/<branch>` of the branches set (origin is the module remote in a checkout: switch keeps it at
/// modules.json's URL), from one local fetch of the pushed commits from the mirror. Without it, `status` compares with the remote as it was
/// before the push.
public struct ModuleCheckoutTracking: Sendable {
    /// A module push that landed.
    public struct Landed: Sendable {
        public var module: String
        public var updates: [RefUpdate]
        public var mirror: String

        public init(module: String, updates: [RefUpdate], mirror: String) {
            self.module = module
            self.updates = updates
            self.mirror = mirror
        }
    }

    /// The working copy.
    public var workspace: Workspace
    /// Module name → its path in the superproject.
    public var paths: [String: String]

    public init(workspace: Workspace, paths: [String: String]) {
        self.workspace = workspace
        self.paths = paths
    }

    /// Records `landed` in the module checkouts that exist: at most one git process per checkout. Never throws: the
    /// pushes landed; a checkout that could not record them is a warning (returned) that names the module and says
    /// how to see the remote afresh.
    public func record(_ landed: [Landed]) -> [String] {
        var warnings: [String] = []
        for push in landed {
            guard let relative = paths[push.module] else { continue }
            let checkout = workspace.path(relative)
            guard FileManager.default.fileExists(atPath: (checkout as NSString).appendingPathComponent(".git"))
            else { continue }
            let pairs = push.updates.compactMap { update -> (source: String, destination: String)? in
                // By commit: the mirror has the commit, but only roll records the pushed branch in it.
                guard let new = update.new, update.ref.isBranch else { return nil }
                return (new.hex, "refs/remotes/\(Workspace.defaultRemoteName)/\(update.ref.shortName)")
            }
            // A branch deleted on the remote loses its copy (a push that only deletes: one `update-ref --stdin`).
            let deleted = push.updates.compactMap { update -> (ref: String, commit: String?)? in
                guard update.new == nil, update.ref.isBranch else { return nil }
                return ("refs/remotes/\(Workspace.defaultRemoteName)/" + update.ref.shortName, nil)
            }
            do {
                let repository = workspace.checkout(at: relative)
                try repository.fetchRefs(
                    pairs, from: push.mirror, context: "record the pushed branches of \(push.module) in \(relative)")
                if !deleted.isEmpty {
                    try repository.setRefs(
                        deleted, message: "tenantctl: pushed",
                        context: "record the deleted branches of \(push.module) in \(relative)")
                }
            } catch {
                warnings.append(
                    "\(push.module): the push landed, but \(relative) could not record it in its "
                        + "\(Workspace.defaultRemoteName)/… refs (\(error)); tenantctl status --fetch shows the remote afresh"
                )
            }
        }
        return warnings
    }
}
