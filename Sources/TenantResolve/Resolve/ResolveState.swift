import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Why `tenantctl resolve` refused or failed; the text names what and the next step.
public struct ResolveError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What kind of refusal.
    public enum Kind: Sendable, Equatable {
        /// The tenant is not in `Tenants/`, or an `--accept-merged-back` name is no module (a usage error, exit 64).
        case unknownTenant
        /// A resolution is already under way (`resolve <t>` a second time).
        case inProgress
        /// No resolution is under way (`--continue`, `--abort`).
        case notInProgress
        /// Conflicts, markers or unstaged changes remain (`--continue`).
        case unresolved
        /// A remote moved since the resolution started: nothing of the tenant was published.
        case remoteMoved
        /// Anything else that stops the command before it changes something.
        case refused
    }

    /// The kind.
    public var kind: Kind
    /// The message.
    public var description: String

    public init(_ kind: Kind, _ description: String) {
        self.kind = kind
        self.description = description
    }
}

/// The state of an unfinished `tenantctl resolve`, kept in `<common git dir>/tenantctl/resolve.json` (beside the lock,
/// the journal and the mirrors), so a crash, a kill or a new shell can go on (`--continue`) or go back (`--abort`).
/// Written before anything changes and rewritten after every step (temporary file, fsync, rename).
public struct ResolveState: Sendable, Equatable, Codable {
    /// How far the resolution got.
    public enum Phase: String, Sendable, Codable, Equatable {
        /// `resolve <t>` recorded the start points and is switching and merging (a kill here: `--abort`).
        case starting
        /// The merges are started; the user resolves, stages and runs `--continue`.
        case resolving
        /// `--continue` committed every merge and the superproject; publishing is next.
        case committed
        /// `--continue` is publishing (the journal `runId` records what landed).
        case publishing
    }

    /// Where one repository stood before the resolution started: what `--abort` restores.
    public struct StartPoint: Sendable, Equatable, Codable {
        /// `superproject` or the module name.
        public var repository: String
        /// Path relative to the superproject root ("" for the superproject).
        public var path: String
        /// Whether the module was a repository of its own (false: not initialised; left as the switch set it up).
        public var initialised: Bool
        /// The checked-out branch (nil: detached).
        public var headBranch: String?
        /// The HEAD commit.
        public var head: String?
        /// Every local branch → commit.
        public var branches: [String: String]
        /// The branch the resolution checks out here (the only branch it may create; nil: a state written before
        /// this was recorded).
        public var resolutionBranch: String?

        public init(
            repository: String, path: String, initialised: Bool, headBranch: String?, head: String?,
            branches: [String: String], resolutionBranch: String? = nil
        ) {
            self.repository = repository
            self.path = path
            self.initialised = initialised
            self.headBranch = headBranch
            self.head = head
            self.branches = branches
            self.resolutionBranch = resolutionBranch
        }

        /// The repository's branch and HEAD, as a run journal records them before the first change.
        public var before: RunJournal.Before {
            RunJournal.Before(repository: repository, branch: headBranch, head: head)
        }
    }

    /// One repository's merge of its general branch into the tenant branch.
    public struct Merge: Sendable, Equatable, Codable {
        /// `superproject` or the module name.
        public var repository: String
        /// Path relative to the superproject root ("" for the superproject).
        public var path: String
        /// The branch merged into (the tenant's branch).
        public var branch: String
        /// The general branch merged.
        public var generalBranch: String
        /// The tenant branch's tip on the remote when the resolution started (first parent; the push's lease).
        public var ours: String
        /// The general branch's tip merged (second parent); nil: the superproject only re-pins (no merge).
        public var theirs: String?
        /// The commit message (as roll's).
        public var message: String
        /// Paths that conflicted when the merge started (checked for conflict markers by `--continue`).
        public var conflicts: [String]
        /// The resulting commit, once made.
        public var commit: String?
        /// The remote the branch is published to: the module's URL, or the superproject's remote name.
        public var remote: String

        public init(
            repository: String, path: String, branch: String, generalBranch: String, ours: String, theirs: String?,
            message: String, conflicts: [String] = [], commit: String? = nil, remote: String
        ) {
            self.repository = repository
            self.path = path
            self.branch = branch
            self.generalBranch = generalBranch
            self.ours = ours
            self.theirs = theirs
            self.message = message
            self.conflicts = conflicts
            self.commit = commit
            self.remote = remote
        }

        /// Whether this is the superproject's merge.
        public var isSuperproject: Bool { repository == ResolveState.superproject }
    }

    /// One module's pin on the tenant branch after the resolution (roll's pin rule).
    public struct Pin: Sendable, Equatable, Codable {
        /// Module name.
        public var module: String
        /// Gitlink path.
        public var path: String
        /// The pin before.
        public var old: String?
        /// The pin, when known from the start (the module's general tip, or its tenant branch's tip when the module
        /// needs no merge); nil: the tip of the module's merge (known once it is committed).
        public var commit: String?

        public init(module: String, path: String, old: String?, commit: String?) {
            self.module = module
            self.path = path
            self.old = old
            self.commit = commit
        }
    }

    /// The repository name of the superproject.
    public static let superproject = RollPublication.superproject

    /// Format version.
    public var schemaVersion = 1
    /// The tenant id.
    public var tenant: String
    /// The tenant's superproject branch.
    public var branch: String
    /// The superproject's general branch.
    public var generalBranch: String
    /// ISO 8601 time the resolution started.
    public var startedAt: String
    /// How far it got.
    public var phase: Phase
    /// Every repository's start point, the superproject first.
    public var startPoints: [StartPoint]
    /// The module merges in manifest order.
    public var modules: [Merge]
    /// The superproject's merge (or re-pin commit).
    public var superproject: Merge
    /// Every module's pin by the rule, in manifest order.
    public var pins: [Pin]
    /// Gitlinks removed from the tenant branch (modules removed or moved on the general branch).
    public var removedPaths: [String]
    /// The run journal of the `resolve --continue` that publishes (its entries say what landed; `--abort` and
    /// `roll --undo <runId>` take it back), once publishing started.
    public var runId: String?
    /// The root of the superproject worktree where the resolution started (nil: a state written before worktrees
    /// were recorded).
    public var worktree: String?
    /// That worktree's own git directory (`--absolute-git-dir`): only there may `--continue` and `--abort` run.
    public var gitDirectory: String?
    /// What the resolution left in each repository's index and files, by relative path ("" for the superproject):
    /// every path not as HEAD has it, with its index entry and file. `--abort` keeps whatever differs from it (the
    /// user's changes); nil: the start stopped before it was recorded (or a state written before it was).
    public var left: [String: [String: String]]?

    public init(
        tenant: String, branch: String, generalBranch: String, startedAt: String, phase: Phase,
        startPoints: [StartPoint], modules: [Merge], superproject: Merge, pins: [Pin], removedPaths: [String]
    ) {
        self.tenant = tenant
        self.branch = branch
        self.generalBranch = generalBranch
        self.startedAt = startedAt
        self.phase = phase
        self.startPoints = startPoints
        self.modules = modules
        self.superproject = superproject
        self.pins = pins
        self.removedPaths = removedPaths
    }

    /// `<common git dir>/tenantctl/resolve.json`.
    public static func path(commonDirectory: String) -> String {
        (commonDirectory as NSString).appendingPathComponent("tenantctl/resolve.json")
    }

    /// Reads the state; nil when no resolution is under way.
    public static func read(commonDirectory: String) throws -> ResolveState? {
        let path = Self.path(commonDirectory: commonDirectory)
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ResolveError(.refused, "cannot read the resolve state \(path)")
        }
        do {
            return try JSONDecoder().decode(ResolveState.self, from: data)
        } catch {
            throw ResolveError(
                .refused, "cannot read the resolve state \(path): \(error); move it away to start over")
        }
    }

    /// The resolution `--continue` and `--abort` (`action`) go on with: the state of `workspace`'s superproject,
    /// refused when none is under way or when it was started in another worktree (``requireStartedHere(_:action:)``).
    public static func inProgress(in workspace: Workspace, action: String) throws -> ResolveState {
        guard let state = try read(commonDirectory: workspace.commonDirectory) else {
            throw ResolveError(
                .notInProgress, "no resolution is in progress; start one with `tenantctl resolve <tenant>`")
        }
        try state.requireStartedHere(workspace, action: action)
        return state
    }

    /// Writes the state: temporary file, fsync, rename (a failure leaves the previous state and no temporary file).
    public func write(commonDirectory: String) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let data = try encoder.encode(self)
        do {
            try DurableFile.write(data, to: Self.path(commonDirectory: commonDirectory))
        } catch {
            throw ResolveError(.refused, "cannot write the resolve state: \(error.description)")
        }
    }

    /// Removes the state (the resolution is finished or aborted).
    public static func remove(commonDirectory: String) throws {
        let path = Self.path(commonDirectory: commonDirectory)
        guard FileManager.default.fileExists(atPath: path) else { return }
        try FileManager.default.removeItem(atPath: path)
    }

    /// Every merge: the modules, then the superproject.
    public var merges: [Merge] { modules + [superproject] }

    /// The error for a second `resolve <t>` while this one is unfinished.
    public func inProgressError(in workspace: Workspace) -> ResolveError {
        let elsewhere = startedElsewhere(than: workspace)
        let command = elsewhere ? "tenantctl -C \(Self.shellWord(worktree ?? "")) resolve" : "tenantctl resolve"
        return ResolveError(
            .inProgress,
            "a resolution of \(tenant) is in progress (started \(startedAt)"
                + (elsewhere ? " in the worktree \(worktree ?? "")" : "") + "); finish it with `\(command) "
                + "--continue` or undo it with `\(command) --abort`")
    }

    /// Whether the resolution was started in another worktree of the superproject than `workspace`.
    public func startedElsewhere(than workspace: Workspace) -> Bool {
        guard let gitDirectory else { return false }
        return Self.canonical(gitDirectory) != Self.canonical(workspace.gitDirectory)
    }

    /// Refuses `--continue` and `--abort` (`action`) outside the worktree where the resolution started: its start
    /// points, merges and checkouts are that worktree's, and applying them here would overwrite this one.
    public func requireStartedHere(_ workspace: Workspace, action: String) throws {
        guard startedElsewhere(than: workspace), let gitDirectory else { return }
        let origin = worktree ?? gitDirectory
        guard FileManager.default.fileExists(atPath: gitDirectory) else {
            throw ResolveError(
                .refused,
                "cannot \(action) the resolution of \(tenant) here: it was started in the worktree \(origin), which no "
                    + "longer exists; nothing was changed; to forget the resolution, remove its state: rm "
                    + Self.shellWord(Self.path(commonDirectory: workspace.commonDirectory)))
        }
        throw ResolveError(
            .refused,
            "cannot \(action) the resolution of \(tenant) here (\(workspace.root)): it was started in the worktree "
                + "\(origin); nothing was changed; run it there: tenantctl -C \(Self.shellWord(origin)) resolve "
                + "--\(action)")
    }

    /// A path with symbolic links resolved, for comparing two spellings of one directory.
    static func canonical(_ path: String) -> String {
        URL(fileURLWithPath: path).resolvingSymlinksInPath().standardizedFileURL.path
    }

    /// `word` as one shell word: unchanged when it is made of safe characters only, else in single quotes.
    static func shellWord(_ word: String) -> String {
        let safe = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789/._-+=:,@%")
        if !word.isEmpty && word.allSatisfy({ safe.contains($0) }) { return word }
        return "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
