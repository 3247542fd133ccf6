import Foundation

/// Editing `.gitmodules` with git's own writer (`git config --file` on a temporary copy): the new content of the
/// file, for a commit to write. The content read first is a commit's; the checkout is never touched.
extension GitRepository {
    /// The `.gitmodules` of `commit` with a section for the submodule `name` at `path` with `url`; a commit
    /// without the file gets one.
    public func gitmodulesAdding(name: String, path: String, url: String, at commit: String) throws -> Data {
        try editedGitmodules(
            at: commit,
            [["submodule.\(name).path", path], ["submodule.\(name).url", url]])
    }

    /// The `.gitmodules` of `commit` without the section of the submodule `name`.
    public func gitmodulesRemoving(name: String, at commit: String) throws -> Data {
        try editedGitmodules(at: commit, [["--remove-section", "submodule.\(name)"]])
    }

    /// The `.gitmodules` of `commit` (empty without one) after `git config --file <copy>` with each of `edits`.
    private func editedGitmodules(at commit: String, _ edits: [[String]]) throws -> Data {
        let label = ObjectID.isValid(commit) ? ObjectID.short(commit) : commit
        let content =
            try hasPath(".gitmodules", at: commit, context: "look for .gitmodules on \(label)")
            ? try blob(".gitmodules", at: commit, context: "read .gitmodules of \(label)") : Data()
        let directory = try TemporaryDirectory(prefix: "tenantctl-gitmodules-")
        defer { directory.remove() }
        let file = directory.url.appendingPathComponent("gitmodules")
        try content.write(to: file)
        for edit in edits {
            try git.run(["config", "--file", file.path] + edit, in: nil, context: "edit .gitmodules of \(label)")
        }
        return try Data(contentsOf: file)
    }
}
