import Foundation

/// Directories that many tests start from, built once per test process and copied for each test.
///
/// A template is built lazily, by the first test that asks for it, into a directory of its own under the temporary
/// directory (removed when the process exits, kept with `TENANTCTL_KEEP_SANDBOX=1`); tests running in parallel that
/// ask for the same template wait for that one build. Every test then gets its own copy (``copy(_:to:build:)``), so
/// no test sees another test's changes, and no test writes into the template.
///
/// A copy is made copy-safe by ``copyTree(from:to:)``: git records absolute paths (a clone's remote URL, the URL of
/// each submodule, a worktree's `gitdir`, alternates, the reflog's "clone: from …"), and every one of them that names
/// the template is rewritten to name the copy; the index of every checkout is refreshed, since a copied file's inode
/// and change time are new and git would otherwise rewrite each index on its next status.
public final class DirectoryTemplates: @unchecked Sendable {
    /// The templates of this test process.
    public static let shared = DirectoryTemplates()

    /// True with `TENANTCTL_TEMPLATES=0`: every ``copy(_:to:build:)`` builds in its destination instead, as before
    /// there were templates (to measure what they save, or to rule them out when a test fails).
    public static let buildEveryCopy = ProcessInfo.processInfo.environment["TENANTCTL_TEMPLATES"] == "0"

    /// One template: its lock is held while it is built, so that concurrent first users build it once.
    private final class Entry: @unchecked Sendable {
        let lock = NSLock()
        var built: (directory: String, value: any Sendable)?
    }

    private let lock = NSLock()
    private var entries: [String: Entry] = [:]
    private var base: String?

    /// Copies template `key` into `destination` (created when missing; none of the template's top-level entries may
    /// exist there yet) and returns the value its build returned, with the template's directory, so that the caller
    /// can map paths in the value from the template to the copy.
    ///
    /// When this process has not built `key` yet, `build` creates it first, in the empty directory it is given; a
    /// failed build leaves nothing behind and the next test tries again.
    public func copy<Value: Sendable>(
        _ key: String, to destination: String, build: (_ directory: String) throws -> Value
    ) throws -> (value: Value, template: String) {
        if Self.buildEveryCopy {
            let target = URL(fileURLWithPath: destination).standardizedFileURL.path
            try FileManager.default.createDirectory(atPath: target, withIntermediateDirectories: true)
            return (try build(target), target)
        }
        let (directory, value) = try template(key, build: build)
        try Self.copyTree(from: directory, to: destination)
        return (value, directory)
    }

    /// The directory of template `key` (built by `build` when this process has not built it yet) and its value. For
    /// tests that check the template itself; others take a ``copy(_:to:build:)``.
    public func template<Value: Sendable>(_ key: String, build: (_ directory: String) throws -> Value) throws -> (
        directory: String, value: Value
    ) {
        let (entry, root) = try entry(key)
        // Another test may be building it: the wait lends this test's place to another (``TestThreads``).
        if !entry.lock.try() { TestThreads.whileWaiting { entry.lock.lock() } }
        defer { entry.lock.unlock() }
        if let built = entry.built {
            guard let value = built.value as? Value else {
                throw SandboxError(
                    description: "template \(key) was built with a value of type \(type(of: built.value))")
            }
            return (built.directory, value)
        }
        let directory = root + "/" + key
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        do {
            let value = try build(directory)
            entry.built = (directory, value)
            return (directory, value)
        } catch {
            try? FileManager.default.removeItem(atPath: directory)
            throw error
        }
    }

    private func entry(_ key: String) throws -> (Entry, String) {
        lock.lock()
        defer { lock.unlock() }
        let root: String
        if let base {
            root = base
        } else {
            let name = "tenantctl-templates-\(getpid())-\(UUID().uuidString.prefix(8))"
            let url = URL(fileURLWithPath: TestDirectories.base, isDirectory: true).appendingPathComponent(name)
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
            root = try GitSandbox.realPath(url.path)
            base = root
            if ProcessInfo.processInfo.environment["TENANTCTL_KEEP_SANDBOX"] != "1" {
                atexit { DirectoryTemplates.shared.removeAll() }
            }
        }
        if let existing = entries[key] { return (existing, root) }
        let created = Entry()
        entries[key] = created
        return (created, root)
    }

    /// Removes every template of this process (at exit).
    private func removeAll() {
        lock.lock()
        defer { lock.unlock() }
        if let base { try? FileManager.default.removeItem(atPath: base) }
    }

    // MARK: - Copying

    /// Names of the files in which git keeps absolute paths: a repository's `config` (remote and submodule URLs), a
    /// checkout's `.git` file, a linked worktree's `gitdir`, `objects/info/alternates`.
    static let filesNamingPaths: Set<String> = ["config", ".git", "gitdir", "alternates"]

    /// Copies the contents of directory `source` but the top-level entries named in `excluding` into `destination`
    /// (created when missing) with `cp -a`, then makes the copy independent of `source`: every absolute path in git's
    /// files that names `source` names `destination`, and every checkout's index is refreshed. Refuses when an entry
    /// it would copy exists in `destination`.
    public static func copyTree(from source: String, to destination: String, excluding: Set<String> = []) throws {
        let target = URL(fileURLWithPath: destination).standardizedFileURL.path
        try FileManager.default.createDirectory(atPath: target, withIntermediateDirectories: true)
        let existing = Set(try FileManager.default.contentsOfDirectory(atPath: target))
        let entries = try FileManager.default.contentsOfDirectory(atPath: source).filter { !excluding.contains($0) }
            .sorted()
        let clashes = entries.filter { existing.contains($0) }
        guard clashes.isEmpty else {
            throw SandboxError(
                description: "cannot copy \(source) into \(target): \(clashes.joined(separator: ", ")) exists")
        }
        guard !entries.isEmpty else { return }
        let environment = ProcessInfo.processInfo.environment
        let copied = try PlainProcess.run(
            "/bin/cp", ["-a"] + entries.map { source + "/" + $0 } + [target], environment: environment)
        guard copied.status == 0 else {
            throw SandboxError(
                description: "cp -a from \(source) to \(target) failed (\(copied.status)): \(copied.stderr)")
        }
        var checkouts: [String] = []
        try relocate(target, only: entries, from: source, to: target, inLogs: false, checkouts: &checkouts)
        for checkout in checkouts.sorted() { try refreshIndex(of: checkout) }
    }

    /// Rewrites `old` to `new` in the files below `directory` that can hold it (``filesNamingPaths``, and every reflog
    /// below a `logs` directory); collects the directories that hold a `.git` (the checkouts). Skips object stores.
    /// `only`: the entries of `directory` to look at (all when `nil`).
    private static func relocate(
        _ directory: String, only: [String]? = nil, from old: String, to new: String, inLogs: Bool,
        checkouts: inout [String]
    ) throws {
        let files = FileManager.default
        for name in try only ?? files.contentsOfDirectory(atPath: directory) {
            let path = directory + "/" + name
            var isDirectory: ObjCBool = false
            guard files.fileExists(atPath: path, isDirectory: &isDirectory) else { continue }
            if name == ".git" { checkouts.append(directory) }
            if isDirectory.boolValue {
                if name == "objects" || name == "lfs" { continue }
                let attributes = try files.attributesOfItem(atPath: path)
                if attributes[.type] as? FileAttributeType == .typeSymbolicLink { continue }
                try relocate(path, from: old, to: new, inLogs: inLogs || name == "logs", checkouts: &checkouts)
            } else if inLogs || filesNamingPaths.contains(name) {
                try rewrite(path, from: old, to: new)
            }
        }
    }

    /// Replaces every `old` in the file at `path` by `new`; leaves a file without `old` untouched.
    private static func rewrite(_ path: String, from old: String, to new: String) throws {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw SandboxError(description: "cannot read \(path) to point it at the copy")
        }
        let text = String(decoding: data, as: UTF8.self)
        guard text.contains(old), Data(text.utf8) == data else { return }
        try Data(text.replacingOccurrences(of: old, with: new).utf8).write(to: URL(fileURLWithPath: path))
    }

    /// `git update-index --refresh` in `checkout`, with neither the system's nor the user's git configuration.
    private static func refreshIndex(of checkout: String) throws {
        guard FileManager.default.fileExists(atPath: checkout + "/.git") else { return }
        let process = ProcessInfo.processInfo.environment
        let environment = [
            "PATH": process["PATH"] ?? "/usr/local/bin:/usr/bin:/bin", "HOME": checkout,
            "GIT_CONFIG_NOSYSTEM": "1", "GIT_CONFIG_GLOBAL": "/dev/null", "LC_ALL": "C",
        ]
        let refreshed = try PlainProcess.run(
            "/usr/bin/env", ["git", "-C", checkout, "update-index", "-q", "--refresh"], environment: environment)
        // Status 1 means "needs update": a change the template holds on purpose (a modified file); not an error.
        guard refreshed.status == 0 || refreshed.status == 1 else {
            throw SandboxError(
                description:
                    "git update-index --refresh in \(checkout) failed (\(refreshed.status)): \(refreshed.stderr)")
        }
    }
}
