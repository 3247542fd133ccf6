import Foundation

/// The branches one push sets, as refs of their own in the pushing repository
/// (`refs/tenantctl/push/<unique>/heads/<branch>` for `refs/heads/<branch>`), pushed with the pattern refspec
/// `refs/tenantctl/push/<unique>/*:refs/*`. Created with one `update-ref --stdin` transaction before the push and
/// removed after it, whatever its outcome; a run killed in between leaves them behind, harmless and never pushed
/// again (every push has a namespace of its own).
struct PushStaging {
    let prefix: String
    let refs: [RefUpdate]
    let repository: String
    let git: Git

    init(_ updates: [RefUpdate], in repository: String, git: Git, repositoryName: String) throws {
        let prefix = "refs/tenantctl/push/" + UUID().uuidString.lowercased() + "/"
        var refs: [RefUpdate] = []
        for update in updates {
            guard let new = update.new, update.ref.hasPrefix("refs/") else {
                throw PushError("refusing to push \(update.ref) of \(repositoryName): not a full ref name")
            }
            refs.append(RefUpdate(ref: prefix + update.ref.dropFirst("refs/".count), new: new, old: nil))
        }
        try RefTransaction.apply(
            refs, in: repository, git: git, context: "stage the branches to push of \(repositoryName)")
        self.prefix = prefix
        self.refs = refs
        self.repository = repository
        self.git = git
    }

    /// `<prefix>*:refs/*`.
    var refspec: String { prefix + "*:refs/*" }

    /// Deletes the staged refs (best effort: a ref left behind changes nothing and is never pushed again).
    func remove() {
        let deletions = refs.map { RefUpdate(ref: $0.ref, new: nil, old: $0.new) }
        _ = try? RefTransaction.apply(
            deletions, in: repository, git: git, context: "remove the staged branches of a push")
    }
}
