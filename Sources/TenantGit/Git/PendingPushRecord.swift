import Foundation

/// The record of a landed push in the pushing repository itself (a mirror of the remote: each branch set to its new
/// commit, leased on its old one), not made yet: with the removal of the staged branches when there are some (the
/// second transaction of the `update-ref` process that staged them), else in a ref transaction of its own. Handed
/// from the pushing thread to the one that completes it; used by one thread at a time.
public final class PendingPushRecord: @unchecked Sendable {
    let updates: [RefUpdate]
    let staging: PushStaging?
    let repository: String
    let name: String
    let git: Git

    init(updates: [RefUpdate], staging: PushStaging?, repository: String, name: String, git: Git) {
        self.updates = updates
        self.staging = staging
        self.repository = repository
        self.name = name
        self.git = git
    }

    /// Makes the record (call once). Returns the failure, if any: the push landed all the same.
    public func complete() -> (any Error)? {
        do {
            if let staging {
                try staging.remove(recording: updates)
            } else {
                try RefTransaction.apply(
                    updates, in: repository, git: git, context: "record the pushed branches of \(name)")
            }
            return nil
        } catch {
            return error
        }
    }
}
