import Foundation

/// What a put-back needs to tell a stopped command's leftovers from the user's work: the files of two commits, the
/// index, the files that differ from it, their contents, and commits no remote holds.
extension GitRepository {
    /// The entries of `commit`'s tree, recursively: path → `<mode> <object id>`.
    public func treeEntries(_ commit: String, context: String) throws(GitError) -> [String: String] {
        let arguments = ["ls-tree", "-r", "-z", "--full-tree", "--end-of-options", commit]
        let listing = try run(arguments, context: context)
        guard let entries = GitParse.lsTree(listing.stdout) else {
            throw unparseable(arguments, output: listing, detail: "ls-tree output", context: context)
        }
        var result: [String: String] = [:]
        for (entry, path) in entries { result[path] = entry.mode + " " + entry.id }
        return result
    }

    /// The index: path → `<mode> <object id>` of its merged entries, and the paths with unmerged entries.
    public func indexEntries(context: String) throws(GitError) -> (entries: [String: String], unmerged: Set<String>) {
        let arguments = ["ls-files", "-z", "--stage"]
        let output = try run(arguments, context: context)
        var entries: [String: String] = [:]
        var unmerged: Set<String> = []
        for record in output.stdout.split(separator: 0) {
            let text = String(decoding: record, as: UTF8.self)
            guard let tab = text.firstIndex(of: "\t") else {
                throw unparseable(arguments, output: output, detail: "ls-files --stage output", context: context)
            }
            let fields = text[..<tab].split(separator: " ")
            guard fields.count == 3 else {
                throw unparseable(arguments, output: output, detail: "ls-files --stage output", context: context)
            }
            let path = String(text[text.index(after: tab)...])
            if fields[2] == "0" {
                entries[path] = fields[0] + " " + fields[1]
            } else {
                unmerged.insert(path)
            }
        }
        return (entries, unmerged)
    }

    /// Paths whose file differs from the index (`diff-files`; refresh the index first), submodules left out.
    public func filesDifferingFromIndex(context: String) throws(GitError) -> [String] {
        let output = try run(["diff-files", "-z", "--name-only", "--ignore-submodules=all"], context: context)
        return output.stdout.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
    }

    /// The blob ids git would store for the files at `paths` (relative to the root), in the same order
    /// (`hash-object`, with the repository's filters).
    public func hashFiles(_ paths: [String], context: String) throws(GitError) -> [String] {
        guard !paths.isEmpty else { return [] }
        let arguments = ["hash-object", "--end-of-options"] + paths
        let output = try run(arguments, context: context)
        let ids = output.lines
        guard ids.count == paths.count else {
            throw unparseable(arguments, output: output, detail: "hash-object output", context: context)
        }
        return ids
    }

    /// Every path of the working tree that is not exactly what HEAD has: changed, staged, untracked and ignored
    /// files (`status --porcelain -z --ignored`), nested submodules included.
    public func filesNotAtHead(context: String) throws(GitError) -> [String] {
        let output = try run(
            [
                "status", "--porcelain", "-z", "--no-renames", "--untracked-files=all", "--ignored=matching",
                "--ignore-submodules=none",
            ], context: context)
        return output.stdout.split(separator: 0).compactMap { record in
            record.count > 3 ? String(decoding: record.dropFirst(3), as: UTF8.self) : nil
        }
    }

    /// A commit reachable from HEAD or a local branch that no remote-tracking branch holds and that is not
    /// reachable from `known` (nil: none).
    public func commitOnNoRemote(beyond known: String?, context: String) throws(GitError) -> String? {
        let output = try run(
            ["rev-list", "-n", "1", "--branches", "HEAD", "--not", "--remotes"] + (known.map { [$0] } ?? []) + ["--"],
            context: context)
        return output.lines.first
    }

    /// Deletes `ref` only while it is still at `expected` (`update-ref -d <ref> <expected>`): refused by git, and
    /// thrown, when it moved.
    public func deleteRef(_ ref: String, expected: String, message: String, context: String) throws(GitError) {
        try run(["update-ref", "-m", message, "-d", ref, expected], context: context)
    }
}
