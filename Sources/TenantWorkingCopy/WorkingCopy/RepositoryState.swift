import Foundation

/// One reason a working-copy command refuses: which repository, where, and why.
public struct WorkingCopyProblem: Error, Sendable, Equatable, Codable, CustomStringConvertible {
    /// `superproject` or the module name.
    public var repository: String
    /// The path concerned (a file, a directory or the repository root), relative to the superproject root.
    public var path: String
    /// What is wrong and what to do about it.
    public var reason: String

    public init(repository: String, path: String, reason: String) {
        self.repository = repository
        self.path = path
        self.reason = reason
    }

    public var description: String { "\(repository) (\(path.isEmpty ? "." : path)): \(reason)" }
}

/// A working-copy command refused before changing anything; lists every problem found.
public struct WorkingCopyRefusal: Error, Sendable, Equatable, CustomStringConvertible {
    /// What was attempted ("switch to t2").
    public var action: String
    /// Every problem found.
    public var problems: [WorkingCopyProblem]
    /// What was changed before the refusal (a stopped switch put back first); nil: nothing was changed.
    public var note: String?

    public init(action: String, problems: [WorkingCopyProblem], note: String? = nil) {
        self.action = action
        self.problems = problems
        self.note = note
    }

    public var description: String {
        ([
            "cannot \(action): \(problems.count) problem\(problems.count == 1 ? "" : "s") found, "
                + (note ?? "nothing was changed")
        ]
            + problems.map { "- \($0)" }).joined(separator: "\n")
    }
}

/// The observed state of one repository's working copy: status, unfinished operations, locks, branches.
public struct RepositoryState: Sendable, Equatable {
    /// Absolute path of the working tree.
    public var path: String
    /// Absolute path of the git directory.
    public var gitDirectory: String
    /// `git status --porcelain=v2 --branch -z`.
    public var status: PorcelainStatus
    /// Unfinished operations (`merge`, `rebase`, `cherry-pick`, `revert`, `bisect`).
    public var operations: [String]
    /// Lock files found in the git directory (absolute paths).
    public var lockFiles: [String]
    /// On a detached HEAD: commits reachable from HEAD but from no branch and no remote-tracking ref.
    public var orphanCommits: Int
    /// Local branches: name → commit.
    public var branches: [String: String]
    /// Branches of `origin` as last fetched: name → commit.
    public var remoteBranches: [String: String]

    public init(
        path: String, gitDirectory: String, status: PorcelainStatus, operations: [String] = [],
        lockFiles: [String] = [], orphanCommits: Int = 0, branches: [String: String] = [:],
        remoteBranches: [String: String] = [:]
    ) {
        self.path = path
        self.gitDirectory = gitDirectory
        self.status = status
        self.operations = operations
        self.lockFiles = lockFiles
        self.orphanCommits = orphanCommits
        self.branches = branches
        self.remoteBranches = remoteBranches
    }

    /// The commit HEAD points at (nil on an unborn branch).
    public var head: String? { status.oid }
    /// The checked-out branch (nil when detached).
    public var currentBranch: String? { status.head }

    /// Marker files and directories of unfinished operations in a git directory.
    static let operationMarkers: [(file: String, operation: String)] = [
        ("MERGE_HEAD", "merge"), ("rebase-merge", "rebase"), ("rebase-apply", "rebase"),
        ("CHERRY_PICK_HEAD", "cherry-pick"), ("REVERT_HEAD", "revert"), ("BISECT_LOG", "bisect"),
    ]

    /// Lock files tenantctl itself holds (never reported as stale).
    static let ownLocks: Set<String> = ["tenantctl.lock"]

    /// Inspects `repository` (its working tree).
    /// - Parameter superproject: ignore changes inside submodule working trees (they are inspected on their own).
    public static func inspect(_ repository: GitRepository, superproject: Bool = false) throws -> RepositoryState {
        let path = repository.path
        let gitDirectory = try repository.absoluteGitDirectory()
        let ignoreSubmodules = superproject ? "dirty" : "none"
        let statusOutput = try repository.porcelainStatus(ignoreSubmodules: ignoreSubmodules)
        guard let status = PorcelainStatus.parse(statusOutput.stdout) else {
            throw repository.unparseableStatus(statusOutput, ignoreSubmodules: ignoreSubmodules)
        }
        let fileManager = FileManager.default
        let operations = operationMarkers.filter {
            fileManager.fileExists(atPath: (gitDirectory as NSString).appendingPathComponent($0.file))
        }.map(\.operation)
        let lockFiles: [String]
        do {
            lockFiles = try fileManager.contentsOfDirectory(atPath: gitDirectory)
                .filter { $0.hasSuffix(".lock") && !ownLocks.contains($0) }.sorted()
                .map { (gitDirectory as NSString).appendingPathComponent($0) }
        } catch {
            throw WorkspaceError(
                "cannot list \(gitDirectory), the git directory of \(path), to look for lock files: "
                    + "\(error.localizedDescription); check that it exists and can be read, then run the command again")
        }
        let refs = try repository.refs(["refs/heads/", "refs/remotes/origin/"], what: path)
        var branches: [String: String] = [:]
        var remoteBranches: [String: String] = [:]
        for (ref, id) in refs {
            if ref.hasPrefix("refs/heads/") {
                branches[String(ref.dropFirst("refs/heads/".count))] = id
            } else if ref.hasPrefix("refs/remotes/origin/") {
                let name = String(ref.dropFirst("refs/remotes/origin/".count))
                if name != "HEAD" { remoteBranches[name] = id }
            }
        }
        var orphans = 0
        if status.isDetached, status.oid != nil {
            orphans = try repository.countCommits(
                from: "HEAD", orLocalBranches: true,
                context: "look for commits only the detached HEAD of \(path) holds")
        }
        return RepositoryState(
            path: path, gitDirectory: gitDirectory, status: status, operations: operations, lockFiles: lockFiles,
            orphanCommits: orphans, branches: branches, remoteBranches: remoteBranches)
    }

    /// Everything that makes this working copy unsafe to change (pure).
    /// - Parameters:
    ///   - repository: `superproject` or the module name, for the report.
    ///   - relativePath: the repository's path relative to the superproject root ("" for the superproject).
    public func problems(repository: String, relativePath: String) -> [WorkingCopyProblem] {
        var problems: [WorkingCopyProblem] = []
        func join(_ path: String) -> String { relativePath.isEmpty ? path : relativePath + "/" + path }
        for operation in operations {
            problems.append(
                WorkingCopyProblem(
                    repository: repository, path: relativePath,
                    reason: "unfinished operation in \(repository): a \(operation) is in progress; "
                        + "finish or abort it first"))
        }
        for lock in lockFiles {
            problems.append(
                WorkingCopyProblem(
                    repository: repository, path: relativePath,
                    reason: "lock file \(lock) exists: another git process is running, or one crashed; "
                        + "remove the file yourself once no git process uses this repository"))
        }
        if head == nil {
            problems.append(
                WorkingCopyProblem(repository: repository, path: relativePath, reason: "HEAD has no commit yet"))
        }
        if status.isDetached && orphanCommits > 0 {
            problems.append(
                WorkingCopyProblem(
                    repository: repository, path: relativePath,
                    reason: "detached HEAD at \(ObjectID.short(head, none: "?")) holds \(orphanCommits) "
                        + "commit\(orphanCommits == 1 ? "" : "s") that no branch or remote contains; "
                        + "create a branch for them (git branch <name>) first"))
        }
        return problems + entryProblems(repository: repository, relativePath: relativePath)
    }

    /// At most this many changed files of one repository are listed one line each; more are one line per kind.
    static let filesListed = 5

    /// The changed files that block a change of the working copy: one problem per file when they are few, one per
    /// kind (`staged`, `modified`, …) with the count and the first names when there are more; a clone that was never
    /// checked out (every file of HEAD staged for deletion, none in the working tree, as `git clone --no-checkout`
    /// leaves it: the working tree holds nothing but `.git`) is one problem saying so, with the command that checks
    /// it out.
    func entryProblems(repository: String, relativePath: String) -> [WorkingCopyProblem] {
        let entries = status.blockingEntries
        guard !entries.isEmpty else { return [] }
        let root = relativePath.isEmpty ? "." : relativePath
        if entries.allSatisfy({ $0.indexStatus == "D" && $0.worktreeStatus == "." }),
            (try? FileManager.default.contentsOfDirectory(atPath: path)) == [".git"]
        {
            let command = "git -C \(ShellWord.quote(path)) checkout -f HEAD"
            return [
                WorkingCopyProblem(
                    repository: repository, path: root,
                    reason: "\(entries.count) files staged for deletion and none of them in the working tree: "
                        + "a clone that was never checked out, it seems; check it out with: \(command)")
            ]
        }
        func join(_ file: String) -> String { relativePath.isEmpty ? file : relativePath + "/" + file }
        let described = entries.map { (path: join($0.path), what: Self.what($0)) }
        if described.count <= Self.filesListed {
            return described.map {
                WorkingCopyProblem(
                    repository: repository, path: $0.path, reason: "\($0.what) file; commit or stash it first")
            }
        }
        var kinds: [String] = []
        var files: [String: [String]] = [:]
        for entry in described {
            if files[entry.what] == nil { kinds.append(entry.what) }
            files[entry.what, default: []].append(entry.path)
        }
        return kinds.map { what in
            let paths = files[what] ?? []
            let shown = paths.prefix(3).joined(separator: ", ") + (paths.count > 3 ? ", …" : "")
            return WorkingCopyProblem(
                repository: repository, path: root,
                reason: "\(English.count(paths.count, "\(what) file")) (\(shown)); commit or stash them first "
                    + "(git -C \(ShellWord.quote(path)) status lists them)")
        }
    }

    /// What a changed file is, in a problem's words.
    static func what(_ entry: PorcelainStatus.Entry) -> String {
        switch entry.kind {
        case .unmerged: return "conflicted"
        case .renamed: return "renamed (staged)"
        default:
            if entry.submodule?.modified == true && entry.indexStatus == "." {
                return "submodule with modified content"
            } else if entry.indexStatus != "." && entry.worktreeStatus != "." {
                return "staged and modified"
            } else if entry.indexStatus != "." {
                return entry.submodule != nil ? "staged submodule commit" : "staged"
            }
            return "modified"
        }
    }
}
