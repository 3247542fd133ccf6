import Foundation

/// Why no superproject could be found or used.
public struct WorkspaceError: Error, Sendable, Equatable, CustomStringConvertible {
    public var description: String

    public init(_ description: String) { self.description = description }
}

/// A superproject working copy: the directory that has `modules.json` and a `.git`.
public struct Workspace: Sendable {
    /// Absolute path of the superproject root.
    public var root: String
    /// Absolute path of the superproject's git directory.
    public var gitDirectory: String
    /// The superproject's remote that the repository-wide commands read from and push to (`--remote`, default
    /// `origin`).
    public var remoteName: String
    /// Where tenantctl keeps the remote's branches as it last fetched them (`refs/tenantctl/remotes/<remote>/`), away
    /// from the clone's own remote-tracking refs.
    public var fetchedRefPrefix: String { "refs/tenantctl/remotes/\(remoteName)/" }

    /// Absolute path of the git directory shared by all worktrees of the superproject (`--git-common-dir`): the
    /// home of tenantctl's lock, roll journal, resolve state and module mirrors, so that a run in one worktree
    /// sees (and excludes) a run in another, and `git worktree remove` deletes none of them.
    public var commonDirectory: String

    /// The git runner of the run: every repository the workspace hands out runs with it.
    public var git: Git

    /// The default name of the superproject remote (and the name of every module checkout's remote).
    public static let defaultRemoteName = "origin"

    public init(
        root: String, gitDirectory: String, commonDirectory: String? = nil,
        remoteName: String = Workspace.defaultRemoteName, git: Git
    ) {
        self.root = root
        self.gitDirectory = gitDirectory
        self.commonDirectory = commonDirectory ?? gitDirectory
        self.remoteName = remoteName
        self.git = git
    }

    /// The superproject's repository (its working tree, ``root``).
    public var superproject: GitRepository { git.repository(at: root) }

    /// The repository checked out at `relative` below the root: a module's checkout (`Modules/Article`).
    public func checkout(at relative: String) -> GitRepository { superproject.repository(at: path(relative)) }

    /// Finds the superproject from `directory` upwards (a module directory inside it works too).
    public static func locate(from directory: String, git: Git, remote: String = defaultRemoteName) throws
        -> Workspace
    {
        let start = URL(fileURLWithPath: directory).standardizedFileURL
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: start.path, isDirectory: &isDirectory), isDirectory.boolValue
        else {
            throw WorkspaceError("\(start.path) is not a directory")
        }
        if let root = findRoot(from: start.path) {
            return try at(root: root, git: git, remote: remote)
        }
        if let adopted = try findCheckedOutWithoutFiles(from: start.path, git: git, remote: remote) {
            return adopted
        }
        throw WorkspaceError(
            "no tenantctl superproject at or above \(start.path) (looked for a directory with modules.json and .git, "
                + "or a git repository with a branch that has modules.json); run tenantctl in a superproject, pass "
                + "-C <dir>, or create one with `tenantctl init` or `tenantctl example <dir>`")
    }

    /// The nearest git working tree at or above `directory` whose repository has a general branch with
    /// `modules.json` (``GeneralBranchLocator``): a superproject checked out on a tenant branch that has no
    /// project files of its own (an adopted superproject before its first roll). A module checkout inside it has
    /// no such branch and is passed over.
    static func findCheckedOutWithoutFiles(from directory: String, git: Git, remote: String) throws -> Workspace? {
        var candidate = URL(fileURLWithPath: directory).standardizedFileURL
        while true {
            if FileManager.default.fileExists(atPath: candidate.appendingPathComponent(".git").path) {
                let workspace = try at(root: candidate.path, git: git, remote: remote)
                if try GeneralBranchLocator.find(workspace) != nil { return workspace }
            }
            let parent = candidate.deletingLastPathComponent()
            if parent.path == candidate.path || candidate.path == "/" { return nil }
            candidate = parent
        }
    }

    /// The superproject whose working tree is `root`.
    static func at(root: String, git: Git, remote: String) throws -> Workspace {
        guard let directories = try git.repository(at: root).gitDirectories() else {
            throw WorkspaceError("cannot read the git directories of \(root)")
        }
        return Workspace(
            root: root, gitDirectory: directories.gitDirectory,
            commonDirectory: URL(fileURLWithPath: directories.commonDirectory).standardizedFileURL.path,
            remoteName: remote, git: git)
    }

    /// The repository whose working tree `directory` is in, as a workspace (its top level and git directory),
    /// whether or not it has `modules.json` yet: the superproject `init` adopts.
    public static func enclosing(_ directory: String, git: Git, remote: String) throws(GitError) -> Workspace {
        let root = try git.repository(at: directory).topLevel(
            context: "find the repository around \(directory)")
        let gitDirectory = try git.repository(at: root).absoluteGitDirectory()
        return Workspace(root: root, gitDirectory: gitDirectory, remoteName: remote, git: git)
    }

    /// The nearest directory at or above `directory` that has both `modules.json` and `.git` (file checks only).
    public static func findRoot(from directory: String) -> String? {
        var candidate = URL(fileURLWithPath: directory).standardizedFileURL
        while true {
            let manifest = candidate.appendingPathComponent("modules.json").path
            let dotGit = candidate.appendingPathComponent(".git").path
            if FileManager.default.fileExists(atPath: manifest) && FileManager.default.fileExists(atPath: dotGit) {
                return candidate.path
            }
            let parent = candidate.deletingLastPathComponent()
            if parent.path == candidate.path || candidate.path == "/" { return nil }
            candidate = parent
        }
    }

    /// Absolute path of a path relative to the root.
    public func path(_ relative: String) -> String {
        (root as NSString).appendingPathComponent(relative)
    }
}
