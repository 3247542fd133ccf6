import Foundation

/// Reads a `.gitmodules` file: of a superproject commit from the object database (no checkout), or of the working
/// tree.
public enum GitmodulesListing {
    /// The entries of `commit:.gitmodules`, or nil when the commit has no such file (looked up in `batch`).
    public static func entries(at commit: String, batch: CatFileBatch, in repository: String, git: Git) throws
        -> [GitmodulesEntry]?
    {
        guard try batch.object("\(commit):.gitmodules") != nil else { return nil }
        let output = try git.run(
            ["config", "-z", "--blob", "\(commit):.gitmodules", "--list"], in: repository,
            context: "read .gitmodules of \(ObjectID.isValid(commit) ? ObjectID.short(commit) : commit)")
        return GitmodulesParser.parse(output.stdout)
    }

    /// The entries of the file at `path`, or nil when there is no such file.
    public static func entries(ofFile path: String, in repository: String, git: Git) throws -> [GitmodulesEntry]? {
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        let output = try git.run(
            ["config", "-z", "--file", path, "--list"], in: repository, context: "read .gitmodules")
        return GitmodulesParser.parse(output.stdout)
    }
}
