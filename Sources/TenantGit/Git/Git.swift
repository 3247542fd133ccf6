import Foundation

/// The output of a finished git process.
public struct GitOutput: Sendable, Equatable {
    /// Exit status.
    public var status: Int32
    /// Raw standard output.
    public var stdout: Data
    /// Standard error as text (lossy UTF-8).
    public var stderr: String

    public init(status: Int32, stdout: Data, stderr: String) {
        self.status = status
        self.stdout = stdout
        self.stderr = stderr
    }

    /// Standard output as UTF-8 text, without trailing newlines.
    public var text: String {
        var string = String(decoding: stdout, as: UTF8.self)
        while string.hasSuffix("\n") { string.removeLast() }
        return string
    }

    /// Standard output split into lines (empty output gives no lines).
    public var lines: [String] {
        let text = self.text
        return text.isEmpty ? [] : text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    }
}

/// The one place where git is started.
///
/// Every call is an argument vector (never a shell string), runs with `-C <repository>`, an explicit
/// environment (no prompts, C locale, no pager or editor) and configuration that keeps a repository's
/// local config from running programs (`core.fsmonitor`, `core.hooksPath`). Both pipes are read
/// concurrently, the exit status is always checked, and a failure is a ``GitError`` naming the call site.
public struct Git: Sendable {
    /// The oldest git that has everything tenantctl needs (`merge-tree --write-tree`).
    public static let minimumVersion = GitVersion(major: 2, minor: 38, patch: 0)

    /// Absolute path of the git executable.
    public let executable: String
    /// The environment every git process gets.
    public let environment: [String: String]
    /// Whether `file://` and local-path remotes may be used.
    public let allowLocalRemotes: Bool
    /// Called before every git process starts (for `--verbose` tracing); gets the redacted argument vector.
    public let trace: (@Sendable ([String], String?) -> Void)?
    /// Seconds a network call (fetch, clone, push, ls-remote) may take before it is stopped (`--network-timeout`);
    /// nil: no limit.
    public private(set) var networkTimeout: Double? = nil

    /// Variables that would point git at another repository than the one named with `-C`.
    static let repositoryVariables: Set<String> = [
        "GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_OBJECT_DIRECTORY", "GIT_ALTERNATE_OBJECT_DIRECTORIES",
        "GIT_NAMESPACE", "GIT_COMMON_DIR", "GIT_PREFIX", "GIT_CEILING_DIRECTORIES", "GIT_DISCOVERY_ACROSS_FILESYSTEM",
        "GIT_CONFIG", "GIT_CONFIG_PARAMETERS", "GIT_CONFIG_COUNT", "GIT_QUARANTINE_PATH", "GIT_INTERNAL_SUPER_PREFIX",
    ]

    /// Creates a runner.
    /// - Parameters:
    ///   - executable: `--git` value; else `TENANTCTL_GIT` from `environment`; else `git` from `PATH`.
    ///   - environment: the base environment (normally the process environment).
    ///   - allowLocalRemotes: permit the `file` protocol (local paths and `file://`).
    public init(
        executable: String? = nil,
        environment base: [String: String] = ProcessInfo.processInfo.environment,
        allowLocalRemotes: Bool = false,
        trace: (@Sendable ([String], String?) -> Void)? = nil
    ) throws(GitError) {
        let requested = executable ?? base["TENANTCTL_GIT"].flatMap { $0.isEmpty ? nil : $0 } ?? "git"
        self.executable = try Self.resolve(requested, path: base["PATH"] ?? "/usr/bin:/bin")
        var env = base.filter { !Self.repositoryVariables.contains($0.key) }
        env["LC_ALL"] = "C"
        env["LANG"] = "C"
        env["LANGUAGE"] = "C"
        env["GIT_TERMINAL_PROMPT"] = "0"
        env["GCM_INTERACTIVE"] = "never"
        env["GIT_EDITOR"] = ":"
        env["GIT_SEQUENCE_EDITOR"] = ":"
        env["GIT_MERGE_AUTOEDIT"] = "no"
        env["GIT_PAGER"] = "cat"
        env["PAGER"] = "cat"
        env["GIT_OPTIONAL_LOCKS"] = "0"
        env["GIT_ALLOW_PROTOCOL"] = allowLocalRemotes ? "https:http:ssh:git:file" : "https:http:ssh:git"
        if env["GIT_SSH_COMMAND"] == nil && env["GIT_SSH"] == nil {
            // Fail instead of asking for a password; the user's own ssh config still applies.
            env["GIT_SSH_COMMAND"] = "ssh -o BatchMode=yes"
        }
        self.environment = env
        self.allowLocalRemotes = allowLocalRemotes
        self.trace = trace
    }

    /// A copy of this runner with local remotes allowed (for `example` and `demo`, on directories they made).
    public func allowingLocalRemotes() -> Git {
        var env = environment
        env["GIT_ALLOW_PROTOCOL"] = "https:http:ssh:git:file"
        return Git(executable: executable, environment: env, allowLocalRemotes: true, trace: trace)
            .withNetworkTimeout(networkTimeout)
    }

    /// A copy of this runner whose network calls are stopped after `seconds` (nil: no limit).
    public func withNetworkTimeout(_ seconds: Double?) -> Git {
        var copy = self
        copy.networkTimeout = seconds
        return copy
    }

    /// A copy of this runner with extra environment variables (e.g. fixed commit dates).
    public func with(environment extra: [String: String]) -> Git {
        Git(
            executable: executable, environment: environment.merging(extra) { $1 },
            allowLocalRemotes: allowLocalRemotes,
            trace: trace
        ).withNetworkTimeout(networkTimeout)
    }

    private init(
        executable: String, environment: [String: String], allowLocalRemotes: Bool,
        trace: (@Sendable ([String], String?) -> Void)?
    ) {
        self.executable = executable
        self.environment = environment
        self.allowLocalRemotes = allowLocalRemotes
        self.trace = trace
    }

    static func resolve(_ name: String, path: String) throws(GitError) -> String {
        if name.contains("/") {
            let url = URL(fileURLWithPath: name)
            guard FileManager.default.isExecutableFile(atPath: url.path) else {
                throw GitError(
                    context: "find git", kind: .notStarted(reason: "\(name) is not an executable file"), command: [],
                    directory: nil, stderr: "")
            }
            return url.path
        }
        for directory in path.split(separator: ":") where !directory.isEmpty {
            let candidate = "\(directory)/\(name)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        throw GitError(
            context: "find git",
            kind: .notStarted(
                reason: "no '\(name)' in PATH; install git \(minimumVersion) or newer, or set TENANTCTL_GIT"),
            command: [], directory: nil, stderr: "")
    }

    /// The full argument vector for a call (without the executable).
    func argumentVector(_ arguments: [String], in directory: String?) -> [String] {
        var vector: [String] = []
        if let directory { vector += ["-C", directory] }
        vector += ["-c", "core.fsmonitor=false", "-c", "core.hooksPath=/dev/null", "-c", "protocol.ext.allow=never"]
        if allowLocalRemotes { vector += ["-c", "protocol.file.allow=always"] }
        return vector + arguments
    }

    /// The command line of a call as an error shows it (`git`, the full argument vector).
    func command(_ arguments: [String], in directory: String?) -> [String] {
        ["git"] + argumentVector(arguments, in: directory)
    }

    /// Runs git to completion and returns its output; throws unless the exit status is in `accepting`.
    /// - Parameters:
    ///   - arguments: the git arguments (e.g. `["rev-parse", "--verify", "--end-of-options", value]`).
    ///   - directory: the repository (`-C`).
    ///   - input: bytes written to standard input (concurrently with reading the output).
    ///   - context: what this call does, for the error message ("read the pins of t2").
    ///   - accepting: exit statuses that are not failures.
    @discardableResult
    public func run(
        _ arguments: [String], in directory: String?, input: Data? = nil, context: String? = nil,
        accepting: Set<Int32> = [0]
    ) throws(GitError) -> GitOutput {
        let vector = argumentVector(arguments, in: directory)
        trace?(vector.map(Redaction.redact), directory)
        let context = context ?? "git \(arguments.first ?? "")"
        let output: GitOutput
        do {
            output = try ChildProcess.run(
                executable: executable, arguments: vector, environment: environment, input: input)
        } catch {
            throw Self.notStarted(error, context: context, command: ["git"] + vector, directory: directory)
        }
        return try Self.checked(output, accepting: accepting, context: context, vector: vector, directory: directory)
    }

    /// Runs a git call that talks to a remote (fetch, clone, push, ls-remote, `submodule update` cloning), like
    /// ``run(_:in:input:context:accepting:)`` but in a session of its own (no controlling terminal: nothing git or
    /// ssh starts can prompt) and stopped after ``networkTimeout`` seconds: SIGTERM to git and the helpers it
    /// started, SIGKILL after a grace period. A stopped call throws ``GitError/Kind/timedOut(seconds:remote:)``
    /// naming `remote` (a URL, or a remote's name whose URL is looked up), redacted.
    @discardableResult
    public func runNetwork(
        _ arguments: [String], in directory: String?, remote: String, input: Data? = nil, context: String? = nil,
        accepting: Set<Int32> = [0]
    ) throws(GitError) -> GitOutput {
        let vector = argumentVector(arguments, in: directory)
        trace?(vector.map(Redaction.redact), directory)
        let context = context ?? "git \(arguments.first ?? "")"
        let result: (output: GitOutput, timedOut: Bool)
        do {
            result = try ChildProcess.run(
                executable: executable, arguments: vector, environment: environment, input: input,
                timeLimit: networkTimeout, newSession: true)
        } catch {
            throw Self.notStarted(error, context: context, command: ["git"] + vector, directory: directory)
        }
        let output = result.output
        // A call that finished on its own just as the limit passed keeps its result.
        if result.timedOut, let seconds = networkTimeout, output.status < 0 || !accepting.contains(output.status) {
            throw GitError(
                context: context, kind: .timedOut(seconds: seconds, remote: describe(remote: remote, in: directory)),
                command: ["git"] + vector, directory: directory, output: output)
        }
        return try Self.checked(output, accepting: accepting, context: context, vector: vector, directory: directory)
    }

    /// `output` if git exited with a status in `accepting`; else the error of a call killed by a signal or failed.
    static func checked(
        _ output: GitOutput, accepting: Set<Int32>, context: String, vector: [String], directory: String?
    ) throws(GitError) -> GitOutput {
        if output.status < 0 {
            throw GitError(
                context: context, kind: .killed(signal: -output.status), command: ["git"] + vector,
                directory: directory, output: output)
        }
        guard accepting.contains(output.status) else {
            throw GitError(
                context: context, kind: .failed(status: output.status), command: ["git"] + vector, directory: directory,
                output: output)
        }
        return output
    }

    /// A remote for a message: a URL or path as it is, a remote's name with its URL (`origin (https://…)`); redacted.
    func describe(remote: String, in directory: String?) -> String {
        let isName = !remote.contains("/") && !remote.contains(":") && !remote.contains("\\")
        guard isName, let directory,
            let output = try? run(
                ["config", "--get", "--end-of-options", "remote.\(remote).url"], in: directory,
                context: "read the URL of remote \(remote)", accepting: [0, 1]),
            output.status == 0, !output.text.isEmpty
        else { return Redaction.redact(remote) }
        return "\(remote) (\(Redaction.redact(output.text)))"
    }

    /// The error for a process that did not start: refused after an interrupt, or refused by the system.
    static func notStarted(_ error: SpawnError, context: String, command: [String], directory: String?) -> GitError {
        switch error {
        case .cancelled:
            return GitError(context: context, kind: .cancelled, command: command, directory: directory, stderr: "")
        case .failed(let reason):
            return GitError(
                context: context, kind: .notStarted(reason: reason), command: command, directory: directory,
                stderr: "")
        }
    }

    /// Runs git and returns standard output as trimmed text.
    public func text(_ arguments: [String], in directory: String?, context: String? = nil) throws(GitError) -> String {
        try run(arguments, in: directory, context: context).text
    }

    /// Starts a long-lived git process for request/response work (`cat-file --batch`, `update-ref --stdin`).
    public func spawn(_ arguments: [String], in directory: String?, context: String) throws(GitError) -> GitProcess {
        let vector = argumentVector(arguments, in: directory)
        trace?(vector.map(Redaction.redact), directory)
        do {
            return try GitProcess(
                executable: executable, arguments: vector, environment: environment, directory: directory,
                context: context)
        } catch {
            throw Self.notStarted(error, context: context, command: ["git"] + vector, directory: directory)
        }
    }

    /// The version of this git.
    public func version() throws(GitError) -> GitVersion {
        try versionOutput().version
    }

    private func versionOutput() throws(GitError) -> (version: GitVersion, output: GitOutput) {
        let output = try run(["version"], in: nil, context: "check the git version")
        guard let version = GitVersion(parsing: output.text) else {
            throw GitError(
                context: "check the git version", kind: .unparseableOutput(detail: output.text),
                command: ["git"] + argumentVector(["version"], in: nil), directory: nil, output: output)
        }
        return (version, output)
    }

    /// Throws a clear error when git is older than ``minimumVersion``.
    @discardableResult
    public func checkVersion() throws(GitError) -> GitVersion {
        let (found, output) = try versionOutput()
        guard found >= Self.minimumVersion else {
            throw GitError(
                context: "check the git version",
                kind: .unsupportedVersion(found: found.description, minimum: Self.minimumVersion.description),
                command: ["git"] + argumentVector(["version"], in: nil), directory: nil, output: output)
        }
        return found
    }
}
