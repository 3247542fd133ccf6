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
/// a mirror's `refs/heads/*` equal the module remote's branches (it is a cache of the remote: fetched with
/// `--prune` and `+refs/heads/*:refs/heads/*`). New commits are written into the mirror's object store and
/// pushed from there; its refs are only ever set from the remote.
public struct ModuleMirrors: Sendable {
    /// The directory holding the mirrors.
    public let directory: String
    private let git: Git

    public init(workspace: Workspace, git: Git) {
        self.directory = (workspace.gitDirectory as NSString).appendingPathComponent("tenantctl/mirrors")
        self.git = git
    }

    /// The mirror's git directory for a module.
    public func path(for module: String) -> String {
        (directory as NSString).appendingPathComponent(module + ".git")
    }

    /// Creates missing mirrors and fetches every module, `jobs` at a time. Returns module name → mirror path.
    /// Every module is attempted; all failures are reported together.
    @discardableResult
    public func sync(_ specs: [MirrorSpec], jobs: Int = 4, console: Console? = nil) throws -> [String: String] {
        let outcomes = Concurrent.outcomes(specs, jobs: max(1, jobs)) { [self] spec in try fetch(spec) }
        var failures: [(module: String, error: String)] = []
        for (spec, outcome) in zip(specs, outcomes) {
            if case .failure(let error) = outcome { failures.append((spec.name, String(describing: error))) }
        }
        guard failures.isEmpty else { throw MirrorError(failures: failures) }
        console?.debug("fetched \(specs.count) module repositories")
        return Dictionary(uniqueKeysWithValues: specs.map { ($0.name, path(for: $0.name)) })
    }

    /// The mirrors as they are (for `--no-fetch`); an error names every module that was never fetched.
    public func existing(_ specs: [MirrorSpec]) throws -> [String: String] {
        let missing = specs.filter { !FileManager.default.fileExists(atPath: path(for: $0.name) + "/HEAD") }
        guard missing.isEmpty else {
            throw MirrorError(
                failures: missing.map {
                    ($0.name, "never fetched; run once without --no-fetch")
                })
        }
        return Dictionary(uniqueKeysWithValues: specs.map { ($0.name, path(for: $0.name)) })
    }

    private func fetch(_ spec: MirrorSpec) throws {
        let mirror = path(for: spec.name)
        let context = "fetch module \(spec.name) from \(Redaction.redact(spec.url))"
        if !FileManager.default.fileExists(atPath: mirror + "/HEAD") {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            // One process creates and fills the mirror. Objects written by roll are only reachable from refs after
            // a push; gc.pruneExpire keeps git from pruning them early.
            try git.run(
                [
                    "clone", "--bare", "--quiet", "--no-tags", "--config", "gc.pruneExpire=2.weeks.ago", "--", spec.url,
                    mirror,
                ], in: nil, context: context)
            return
        }
        try git.run(
            [
                "fetch", "--quiet", "--prune", "--no-tags", "--no-write-fetch-head", "--", spec.url,
                "+refs/heads/*:refs/heads/*",
            ],
            in: mirror, context: context)
    }
}
