import Foundation

/// One result of `git merge-tree --write-tree`.
public struct MergeTreeResult: Sendable, Equatable {
    /// True when the merge had no conflict.
    public var clean: Bool
    /// The written tree (with conflict markers, or the first side for gitlinks, when not clean).
    public var tree: String
    /// Conflicted paths (deduplicated, sorted).
    public var paths: [String]

    public init(clean: Bool, tree: String, paths: [String]) {
        self.clean = clean
        self.tree = tree
        self.paths = paths
    }
}

/// A commit object to write.
public struct CommitSpec: Sendable, Equatable {
    /// Tree id.
    public var tree: String
    /// Parents, first parent first.
    public var parents: [String]
    /// Message (one paragraph or more).
    public var message: String

    public init(tree: String, parents: [String], message: String) {
        self.tree = tree
        self.parents = parents
        self.message = message
    }
}

/// Batched plumbing: many merges, trees or commits with one git process each.
public enum RollPlumbing {
    /// Parses `merge-tree --write-tree --stdin --name-only --no-messages` output (`-z` records).
    public static func parseMergeTree(_ data: Data, count: Int) -> [MergeTreeResult]? {
        let fields = data.split(separator: 0, omittingEmptySubsequences: false).map {
            String(decoding: $0, as: UTF8.self)
        }
        var results: [MergeTreeResult] = []
        var index = 0
        while results.count < count {
            guard index + 1 < fields.count else { return nil }
            let status = fields[index]
            let tree = fields[index + 1]
            guard status == "0" || status == "1", tree.count >= 40 else { return nil }
            index += 2
            var paths: [String] = []
            while index < fields.count, !fields[index].isEmpty {
                paths.append(fields[index])
                index += 1
            }
            guard index < fields.count else { return nil }
            index += 1  // the empty field that ends this result
            results.append(MergeTreeResult(clean: status == "1", tree: tree, paths: Array(Set(paths)).sorted()))
        }
        return results
    }

    /// Runs every merge of one repository in one `merge-tree --write-tree --stdin` process.
    public static func mergeTrees(_ pairs: [(ours: String, theirs: String)], in repository: String, git: Git) throws
        -> [MergeTreeResult]
    {
        guard !pairs.isEmpty else { return [] }
        for pair in pairs {
            guard isObjectID(pair.ours), isObjectID(pair.theirs) else {
                throw RollError("refusing to merge \(pair.ours) and \(pair.theirs): not object ids")
            }
        }
        let input = pairs.map { "\($0.ours) \($0.theirs)\n" }.joined()
        let output = try git.run(
            ["merge-tree", "--write-tree", "--stdin", "--name-only", "--no-messages"], in: repository,
            input: Data(input.utf8), context: "merge general_dev in \(repository)")
        guard let results = parseMergeTree(output.stdout, count: pairs.count) else {
            throw RollError("cannot parse the merge-tree output of \(repository)")
        }
        return results
    }

    /// True for a full hexadecimal object id.
    static func isObjectID(_ text: String) -> Bool {
        (text.count == 40 || text.count == 64)
            && text.utf8.allSatisfy { ($0 >= 48 && $0 <= 57) || ($0 >= 97 && $0 <= 102) }
    }

    /// The author and committer identities (`Name <email> <time> <zone>`), honouring `GIT_AUTHOR_*`/`GIT_COMMITTER_*`.
    public static func identities(in repository: String, git: Git) throws -> (author: String, committer: String) {
        let lines = try git.run(["var", "-l"], in: repository, context: "read the author and committer identities")
            .lines
        func value(_ name: String) -> String? {
            lines.first { $0.hasPrefix(name + "=") }.map { String($0.dropFirst(name.count + 1)) }
        }
        guard let author = value("GIT_AUTHOR_IDENT"), let committer = value("GIT_COMMITTER_IDENT") else {
            throw RollError(
                "git var -l printed no author or committer identity in \(repository); set user.name and user.email")
        }
        return (author, committer)
    }

    /// Writes many commit objects with one `hash-object -t commit -w --stdin-paths` process; returns their ids.
    public static func writeCommits(
        _ commits: [CommitSpec], in repository: String, identity: (author: String, committer: String), git: Git
    ) throws -> [String] {
        guard !commits.isEmpty else { return [] }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "tenantctl-commits-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let interrupted = Cancellator.shared.register(temporaryDirectory: directory)
        defer { try? FileManager.default.removeItem(at: directory); interrupted.release() }
        var paths: [String] = []
        for (index, commit) in commits.enumerated() {
            var text = "tree \(commit.tree)\n"
            for parent in commit.parents { text += "parent \(parent)\n" }
            text += "author \(identity.author)\ncommitter \(identity.committer)\n\n\(commit.message)\n"
            let file = directory.appendingPathComponent("\(index)")
            try Data(text.utf8).write(to: file)
            guard !file.path.contains("\n") else { throw RollError("temporary path with a line break") }
            paths.append(file.path)
        }
        let output = try git.run(
            ["hash-object", "-t", "commit", "-w", "--no-filters", "--stdin-paths"], in: repository,
            input: Data(paths.map { $0 + "\n" }.joined().utf8), context: "write \(commits.count) roll commits")
        let ids = output.lines
        guard ids.count == commits.count, ids.allSatisfy(isObjectID) else {
            throw RollError("hash-object wrote \(ids.count) commits for \(commits.count) in \(repository)")
        }
        return ids
    }

    /// Writes many trees with one `mktree -z --batch` process; returns their ids in order.
    static func makeTrees(_ trees: [[TreeEntry]], in repository: String, git: Git) throws -> [String] {
        guard !trees.isEmpty else { return [] }
        var input = Data()
        for entries in trees {
            for entry in entries {
                let type = entry.isGitlink ? "commit" : (entry.isTree ? "tree" : "blob")
                input.append(Data("\(entry.mode) \(type) \(entry.id)\t\(entry.name)".utf8))
                input.append(0)
            }
            input.append(0)
        }
        let output = try git.run(
            ["mktree", "-z", "--batch"], in: repository, input: input, context: "write \(trees.count) trees")
        let ids = output.lines
        guard ids.count == trees.count, ids.allSatisfy(isObjectID) else {
            throw RollError("mktree wrote \(ids.count) trees for \(trees.count) in \(repository)")
        }
        return ids
    }
}

/// A change of one gitlink in a tree.
public enum TreeEdit: Sendable, Equatable {
    /// Set the gitlink to this commit.
    case gitlink(String)
    /// Remove the entry.
    case remove
}

/// Rewrites gitlinks in many trees: tree objects read through one `cat-file --batch`, new trees written with one
/// `mktree --batch` per directory depth (so the process count grows with path depth, not with tenants).
public struct TreeRewriter {
    let batch: CatFileBatch
    let repository: String
    let git: Git

    public init(batch: CatFileBatch, repository: String, git: Git) {
        self.batch = batch
        self.repository = repository
        self.git = git
    }

    /// Returns the new root tree of every job (the same id when nothing changed).
    public func rewrite(_ jobs: [(root: String, edits: [String: TreeEdit])]) throws -> [String] {
        // Directory entries of every (job, directory) that an edit touches.
        struct Key: Hashable {
            var job: Int
            var directory: String
        }
        var directories: [Key: [TreeEntry]] = [:]
        var original: [Key: String] = [:]
        var requests: [(Key, String)] = []
        for (index, job) in jobs.enumerated() where !job.edits.isEmpty {
            var dirs: Set<String> = [""]
            for path in job.edits.keys {
                var parent = RollStateLoader.parent(path)
                while !parent.isEmpty {
                    dirs.insert(parent)
                    parent = RollStateLoader.parent(parent)
                }
            }
            for dir in dirs {
                requests.append((Key(job: index, directory: dir), dir.isEmpty ? job.root : "\(job.root):\(dir)"))
            }
        }
        let objects = try batch.objects(requests.map(\.1))
        for ((key, _), object) in zip(requests, objects) {
            if let object, object.type == "tree" {
                guard let entries = GitParse.treeObject(object.data) else {
                    throw RollError("cannot parse tree \(object.id) in \(repository)")
                }
                directories[key] = entries
                original[key] = object.id
            } else if key.directory.isEmpty {
                throw RollError("cannot read tree \(jobs[key.job].root) in \(repository)")
            } else {
                directories[key] = []
            }
        }
        // Apply edits to leaf entries.
        for (index, job) in jobs.enumerated() {
            for (path, edit) in job.edits {
                let key = Key(job: index, directory: RollStateLoader.parent(path))
                let name = String(path.split(separator: "/").last ?? Substring(path))
                var entries = directories[key] ?? []
                entries.removeAll { $0.name == name }
                if case .gitlink(let id) = edit { entries.append(TreeEntry(mode: "160000", name: name, id: id)) }
                directories[key] = entries
            }
        }
        // Write trees bottom-up, one mktree process per depth.
        var written: [Key: String] = [:]
        let depth: (String) -> Int = { $0.isEmpty ? 0 : $0.split(separator: "/").count }
        let maxDepth = directories.keys.map { depth($0.directory) }.max() ?? 0
        for level in stride(from: maxDepth, through: 0, by: -1) {
            let keys = directories.keys.filter { depth($0.directory) == level }.sorted {
                ($0.job, $0.directory) < ($1.job, $1.directory)
            }
            var pending: [(Key, [TreeEntry])] = []
            for key in keys {
                var entries = directories[key] ?? []
                // Replace child directories written at the level below.
                for (childKey, id) in written
                where childKey.job == key.job
                    && RollStateLoader.parent(childKey.directory) == key.directory
                    && depth(childKey.directory) == level + 1
                {
                    let name = String(childKey.directory.split(separator: "/").last ?? "")
                    entries.removeAll { $0.name == name }
                    if id != Self.emptyTree { entries.append(TreeEntry(mode: "40000", name: name, id: id)) }
                }
                if entries.isEmpty && !key.directory.isEmpty {
                    written[key] = Self.emptyTree
                } else {
                    pending.append((key, entries))
                }
            }
            // Deduplicate identical trees (many tenants share most of them).
            var unique: [[TreeEntry]] = []
            var slot: [String: Int] = [:]
            var slots: [Int] = []
            for (_, entries) in pending {
                let signature = entries.sorted { $0.name < $1.name }.map { "\($0.mode) \($0.id) \($0.name)" }
                    .joined(separator: "\n")
                if let existing = slot[signature] {
                    slots.append(existing)
                } else {
                    slot[signature] = unique.count
                    slots.append(unique.count)
                    unique.append(entries)
                }
            }
            let ids = try RollPlumbing.makeTrees(unique, in: repository, git: git)
            for ((key, _), index) in zip(pending, slots) { written[key] = ids[index] }
        }
        return jobs.indices.map { written[Key(job: $0, directory: "")] ?? jobs[$0].root }
    }

    static let emptyTree = "4b825dc642cb6eb9a060e54bf8d69288fbee4904"
}
