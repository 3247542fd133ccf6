import Foundation

/// One change of a path in a tree.
public struct PathEdit: Sendable, Equatable {
    /// What the path becomes.
    public enum Change: Sendable, Equatable {
        /// A regular file (mode 100644) with these bytes.
        case file(Data)
        /// A regular file (mode 100644) whose blob is already written.
        case blob(String)
        /// A submodule pin (mode 160000) at this commit.
        case gitlink(String)
        /// The path is removed.
        case remove
    }

    /// Path relative to the repository root.
    public var path: String
    /// The new content.
    public var change: Change

    /// Creates an edit.
    public init(path: String, change: Change) {
        self.path = path
        self.change = change
    }
}

/// Writes trees with plumbing only: the trees to edit are read through one `cat-file --batch`, the new ones written
/// with one `mktree --batch` per directory depth (the process count grows with path depth, not with the number of
/// trees), file contents with `hash-object -w`. No index, no working tree, no temporary file; identical trees are
/// written once. Object-id length agnostic.
public struct TreeWriter: Sendable {
    let batch: CatFileBatch
    let repository: String
    let git: Git

    /// - Parameter batch: a `cat-file --batch` of `repository`.
    public init(batch: CatFileBatch, repository: String, git: Git) {
        self.batch = batch
        self.repository = repository
        self.git = git
    }

    /// One tree to write: the tree of `base` (a tree-ish: `<commit>^{tree}`, a tree id; nil for an empty tree) with
    /// `edits` applied.
    public struct Job: Sendable {
        public var base: String?
        public var edits: [PathEdit]

        public init(base: String?, edits: [PathEdit]) {
            self.base = base
            self.edits = edits
        }
    }

    private struct Key: Hashable {
        var job: Int
        var directory: String
    }

    /// The new root tree of every job (the base's own tree id when nothing changed).
    public func write(_ jobs: [Job]) throws -> [String] {
        let blobs = try writeBlobs(jobs)
        var directories = try readDirectories(jobs)
        for (index, job) in jobs.enumerated() {
            for edit in job.edits {
                let (directory, name) = TreePath.split(edit.path)
                let key = Key(job: index, directory: directory)
                var entries = directories[key] ?? []
                entries.removeAll { $0.name == name }
                switch edit.change {
                case .gitlink(let id): entries.append(TreeEntry(mode: "160000", name: name, id: id))
                case .blob(let id): entries.append(TreeEntry(mode: "100644", name: name, id: id))
                case .file(let data):
                    guard let id = blobs[data] else { throw TreeWriterError("no blob written for \(edit.path)") }
                    entries.append(TreeEntry(mode: "100644", name: name, id: id))
                case .remove: break
                }
                directories[key] = entries
            }
        }
        let written = try writeBottomUp(directories)
        var roots: [String] = []
        for index in jobs.indices {
            if let id = written[Key(job: index, directory: "")] {
                if let id {
                    roots.append(id)
                } else {
                    roots.append(try emptyTree())
                }
            } else if let base = jobs[index].base, let object = try batch.object(base), object.type == "tree" {
                roots.append(object.id)
            } else {
                roots.append(try emptyTree())
            }
        }
        return roots
    }

    /// The tree of `base` with `edits` applied.
    public func write(base: String?, edits: [PathEdit]) throws -> String {
        try write([Job(base: base, edits: edits)])[0]
    }

    /// Writes the contents of every `.file` edit, one `hash-object` each; returns contents → blob id.
    private func writeBlobs(_ jobs: [Job]) throws -> [Data: String] {
        var blobs: [Data: String] = [:]
        for job in jobs {
            for edit in job.edits {
                guard case .file(let data) = edit.change, blobs[data] == nil else { continue }
                let id = try git.run(
                    ["hash-object", "-w", "--no-filters", "--stdin"], in: repository, input: data,
                    context: "write the file \(edit.path)"
                ).text
                guard ObjectID.isValid(id) else { throw TreeWriterError("hash-object printed \(id) for \(edit.path)") }
                blobs[data] = id
            }
        }
        return blobs
    }

    /// The entries of every directory an edit touches (the root and every ancestor of an edited path).
    private func readDirectories(_ jobs: [Job]) throws -> [Key: [TreeEntry]] {
        var requests: [(Key, String?)] = []
        for (index, job) in jobs.enumerated() where !job.edits.isEmpty {
            var directories: Set<String> = [""]
            for edit in job.edits {
                var parent = TreePath.parent(edit.path)
                while !parent.isEmpty {
                    directories.insert(parent)
                    parent = TreePath.parent(parent)
                }
            }
            for directory in directories.sorted() {
                let name = job.base.map { directory.isEmpty ? $0 : "\($0):\(directory)" }
                requests.append((Key(job: index, directory: directory), name))
            }
        }
        let named = requests.compactMap(\.1)
        var objects = try batch.objects(named).makeIterator()
        var directories: [Key: [TreeEntry]] = [:]
        var pool = ObjectIDPool()  // every tenant's tree names mostly the same commits
        for (key, name) in requests {
            guard let name else {
                directories[key] = []
                continue
            }
            guard let object = objects.next() ?? nil else {
                if key.directory.isEmpty { throw TreeWriterError("cannot read the tree \(name) in \(repository)") }
                directories[key] = []  // a new directory
                continue
            }
            guard object.type == "tree",
                let entries = GitParse.treeObject(object.data, idLength: ObjectID.byteLength(ofHex: object.id))
            else { throw TreeWriterError("\(name) in \(repository) is not a readable tree") }
            directories[key] = entries.map { TreeEntry(mode: $0.mode, name: $0.name, id: pool.intern($0.id)) }
        }
        return directories
    }

    /// Writes every edited directory, deepest first; an empty directory is dropped from its parent (nil).
    private func writeBottomUp(_ directories: [Key: [TreeEntry]]) throws -> [Key: String?] {
        var written: [Key: String?] = [:]
        let depth: (String) -> Int = { $0.isEmpty ? 0 : $0.split(separator: "/").count }
        var children: [Key: [Key]] = [:]
        for key in directories.keys where !key.directory.isEmpty {
            children[Key(job: key.job, directory: TreePath.parent(key.directory)), default: []].append(key)
        }
        let maxDepth = directories.keys.map { depth($0.directory) }.max() ?? 0
        for level in stride(from: maxDepth, through: 0, by: -1) {
            let keys = directories.keys.filter { depth($0.directory) == level }.sorted {
                ($0.job, $0.directory) < ($1.job, $1.directory)
            }
            var pending: [(Key, [TreeEntry])] = []
            for key in keys {
                var entries = directories[key] ?? []
                for child in children[key] ?? [] {
                    let name = TreePath.split(child.directory).name
                    entries.removeAll { $0.name == name }
                    if let id = written[child] ?? nil { entries.append(TreeEntry(mode: "40000", name: name, id: id)) }
                }
                if entries.isEmpty {
                    written[key] = .some(nil)
                } else {
                    pending.append((key, entries))
                }
            }
            // Identical trees are written once. The entries sorted by name are both the key and what is written
            // (`mktree` orders its input itself): one array per distinct tree, no text built per tree (at 10,000
            // tenants a signature string per tree was tens of megabytes at roll's peak).
            var unique: [[TreeEntry]] = []
            var slot: [[TreeEntry]: Int] = [:]
            var slots: [Int] = []
            for (_, entries) in pending {
                let sorted = entries.sorted { $0.name < $1.name }
                if let existing = slot[sorted] {
                    slots.append(existing)
                } else {
                    slot[sorted] = unique.count
                    slots.append(unique.count)
                    unique.append(sorted)
                }
            }
            let ids = try makeTrees(unique)
            for ((key, _), index) in zip(pending, slots) { written[key] = ids[index] }
        }
        return written
    }

    /// Writes many trees with one `mktree -z --batch`; returns their ids in order.
    private func makeTrees(_ trees: [[TreeEntry]]) throws -> [String] {
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
        // --missing: a partial clone may lack the blobs of entries it copies unchanged.
        let output = try git.run(
            ["mktree", "-z", "--missing", "--batch"], in: repository, input: input,
            context: "write \(trees.count) tree\(trees.count == 1 ? "" : "s")")
        let ids = output.lines
        guard ids.count == trees.count, ids.allSatisfy(ObjectID.isValid) else {
            throw TreeWriterError("mktree wrote \(ids.count) trees for \(trees.count) in \(repository)")
        }
        return ids
    }

    /// The empty tree of this repository's hash algorithm.
    private func emptyTree() throws -> String {
        let id = try git.run(["mktree", "-z"], in: repository, input: Data(), context: "write the empty tree").text
        guard ObjectID.isValid(id) else { throw TreeWriterError("mktree printed \(id) for the empty tree") }
        return id
    }
}

/// A tree could not be read or written as expected.
public struct TreeWriterError: Error, Sendable, Equatable, CustomStringConvertible {
    public var description: String

    public init(_ description: String) { self.description = description }
}
