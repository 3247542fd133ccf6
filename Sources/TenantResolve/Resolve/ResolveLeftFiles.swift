import Foundation

/// What the resolution left in each repository's index and files, so that `--abort` can tell its own leftovers (a
/// merge in progress, conflict markers, staged merge results) from what the user changed since: a file edited,
/// staged, resolved or deleted. Only the user's changes are kept (in place, or in the repository's stash); the
/// resolution's are put back.
enum ResolveLeftFiles {
    /// Every path of the repository at `path` whose index entry or file is not what HEAD has (gitlinks left out: each
    /// module is a repository of its own), with what it is: `index <entry> file <blob>`.
    static func fingerprint(of repository: GitRepository, what: String) throws -> [String: String] {
        let path = repository.path
        try repository.refreshIndex(ignoringSubmodules: true, context: "refresh the index of \(what)")
        let index = try repository.indexEntries(context: "list the index of \(what)")
        let head = try repository.objectID(of: "HEAD", context: "read the HEAD of \(what)")?.hex
        let tree = try head.map { try repository.treeEntries($0, context: "list the files of \(what)") } ?? [:]
        var paths = index.unmerged.union(
            try repository.filesDifferingFromIndex(context: "compare the files of \(what)"))
        for (file, entry) in index.entries where tree[file] != entry { paths.insert(file) }
        for file in tree.keys where index.entries[file] == nil { paths.insert(file) }
        let gitlink = "160000 "
        let files = paths.filter {
            !(index.entries[$0]?.hasPrefix(gitlink) ?? false) && !(tree[$0]?.hasPrefix(gitlink) ?? false)
        }.sorted()
        let present = files.filter { isFile((path as NSString).appendingPathComponent($0)) }
        let blobs = Dictionary(
            zip(present, try repository.hashFiles(present, context: "hash the changed files of \(what)")),
            uniquingKeysWith: { first, _ in first })
        var result: [String: String] = [:]
        for file in files {
            let entry = index.unmerged.contains(file) ? "unmerged" : index.entries[file] ?? "absent"
            result[file] = "index \(entry) file \(blobs[file] ?? "absent")"
        }
        return result
    }

    /// What the resolution left in every repository of `state` that is a repository now, by its relative path.
    static func record(_ state: ResolveState, workspace: Workspace) throws -> [String: [String: String]] {
        var left: [String: [String: String]] = [:]
        for start in state.startPoints {
            let repository = workspace.repository(relative: start.path)
            guard try CheckoutPresence.of(repository) == .repository else { continue }
            left[start.path] = try fingerprint(of: repository, what: start.repository)
        }
        return left
    }

    /// The paths of the repository at `path` that the user changed since the resolution left `left` there.
    static func changedSince(_ left: [String: String], in repository: GitRepository, what: String) throws -> [String] {
        let now = try fingerprint(of: repository, what: what)
        return Set(now.keys).union(left.keys).filter { now[$0] != left[$0] }.sorted()
    }

    /// Keeps the files at `files` (as they are now; a missing one as deleted) in a stash entry of the repository at
    /// `path`, on `base` (the commit it is put back to), so that `git stash pop` puts them back there. Returns the
    /// stash commit.
    static func stash(
        _ files: [String], in repository: GitRepository, base: String, branch: String?, tenant: String, what: String
    ) throws -> String {
        let path = repository.path
        var edits: [PathEdit] = []
        for file in files {
            let full = (path as NSString).appendingPathComponent(file)
            if isFile(full) {
                guard let data = FileManager.default.contents(atPath: full) else {
                    throw ResolveError(.refused, "cannot read \(full) to keep it; nothing was changed there")
                }
                edits.append(PathEdit(path: file, change: .file(data)))
            } else if !FileManager.default.fileExists(atPath: full) {
                edits.append(PathEdit(path: file, change: .remove))
            }
        }
        let batch = try repository.openBatch()
        let tree: String
        do {
            tree = try repository.treeWriter(batch: batch).write(base: base + "^{tree}", edits: edits)
            try batch.close()
        } catch {
            try? batch.close()  // the error thrown is the one that stopped the write
            throw error
        }
        let identity = try repository.commitIdentity()
        let label = branch ?? "(no branch)"
        let index = try repository.writeCommit(
            CommitSpec(tree: tree, parents: [base], message: "index on \(label): \(ObjectID.short(base))"),
            identity: identity
        ).hex
        let message = "On \(label): your changes during the resolution of \(tenant), kept by tenantctl resolve --abort"
        let stash = try repository.writeCommit(
            CommitSpec(tree: tree, parents: [base, index], message: message), identity: identity
        ).hex
        try repository.storeStash(
            stash, message: message, context: "keep your changes in \(what) in its stash")
        return stash
    }

    static func isFile(_ path: String) -> Bool {
        var directory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &directory) && !directory.boolValue
    }
}
