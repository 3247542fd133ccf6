import Foundation

/// The commit `HEAD` names in a repository. Being replaced by ``GitRepository/objectID(of:peeledTo:context:)``,
/// which it forwards to.
public enum HeadCommit {
    /// `HEAD`'s commit, or nil when `HEAD` names none (an unborn branch).
    public static func read(in repository: String, git: Git) throws -> String? {
        try GitRepository(repository, git: git).objectID(
            of: "HEAD", peeledTo: .commit, context: "read HEAD of the superproject")?.hex
    }
}
