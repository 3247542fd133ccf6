import ArgumentParser
import Foundation
import TenantKit

/// What a command runs in: environment variables, directory and output streams (injected for tests).
public struct CommandEnvironment: Sendable {
    /// Environment variables.
    public var variables: [String: String]
    /// The directory tenantctl was started in.
    public var currentDirectory: String
    /// Where reports go.
    public var stdout: any OutputSink
    /// Where progress and errors go.
    public var stderr: any OutputSink
    /// Whether stdout is a terminal (colour, progress).
    public var stdoutIsTerminal: Bool
    /// The command line after the program name, global options moved behind the subcommand (set by
    /// ``Tenantctl/run(arguments:environment:)``): a writing command's journal keeps the words that re-run it.
    public var arguments: [String] = []
    /// Whether a pager may take this process's stdout (only the real process's own terminal: never in-process
    /// tests, whose stdout is a buffer).
    public var pagerAllowed = false

    public init(
        variables: [String: String], currentDirectory: String, stdout: any OutputSink, stderr: any OutputSink,
        stdoutIsTerminal: Bool = false, pagerAllowed: Bool = false
    ) {
        self.pagerAllowed = pagerAllowed
        self.variables = variables
        self.currentDirectory = currentDirectory
        self.stdout = stdout
        self.stderr = stderr
        self.stdoutIsTerminal = stdoutIsTerminal
    }

    /// The real process environment.
    public static func process() -> CommandEnvironment {
        CommandEnvironment(
            variables: ProcessInfo.processInfo.environment,
            currentDirectory: FileManager.default.currentDirectoryPath,
            stdout: FileOutputSink(.standardOutput), stderr: FileOutputSink(.standardError),
            stdoutIsTerminal: isatty(STDOUT_FILENO) == 1, pagerAllowed: true)
    }
}

/// Everything a command needs, built once from the global options and the environment.
public struct CommandContext: Sendable {
    /// The options given.
    public let options: GlobalOptions
    /// The environment.
    public let environment: CommandEnvironment
    /// Output.
    public let console: Console
    /// The git runner (version already checked).
    public let git: Git
    /// The directory commands work from (`-C` or the current directory).
    public let directory: String

    init(options: GlobalOptions, environment: CommandEnvironment, console: Console) throws {
        self.options = options
        self.environment = environment
        self.console = console
        let allowLocal =
            options.allowLocalRemotes
            || ["1", "true", "yes"].contains(
                environment.variables["TENANTCTL_ALLOW_LOCAL_REMOTES"]?.lowercased() ?? "")
        var trace: (@Sendable ([String], String?) -> Void)? = nil
        if options.verbose && !options.quiet {
            trace = { arguments, _ in
                console.debug("+ git " + arguments.map { GitError.quote($0) }.joined(separator: " "))
            }
        }
        var git = try Git(
            executable: options.git, environment: environment.variables, allowLocalRemotes: allowLocal, trace: trace
        ).withNetworkTimeout(Double(options.networkTimeout))
        try git.checkVersion()
        if let given = options.directory {
            directory =
                URL(
                    fileURLWithPath: given,
                    relativeTo: URL(fileURLWithPath: environment.currentDirectory, isDirectory: true)
                ).standardizedFileURL.path
        } else {
            directory = environment.currentDirectory
        }
        if !allowLocal, Self.repositoryAllowsLocalRemotes(directory, git: git) {
            git = git.allowingLocalRemotes()
        }
        self.git = git
    }

    /// Whether the superproject around `directory` says, in its own local config (never cloned, so only its user or
    /// `tenantctl example` can have set it), that its remotes may be local paths: `tenantctl.allowLocalRemotes`.
    static func repositoryAllowsLocalRemotes(_ directory: String, git: Git) -> Bool {
        // A superproject checked out on a tenant branch without modules.json has no such file to find it by: the
        // repository around `directory` is asked then.
        let root = Workspace.findRoot(from: directory) ?? directory
        // Not a repository (128) or not set (1) both mean "not allowed": failing closed.
        guard
            let allowed = try? git.repository(at: root).isLocallyTrue(
                "tenantctl.allowLocalRemotes", context: "read tenantctl.allowLocalRemotes")
        else { return false }
        return allowed
    }

    /// Whether local remotes are allowed for this run.
    public var allowLocalRemotes: Bool { git.allowLocalRemotes }

    /// The superproject around ``directory``.
    public func workspace() throws -> Workspace {
        try Workspace.locate(from: directory, git: git, remote: options.remote)
    }

    /// The repository whose working tree ``directory`` is in, as a workspace, whether or not it has `modules.json`
    /// yet: the superproject `init` adopts.
    public func enclosingWorkspace() throws -> Workspace {
        if environment.variables["GIT_DIR"] == nil, !Self.hasRepository(atOrAbove: directory) {
            throw WorkspaceError(
                "no git repository at or above \(directory): init adopts an existing submodule superproject; run "
                    + "it in the superproject's clone or pass -C <dir>, or make an example to explore with "
                    + "`tenantctl example <dir>`")
        }
        return try Workspace.enclosing(directory, git: git, remote: options.remote)
    }

    /// Whether `directory` or a directory above it has a `.git` (a directory, or the file of a worktree or submodule
    /// checkout): file checks only, as ``Workspace/findRoot(from:)``.
    static func hasRepository(atOrAbove directory: String) -> Bool {
        var candidate = URL(fileURLWithPath: directory).standardizedFileURL
        while true {
            if FileManager.default.fileExists(atPath: candidate.appendingPathComponent(".git").path) { return true }
            let parent = candidate.deletingLastPathComponent()
            if parent.path == candidate.path || candidate.path == "/" { return false }
            candidate = parent
        }
    }

    /// The repository at ``directory``, whatever it is (or none): where the pager's `core.pager` is read.
    var directoryRepository: GitRepository { git.repository(at: directory) }
}
