import Foundation

/// The working tree and the index of a repository: status, files, trees, staging.
extension GitRepository {
    /// `git status --porcelain=v2 --branch -z` without untracked files; `ignoreSubmodules` is git's
    /// `--ignore-submodules` value (`dirty`, `none`). The raw output, for ``PorcelainStatus``.
    public func porcelainStatus(ignoreSubmodules: String) throws(GitError) -> GitOutput {
        try run(
            [
                "status", "--porcelain=v2", "--branch", "-z", "--untracked-files=no",
                "--ignore-submodules=\(ignoreSubmodules)",
            ], context: "read the status of \(path)")
    }

    /// The error for a status output ``porcelainStatus(ignoreSubmodules:)`` returned that cannot be parsed.
    public func unparseableStatus(_ output: GitOutput, ignoreSubmodules: String) -> GitError {
        unparseable(
            [
                "status", "--porcelain=v2", "--branch", "-z", "--untracked-files=no",
                "--ignore-submodules=\(ignoreSubmodules)",
            ], output: output, detail: String(decoding: output.stdout.prefix(200), as: UTF8.self),
            context: "read the status of \(path)")
    }

    /// Untracked files that are not ignored, relative to the root (directories listed file by file).
    public func untrackedFiles() throws(GitError) -> [String] {
        let output = try run(
            ["ls-files", "-z", "--others", "--exclude-standard"], context: "list the untracked files of \(path)")
        return output.stdout.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
    }

    /// Untracked files, ignored ones included (relative to the root, sorted): what a checkout that replaces the
    /// whole directory would delete.
    public func untrackedAndIgnored() throws(GitError) -> [String] {
        let output = try run(
            ["ls-files", "-z", "--others", "--directory", "--no-empty-directory"],
            context: "list the untracked and ignored files of \(path)")
        return output.stdout.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }.sorted()
    }

    /// The gitlinks of the index (path relative to the root, recorded commit), in index order.
    public func indexGitlinks(what: String) throws(GitError) -> [(path: String, commit: String)] {
        let output = try run(["ls-files", "-z", "--stage"], context: "list the submodules of \(what)")
        var result: [(path: String, commit: String)] = []
        for record in output.stdout.split(separator: 0) {
            let text = String(decoding: record, as: UTF8.self)
            guard text.hasPrefix("160000 "), let tab = text.firstIndex(of: "\t") else { continue }
            let fields = text[..<tab].split(separator: " ")
            guard fields.count == 3 else { continue }
            result.append((String(text[text.index(after: tab)...]), String(fields[1])))
        }
        return result
    }

    /// Paths with unmerged index entries (`ls-files -u -z`), sorted.
    public func unmergedPaths(what: String) throws(GitError) -> [String] {
        let output = try run(["ls-files", "-u", "-z"], context: "list the unmerged paths of \(what)")
        var paths: Set<String> = []
        for record in output.stdout.split(separator: 0) {
            let text = String(decoding: record, as: UTF8.self)
            guard let tab = text.firstIndex(of: "\t") else { continue }
            paths.insert(String(text[text.index(after: tab)...]))
        }
        return paths.sorted()
    }

    /// Untracked (not ignored) files that checking out `target` would overwrite or that stand where `target` has
    /// a directory, or below where it has a file. Relative to the repository root. A repository of its own where
    /// `target` has a gitlink (a module's checkout left by a branch that did not have the module) is no conflict:
    /// git checks the gitlink out around it.
    public func untrackedOverwrites(to target: String) throws(GitError) -> [String] {
        let files = try untrackedFiles()
        guard !files.isEmpty else { return [] }
        let arguments = ["ls-tree", "-r", "-z", "--full-tree", "--end-of-options", target]
        let context = "list the files of \(ObjectID.short(target)) in \(path)"
        let listing = try run(arguments, context: context)
        guard let entries = GitParse.lsTree(listing.stdout) else {
            throw unparseable(arguments, output: listing, detail: "ls-tree output", context: context)
        }
        let targetFiles = Set(entries.map(\.path))
        let targetGitlinks = Set(entries.filter(\.entry.isGitlink).map(\.path))
        var targetDirectories: Set<String> = []
        for entry in entries {
            var components = entry.path.split(separator: "/", omittingEmptySubsequences: false).dropLast()
            while !components.isEmpty {
                targetDirectories.insert(components.joined(separator: "/"))
                components = components.dropLast()
            }
        }
        return files.filter { file in
            if file.hasSuffix("/"), targetGitlinks.contains(String(file.dropLast())) { return false }
            if targetFiles.contains(file) || targetDirectories.contains(file) { return true }
            var components = file.split(separator: "/", omittingEmptySubsequences: false).dropLast()
            while !components.isEmpty {
                if targetFiles.contains(components.joined(separator: "/")) { return true }
                components = components.dropLast()
            }
            return false
        }.sorted()
    }

    /// The modes of `paths` in the tree of `commit` (`160000` for a gitlink, `100644` for a file, `040000` for a
    /// directory), by path; a path the commit has nothing at is absent. One git call for all of them.
    public func modes(of paths: [String], at commit: String) throws(GitError) -> [String: String] {
        guard !paths.isEmpty else { return [:] }
        let output = try run(
            ["ls-tree", "-z", "--full-tree", "--end-of-options", commit, "--"] + paths,
            context: "look up the module paths in \(ObjectID.short(commit))")
        let wanted = Set(paths)
        var result: [String: String] = [:]
        for record in output.stdout.split(separator: 0) {
            let text = String(decoding: record, as: UTF8.self)
            guard let tab = text.firstIndex(of: "\t") else { continue }
            let path = String(text[text.index(after: tab)...])
            if wanted.contains(path), let mode = text.split(separator: " ").first { result[path] = String(mode) }
        }
        return result
    }

    /// The paths that differ between the commits `from` and `to` (no rename detection).
    public func changedPaths(from: String, to: String, context: String) throws(GitError) -> Set<String> {
        let diff = try run(["diff", "--name-only", "-z", "--no-renames", from, to, "--"], context: context)
        return Set(diff.stdout.split(separator: 0).map { String(decoding: $0, as: UTF8.self) })
    }

    /// Whether the index differs from HEAD.
    public func hasStagedChanges(context: String) throws(GitError) -> Bool {
        try run(["diff", "--cached", "--quiet"], context: context, accepting: [0, 1]).status == 1
    }

    /// Refreshes the index's stat information (`update-index -q --refresh`); files that differ are no failure.
    /// `ignoringSubmodules`: a superproject's gitlinks are left alone.
    public func refreshIndex(ignoringSubmodules: Bool, context: String) throws(GitError) {
        try run(
            ["update-index", "-q", "--refresh"] + (ignoringSubmodules ? ["--ignore-submodules"] : []),
            context: context, accepting: [0, 1])
    }

    /// Stages the file `file` as it is in the working tree.
    public func stage(_ file: String, context: String) throws(GitError) {
        try run(["add", "--", file], context: context)
    }

    /// Stages the gitlink `path` at `commit`.
    public func stageGitlink(_ path: String, at commit: String, context: String) throws(GitError) {
        try run(["update-index", "--cacheinfo", "160000,\(commit),\(path)"], context: context)
    }

    /// One `update-index` that sets every gitlink of `gitlinks` (an unmerged gitlink is resolved by it) and removes
    /// `removing` from the index.
    public func stageGitlinks(_ gitlinks: [(path: String, commit: String)], removing: [String], context: String)
        throws(GitError)
    {
        guard !gitlinks.isEmpty || !removing.isEmpty else { return }
        var arguments = ["update-index", "--add"]
        for link in gitlinks { arguments += ["--cacheinfo", "160000,\(link.commit),\(link.path)"] }
        if !removing.isEmpty { arguments += ["--force-remove", "--"] + removing }
        try run(arguments, context: context)
    }
}
