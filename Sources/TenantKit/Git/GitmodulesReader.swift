import Foundation

/// Reads the `.gitmodules` of a superproject commit without a checkout.
public enum GitmodulesReader {
    /// The submodules the `.gitmodules` of `commit` declares, in file order; empty when the commit has no
    /// `.gitmodules` file.
    public static func entries(at commit: String, in repository: String, git: Git) throws(GitError)
        -> [GitmodulesEntry]
    {
        let label = ObjectID.isValid(commit) ? ObjectID.short(commit) : commit
        let blob = try git.run(
            ["rev-parse", "--verify", "--quiet", "--end-of-options", "\(commit):.gitmodules"], in: repository,
            context: "look for .gitmodules on \(label)", accepting: [0, 1, 128])
        guard blob.status == 0, ObjectID.isValid(blob.text) else { return [] }
        let listing = try git.run(
            ["config", "--blob", blob.text, "-z", "--list"], in: repository,
            context: "read .gitmodules of \(label)")
        return GitmodulesParser.parse(listing.stdout)
    }
}
