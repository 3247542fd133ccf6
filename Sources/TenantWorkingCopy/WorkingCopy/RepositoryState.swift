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
        for entry in status.blockingEntries {
            let what: String
            switch entry.kind {
            case .unmerged: what = "conflicted"
            case .renamed: what = "renamed (staged)"
            default:
                if entry.submodule?.modified == true && entry.indexStatus == "." {
                    what = "submodule with modified content"
                } else if entry.indexStatus != "." && entry.worktreeStatus != "." {
                    what = "staged and modified"
                } else if entry.indexStatus != "." {
                    what = entry.submodule != nil ? "staged submodule commit" : "staged"
                } else {
                    what = "modified"
                }
            }
            problems.append(
                WorkingCopyProblem(
                    repository: repository, path: join(entry.path),
                    reason: "\(what) file; commit or stash it first"))
        }
        return problems
    }
}
