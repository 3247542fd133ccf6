import Foundation

/// One change of a path in a tree.
public struct PathEdit: Sendable, Equatable {
    /// What the path becomes.
    public enum Change: Sendable, Equatable {
        /// A regular file (mode 100644) with these bytes.
        case file(Data)
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

/// Writes commits with plumbing only: a temporary index (`GIT_INDEX_FILE` in a temporary directory) is filled from
/// the base commit's tree (`read-tree`), edited (`update-index -z --index-info`), written (`write-tree`) and
/// committed (`commit-tree`). The user's index, working tree, HEAD and branches are never touched; the new commit
/// is only an object until a ref or a push names it.
public struct TreeEditor: Sendable {
    let git: Git
    let repository: String

    /// Creates an editor for a repository (a working copy or a bare repository).
    public init(git: Git, repository: String) {
        self.git = git
        self.repository = repository
    }

    /// Writes a blob and returns its id.
    public func blob(_ data: Data) throws -> String {
        try git.run(
            ["hash-object", "-w", "--stdin"], in: repository, input: data, context: "write a file object"
        ).text
    }

    /// The tree of `base` with `edits` applied; returns the new tree id.
    public func tree(base: String?, edits: [PathEdit]) throws -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "tenantctl-index-" + UUID().uuidString)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let interrupted = Cancellator.shared.register(temporaryDirectory: directory)
        defer { try? FileManager.default.removeItem(at: directory); interrupted.release() }
        let indexGit = git.with(environment: ["GIT_INDEX_FILE": directory.appendingPathComponent("index").path])
        if let base {
            try indexGit.run(
                ["read-tree", "--end-of-options", base + "^{tree}"], in: repository,
                context: "read the tree of \(base)")
        } else {
            try indexGit.run(["read-tree", "--empty"], in: repository, context: "start an empty tree")
        }
        var info = Data()
        for edit in edits {
            let line: String
            switch edit.change {
            case .file(let data): line = "100644 \(try blob(data))\t\(edit.path)"
            case .gitlink(let commit): line = "160000 \(commit)\t\(edit.path)"
            case .remove: line = "0 \(String(repeating: "0", count: 40))\t\(edit.path)"
            }
            info.append(Data(line.utf8))
            info.append(0)
        }
        if !info.isEmpty {
            try indexGit.run(
                ["update-index", "-z", "--index-info"], in: repository, input: info, context: "edit the tree")
        }
        return try indexGit.text(["write-tree"], in: repository, context: "write the edited tree")
    }

    /// A commit of `base`'s tree with `edits` applied, whose parents are `parents` (normally `[base]`).
    public func commit(base: String?, edits: [PathEdit], parents: [String], message: String) throws -> String {
        let tree = try tree(base: base, edits: edits)
        var arguments = ["commit-tree"]
        for parent in parents { arguments += ["-p", parent] }
        arguments += ["-F", "-", "--end-of-options", tree]
        return try git.run(
            arguments, in: repository, input: Data((message + "\n").utf8), context: "write the commit \"\(message)\""
        ).text
    }
}
