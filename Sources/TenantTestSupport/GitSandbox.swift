import Foundation
import TenantKit

/// A failure of a plain git command run by a test.
public struct SandboxError: Error, CustomStringConvertible {
    public var description: String

    public init(description: String) { self.description = description }
}

/// A temporary directory with an isolated git configuration, for tests against real repositories.
///
/// Every sandbox has its own directory, HOME and global git config (`GIT_CONFIG_GLOBAL`,
/// `GIT_CONFIG_NOSYSTEM=1`), so tests neither see the machine's git config nor each other's files.
/// The directory is removed when the sandbox is released.
public final class GitSandbox: Sendable {
    /// The sandbox directory (absolute, symlinks resolved).
    public let root: String
    /// The environment for git in this sandbox.
    public let environment: [String: String]
    /// Keep the directory after the test (set `TENANTCTL_KEEP_SANDBOX=1`).
    public let keep: Bool

    public init(function: String = #function) throws {
        let base = URL(fileURLWithPath: TestDirectories.base, isDirectory: true)
        let name =
            "tenantctl-" + function.prefix(while: { $0.isLetter || $0.isNumber }) + "-" + UUID().uuidString.prefix(8)
        let url = base.appendingPathComponent(String(name), isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        root = try Self.realPath(url.path)
        let home = root + "/.home"
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
        let config = """
            [user]
            \tname = Sandbox User
            \temail = sandbox@example.invalid
            [init]
            \tdefaultBranch = main
            [advice]
            \tdetachedHead = false
            [protocol "file"]
            \tallow = always

            """
        try config.write(toFile: home + "/gitconfig", atomically: true, encoding: .utf8)
        let process = ProcessInfo.processInfo.environment
        var env: [String: String] = [:]
        env["PATH"] = process["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        env["HOME"] = home
        env["GIT_CONFIG_GLOBAL"] = home + "/gitconfig"
        env["GIT_CONFIG_NOSYSTEM"] = "1"
        env["TMPDIR"] = TestDirectories.base
        // git's messages in English, as with C; UTF-8 so that tenantctl's reports show their glyphs (under C they are
        // ASCII: TerminalLocaleTests).
        env["LC_ALL"] = "C.UTF-8"
        env["TENANTCTL_ALLOW_LOCAL_REMOTES"] = "1"
        environment = env
        keep = process["TENANTCTL_KEEP_SANDBOX"] == "1"
    }

    /// `path` with every symbolic link resolved, as git prints it (`realpath(3)`): on macOS the temporary directory
    /// is `/var/folders/…`, a link to `/private/var/folders/…`, and git prints the latter, while Foundation's
    /// `resolvingSymlinksInPath` gives the former back.
    public static func realPath(_ path: String) throws -> String {
        guard let resolved = realpath(path, nil) else {
            throw SandboxError(description: "cannot resolve \(path): \(String(cString: strerror(errno)))")
        }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    deinit {
        if !keep { try? FileManager.default.removeItem(atPath: root) }
    }

    /// An absolute path inside the sandbox.
    public func path(_ relative: String) -> String { root + "/" + relative }

    /// A `Git` runner for this sandbox (local remotes allowed).
    public func gitRunner(executable: String? = nil) throws -> Git {
        try Git(executable: executable, environment: environment, allowLocalRemotes: true)
    }

    /// Runs plain git (not through tenantctl's runner) and returns trimmed stdout; throws on a non-zero exit.
    @discardableResult
    public func git(_ arguments: [String], in directory: String? = nil, input: String? = nil) throws -> String {
        let result = try gitResult(arguments, in: directory, input: input)
        guard result.status == 0 else {
            throw SandboxError(
                description: "git \(arguments.joined(separator: " ")) failed (\(result.status)): \(result.stderr)")
        }
        return result.stdout.trimmingCharacters(in: .newlines)
    }

    /// Runs plain git and returns status, stdout and stderr.
    public func gitResult(_ arguments: [String], in directory: String? = nil, input: String? = nil) throws -> (
        status: Int32, stdout: String, stderr: String
    ) {
        try run("/usr/bin/env", ["git"] + (directory.map { ["-C", $0] } ?? []) + arguments, input: input)
    }

    /// Runs any program with the sandbox environment (through ``PlainProcess``, independent of tenantctl's runner).
    public func run(
        _ executable: String, _ arguments: [String], input: String? = nil, extraEnvironment: [String: String] = [:]
    ) throws -> (status: Int32, stdout: String, stderr: String) {
        let output = try PlainProcess.run(
            executable, arguments, environment: environment.merging(extraEnvironment) { $1 },
            input: input.map { Data($0.utf8) })
        return (output.status, String(decoding: output.stdout, as: UTF8.self), output.stderr)
    }

    /// Writes a file (creating directories).
    public func write(_ relative: String, _ content: String) throws {
        let url = URL(fileURLWithPath: path(relative))
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try content.write(to: url, atomically: false, encoding: .utf8)
    }

    /// Reads a file.
    public func read(_ relative: String) throws -> String {
        try String(contentsOfFile: path(relative), encoding: .utf8)
    }

    /// Creates a repository with one commit per `(path, content)` file set, on `branch`.
    @discardableResult
    public func makeRepository(_ relative: String, branch: String = "main", files: [String: String] = ["README": "x\n"])
        throws -> String
    {
        let dir = path(relative)
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        try git(["init", "-q", "-b", branch, dir])
        for (file, content) in files.sorted(by: { $0.key < $1.key }) { try write("\(relative)/\(file)", content) }
        try git(["add", "-A"], in: dir)
        try git(["commit", "-q", "-m", "initial"], in: dir)
        return dir
    }

    /// Commits a change of one file in a repository; returns the new commit id.
    @discardableResult
    public func commit(in relative: String, file: String, content: String, message: String = "change") throws -> String
    {
        try write("\(relative)/\(file)", content)
        try git(["add", "--", file], in: path(relative))
        try git(["commit", "-q", "-m", message], in: path(relative))
        return try git(["rev-parse", "HEAD"], in: path(relative))
    }

    /// A module's seed repository (`seed`, relative; `seed-<name>` by default) with one commit on `master` (a README)
    /// and, as its `origin`, a new empty bare repository `<remotes>/<name>.git`; nothing pushed yet. Returns the seed's
    /// path.
    @discardableResult
    public func seedRepository(_ name: String, remotes: String, seed: String? = nil) throws -> String {
        let relative = seed ?? "seed-\(name)"
        try git(["init", "-q", "--bare", "-b", "master", "\(remotes)/\(name).git"])
        let seedPath = path(relative)
        try git(["init", "-q", "-b", "master", seedPath])
        try git(["remote", "add", "origin", "\(remotes)/\(name).git"], in: seedPath)
        try write("\(relative)/README", "\(name)\n")
        try git(["add", "README"], in: seedPath)
        try git(["commit", "-q", "-m", "\(name) 1"], in: seedPath)
        return seedPath
    }

    /// Merges `branch` back into `general` of the bare repository `remote` (`merge --no-ff` in a fresh clone, then
    /// pushed), as a developer who merged a tenant's work into the general branch would. Returns `general`'s tip
    /// before and the merge commit.
    @discardableResult
    public func mergeBack(_ branch: String, into general: String = "general_dev", of remote: String) throws -> (
        before: String, merge: String
    ) {
        let clone = path("merge-back-\(UUID().uuidString.prefix(8))")
        try git(["clone", "-q", "--branch", general, remote, clone])
        let before = try git(["rev-parse", "HEAD"], in: clone)
        try git(["merge", "-q", "--no-ff", "-m", "merge \(branch) back", "origin/\(branch)"], in: clone)
        try git(["push", "-q", "origin", general], in: clone)
        return (before, try git(["rev-parse", "HEAD"], in: clone))
    }

    /// Writes an executable script (a git shim for fault injection, a hook).
    ///
    /// The file is written through a close-on-exec descriptor, so that a git process started by a concurrent test
    /// cannot inherit it open for writing (which makes executing the script fail with ETXTBSY).
    public func writeExecutable(_ relative: String, _ content: String) throws -> String {
        let full = path(relative)
        try FileManager.default.createDirectory(
            atPath: (full as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        let descriptor = open(full, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o755)
        guard descriptor >= 0 else { throw SandboxError(description: "cannot create \(full)") }
        let bytes = Array(content.utf8)
        let written = bytes.withUnsafeBytes { Foundation.write(descriptor, $0.baseAddress, bytes.count) }
        close(descriptor)
        guard written == bytes.count else { throw SandboxError(description: "cannot write \(full)") }
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: full)
        return full
    }

    /// Every ref of a repository with its value (`for-each-ref`), plus HEAD — except tenantctl's own copy of the
    /// remote's branches (`refs/tenantctl/`, a cache of the remote like the module mirrors, filled by every fetch).
    public func refs(_ repository: String) throws -> [String: String] {
        let text = try git(["for-each-ref", "--format=%(refname) %(objectname)"], in: repository)
        var refs: [String: String] = [:]
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: " ")
            if parts.count == 2, !parts[0].hasPrefix("refs/tenantctl/") { refs[String(parts[0])] = String(parts[1]) }
        }
        let head = try gitResult(["symbolic-ref", "-q", "HEAD"], in: repository)
        refs["HEAD"] = head.status == 0 ? head.stdout.trimmingCharacters(in: .newlines) : "detached"
        return refs
    }

    /// Branch → commit of every branch of `repository` (`refs/heads/*`), read with plain git.
    public func branches(_ repository: String) throws -> [String: String] {
        var branches: [String: String] = [:]
        for (ref, id) in try refs(repository) where ref.hasPrefix("refs/heads/") {
            branches[String(ref.dropFirst("refs/heads/".count))] = id
        }
        return branches
    }

    /// Path → commit of every gitlink (mode 160000) on `branch` of `repository`, from plain `ls-tree -r -z`.
    public func gitlinks(on branch: String, in repository: String) throws -> [String: String] {
        var pins: [String: String] = [:]
        for entry in try git(["ls-tree", "-r", "-z", branch], in: repository).split(separator: "\0") {
            let fields = entry.split(separator: "\t", maxSplits: 1)
            let meta = fields[0].split(separator: " ")
            if fields.count == 2, meta.count == 3, meta[0] == "160000" { pins[String(fields[1])] = String(meta[2]) }
        }
        return pins
    }
}
