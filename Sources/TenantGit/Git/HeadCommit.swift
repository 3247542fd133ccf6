import Foundation

/// The commit `HEAD` names in a repository.
public enum HeadCommit {
    /// `HEAD`'s commit, or nil when `HEAD` names none (an unborn branch).
    public static func read(in repository: String, git: Git) throws -> String? {
        let head = try git.run(
            ["rev-parse", "--verify", "--quiet", "HEAD^{commit}"], in: repository,
            context: "read HEAD of the superproject", accepting: [0, 1])
        return head.status == 0 ? head.text : nil
    }
}
