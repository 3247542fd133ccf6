import Foundation

/// The branches one push sets, as refs of their own in the pushing repository
/// (`refs/tenantctl/push/<unique>/heads/<branch>` for `refs/heads/<branch>`), pushed with the pattern refspec
/// `refs/tenantctl/push/<unique>/*:refs/*`. Created with one transaction of a ``RefTransactionSession`` before the
/// push and removed after it, whatever its outcome, by a second transaction of the same `update-ref` process (with
/// what the pushing repository records of a push that landed, when it is a mirror of the remote); a run killed in
/// between, or a removal that fails, leaves them behind, harmless and never pushed again (every push has a
/// namespace of its own).
struct PushStaging {
    let prefix: String
    let refs: [RefUpdate]
    let session: RefTransactionSession

    init(_ updates: [RefUpdate], in repository: String, git: Git, repositoryName: String) throws {
        let prefix = "refs/tenantctl/push/" + UUID().uuidString.lowercased() + "/"
        var refs: [RefUpdate] = []
        for update in updates {
            guard let new = update.new, let staged = RefName(prefix + update.ref.name.dropFirst("refs/".count)) else {
                throw PushError("refusing to push \(update.ref) of \(repositoryName): nothing to set it to")
            }
            refs.append(RefUpdate(ref: staged, new: new, old: nil))
        }
        let session = try RefTransactionSession(
            in: repository, git: git, context: "stage the branches to push of \(repositoryName)")
        do {
            try session.apply(refs)
        } catch {
            _ = try? session.close()
            throw error
        }
        self.prefix = prefix
        self.refs = refs
        self.session = session
    }

    /// `<prefix>*:refs/*`.
    var refspec: String { prefix + "*:refs/*" }

    /// Deletes the staged refs and applies `recording` in the same transaction, and ends the `update-ref` process.
    /// Throws when that transaction failed: then nothing of it changed (the staged refs stay, harmless).
    func remove(recording: [RefUpdate]) throws {
        let deletions = refs.map { RefUpdate(ref: $0.ref, new: nil, old: $0.new) }
        do {
            try session.apply(deletions + recording)
        } catch {
            _ = try? session.close()
            throw error
        }
        try session.close()
    }

    /// Deletes the staged refs (best effort: a ref left behind changes nothing and is never pushed again).
    func remove() {
        _ = try? remove(recording: [])
    }
}
