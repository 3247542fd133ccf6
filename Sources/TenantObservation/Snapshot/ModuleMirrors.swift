import Foundation

/// A module repository to mirror: its name and its remote URL, already resolved and validated.
public struct MirrorSpec: Sendable, Equatable {
    /// Module name (also the mirror's directory name).
    public var name: String
    /// The module remote (absolute URL or path).
    public var url: String

    public init(name: String, url: String) {
        self.name = name
        self.url = url
    }
}

/// One or more modules could not be fetched.
public struct MirrorError: Error, Sendable, CustomStringConvertible {
    /// Module name → what went wrong.
    public var failures: [(module: String, error: String)]

    public var description: String {
        (["cannot fetch \(failures.count) module repositor\(failures.count == 1 ? "y" : "ies"):"]
            + failures.map { "- \($0.module): " + $0.error.replacingOccurrences(of: "\n", with: "\n  ") })
            .joined(separator: "\n")
    }
}

/// Private bare mirrors of the module repositories, under `<superproject git dir>/tenantctl/mirrors/<Module>.git`.
///
/// Repository-wide operations (roll, audit, verify) read and write module objects here, so they never disturb the
/// user's submodule checkouts and work in a plain clone whose submodules were never initialised. After ``sync``,
/// a mirror's `refs/heads/*` and `refs/tags/*` equal the module remote's branches and tags (it is a cache of the
/// remote: fetched with `--prune`, `+refs/heads/*:refs/heads/*` and `+refs/tags/*:refs/tags/*`; tags because a pin
/// may be an annotated tag or a commit only a tag reaches). New commits are written into the mirror's object store and
/// pushed from there; its refs are only ever set from the remote.
public struct ModuleMirrors: Sendable {
    /// The directory holding the mirrors.
    public let directory: String
    /// The superproject, whose runner every mirror runs with.
    private let superproject: GitRepository

    public init(workspace: Workspace) {
        self.directory = (workspace.commonDirectory as NSString).appendingPathComponent("tenantctl/mirrors")
        self.superproject = workspace.superproject
    }

    /// The mirror's git directory for a module.
    public func path(for module: String) -> String {
        (directory as NSString).appendingPathComponent(module + ".git")
    }

    /// Creates missing mirrors and fetches every module, `jobs` at a time. Returns module name → mirror path.
    /// Every module is attempted; all failures are reported together.
    @discardableResult
    public func sync(_ specs: [MirrorSpec], jobs: Int = 4, console: Console? = nil) throws -> [String: String] {
        let result = syncEach(specs, jobs: jobs, console: console)
        guard result.failures.isEmpty else { throw MirrorError(failures: result.failures) }
        return result.mirrors
    }

    /// Like ``sync(_:jobs:console:)``, but one module that cannot be fetched does not stop the others: returns the
    /// mirrors that were fetched and, in spec order, every module that was not with git's error.
    public func syncEach(_ specs: [MirrorSpec], jobs: Int = 4, console: Console? = nil) -> (
        mirrors: [String: String], failures: [(module: String, error: String)]
    ) {
        let outcomes = Concurrent.outcomes(specs, jobs: max(1, jobs)) { [self] spec in try fetch(spec) }
        var failures: [(module: String, error: String)] = []
        var mirrors: [String: String] = [:]
        for (spec, outcome) in zip(specs, outcomes) {
            if case .failure(let error) = outcome {
                failures.append((spec.name, String(describing: error)))
            } else {
                mirrors[spec.name] = path(for: spec.name)
            }
        }
        console?.debug("fetched \(mirrors.count) of \(specs.count) module repositories")
        return (mirrors, failures)
    }

    /// The mirrors as they are (for `--no-fetch`); an error names every module that was never fetched.
    public func existing(_ specs: [MirrorSpec]) throws -> [String: String] {
        let result = existingEach(specs)
        guard result.failures.isEmpty else { throw MirrorError(failures: result.failures) }
        return result.mirrors
    }

    /// The mirrors as they are, and every module that was never fetched.
    public func existingEach(_ specs: [MirrorSpec]) -> (
        mirrors: [String: String], failures: [(module: String, error: String)]
    ) {
        var mirrors: [String: String] = [:]
        var failures: [(module: String, error: String)] = []
        for spec in specs {
            if FileManager.default.fileExists(atPath: path(for: spec.name) + "/HEAD") {
                mirrors[spec.name] = path(for: spec.name)
            } else {
                failures.append((spec.name, "never fetched; run once without --no-fetch"))
            }
        }
        return (mirrors, failures)
    }

    /// Removes the mirror directories a killed run left half-made (`<Module>.git.partial-<id>`: a mirror is cloned
    /// under that name and renamed when fetched). Only for a run that finishes a stopped one, under the workspace
    /// lock. Throws naming the directory that cannot be removed.
    public func removePartialClones() throws {
        let manager = FileManager.default
        guard manager.fileExists(atPath: directory) else { return }
        let names: [String]
        do {
            names = try manager.contentsOfDirectory(atPath: directory)
        } catch {
            throw WorkspaceError("cannot list the module mirrors in \(directory): \(error.localizedDescription)")
        }
        for name in names.sorted() where name.contains(".git.partial-") {
            let path = (directory as NSString).appendingPathComponent(name)
            do {
                try manager.removeItem(atPath: path)
            } catch {
                throw WorkspaceError(
                    "cannot remove the half-made mirror \(path) a stopped run left: \(error.localizedDescription); "
                        + "remove it by hand (rm -rf \(ShellWord.quote(path))) and run the command again")
            }
        }
    }

    private func fetch(_ spec: MirrorSpec) throws {
        let mirror = path(for: spec.name)
        let context = "fetch module \(spec.name) from \(Redaction.redact(spec.url))"
        if !FileManager.default.fileExists(atPath: mirror + "/HEAD") {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            // Made under a name of its own and renamed when fetched, so a half-made mirror never passes for a fetched
            // one (also when a time limit had to SIGKILL git). Not `git clone`: it would store the URL, and with it a
            // password the URL carries, in the mirror's config; the URL is given to every fetch instead. Objects
            // written by roll are only reachable from refs after a push; gc.pruneExpire keeps git from pruning them.
            let partial = mirror + ".partial-" + UUID().uuidString.prefix(8).lowercased()
            do {
                try superproject.initBare(at: partial, context: "create the mirror of \(spec.name)")
                    .setConfig("gc.pruneExpire", to: "2.weeks.ago", context: "configure the mirror of \(spec.name)")
                try fetchAll(spec, into: partial, context: context)
                try FileManager.default.moveItem(atPath: partial, toPath: mirror)
            } catch {
                try? FileManager.default.removeItem(atPath: partial)
                throw error
            }
            return
        }
        // A mirror made by an older tenantctl with `git clone` has the URL in its config: remove it (with any
        // password in it); fetches name the URL themselves.
        if let config = try? String(contentsOfFile: mirror + "/config", encoding: .utf8),
            config.contains("[remote \"origin\"]")
        {
            try superproject.repository(at: mirror).removeConfigSection(
                "remote.origin", context: "remove the stored URL of the mirror of \(spec.name)")
        }
        try fetchAll(spec, into: mirror, context: context)
    }

    private func fetchAll(_ spec: MirrorSpec, into mirror: String, context: String) throws {
        try superproject.repository(at: mirror).fetchMirror(from: spec.url, context: context)
    }
}
