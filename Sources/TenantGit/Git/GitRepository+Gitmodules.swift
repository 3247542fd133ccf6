import Foundation

/// Reading `.gitmodules`: of a commit or tree from the object database (no checkout), or of a working-tree file.
/// Every read is git's own parser (`git config -z --list`) into ``Gitmodules``; a file git cannot parse is git's
/// error, never an empty list.
extension GitRepository {
    /// The `.gitmodules` of `treeish` (a commit, a tree, `HEAD`); nil when it has no such file — or when
    /// `treeish` names nothing, so callers pass commits they already resolved. With `batch` (a `cat-file --batch`
    /// the caller has open on this repository) the file is looked up there instead of with a process of its own.
    public func gitmodules(at treeish: String, batch: CatFileBatch? = nil) throws(GitError) -> Gitmodules? {
        if let batch { return try gitmodules(at: [treeish], batch: batch)[0] }
        let label = Self.label(treeish)
        let arguments = ["rev-parse", "--verify", "--quiet", "--end-of-options", "\(treeish):.gitmodules"]
        let context = "look for .gitmodules on \(label)"
        let output = try run(arguments, context: context, accepting: [0, 1])
        guard output.status == 0 else { return nil }
        guard ObjectID.isValid(output.text) else {
            throw unparseable(arguments, output: output, detail: "no object id", context: context)
        }
        return try gitmodules(blob: output.text, of: label)
    }

    /// ``gitmodules(at:batch:)`` of many commits or trees at once: one request on `batch`, and one `git config`
    /// per distinct file (commits that share their `.gitmodules` share the read); one answer per `treeishes`, in
    /// order.
    public func gitmodules(at treeishes: [String], batch: CatFileBatch) throws(GitError) -> [Gitmodules?] {
        let objects = try batch.objects(treeishes.map { "\($0):.gitmodules" })
        var read: [String: Gitmodules] = [:]
        var result: [Gitmodules?] = []
        for (treeish, object) in zip(treeishes, objects) {
            guard let object else {
                result.append(nil)
                continue
            }
            if read[object.id] == nil {
                read[object.id] = try gitmodules(blob: object.id, of: Self.label(treeish))
            }
            result.append(read[object.id])
        }
        return result
    }

    /// The `.gitmodules`-format file `file` (relative to this repository's directory, or absolute); nil when there
    /// is no such file.
    public func gitmodules(file: String) throws(GitError) -> Gitmodules? {
        let absolute = file.hasPrefix("/") ? file : (path as NSString).appendingPathComponent(file)
        guard FileManager.default.fileExists(atPath: absolute) else { return nil }
        return Gitmodules(
            configList: try run(["config", "-z", "--file", absolute, "--list"], context: "read \(absolute)").stdout)
    }

    /// The submodule names of the working tree's `.gitmodules` by path (``Gitmodules/namesByPath``); empty
    /// without the file.
    public func submoduleNamesByPath() throws(GitError) -> [String: String] {
        try gitmodules(file: ".gitmodules")?.namesByPath ?? [:]
    }

    /// The `.gitmodules` blob `blob` of `label`.
    private func gitmodules(blob: String, of label: String) throws(GitError) -> Gitmodules {
        Gitmodules(
            configList: try run(
                ["config", "-z", "--blob", blob, "--list"], context: "read .gitmodules of \(label)"
            ).stdout)
    }

    /// A commit id shortened for a message; any other name as it is.
    private static func label(_ treeish: String) -> String {
        ObjectID.isValid(treeish) ? ObjectID.short(treeish) : treeish
    }
}
