import Foundation

/// Whether a repository's index records submodules.
public enum IndexGitlinks {
    /// Whether the index of `repository` has a gitlink (mode 160000) entry (one `ls-files --stage`).
    public static func any(in repository: String, git: Git) throws -> Bool {
        let output = try git.run(["ls-files", "--stage", "-z"], in: repository, context: "list the index")
        return output.stdout.split(separator: 0).contains { $0.starts(with: Array("160000 ".utf8)) }
    }
}
