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

/// A resolution under way, as its resolve runs record it in their journals (``RunJournal/Resolution``): the journal is
/// the only record of what it changed. `<common git dir>/tenantctl/resolve.json` only says, for the user and for
/// status, which tenant is being resolved, which files conflicted, and which run's journal holds the resolution now.
public typealias ResolveState = RunJournal.Resolution

/// `<common git dir>/tenantctl/resolve.json`: which resolution is under way (its tenant, the files that conflicted when
/// it started) and the run whose journal holds it as it now stands. It carries nothing a recovery needs: a killed
/// resolve is found from its unfinished run's journal also when this file is gone or damaged.
struct ResolvePointer: Sendable, Equatable, Codable {
    /// Format version (1 was the whole resolution, which still reads).
    var schemaVersion = 2
    /// The tenant id.
    var tenant: String
    /// The tenant's superproject branch.
    var branch: String
    /// ISO 8601 time the resolution started.
    var startedAt: String
    /// The worktree where it started.
    var worktree: String?
    /// The resolve run whose journal holds the resolution as it now stands.
    var run: String
    /// The files that conflicted when it started, by repository.
    var conflicts: [String: [String]]

    init(_ state: ResolveState, run: String) {
        tenant = state.tenant
        branch = state.branch
        startedAt = state.startedAt
        worktree = state.worktree
        self.run = run
        conflicts = Dictionary(
            state.merges.filter { !$0.conflicts.isEmpty }.map { ($0.repository, $0.conflicts) },
            uniquingKeysWith: { first, _ in first })
    }
}

extension RunJournal.Resolution {
    /// `<common git dir>/tenantctl/resolve.json`.
    public static func path(commonDirectory: String) -> String {
        (commonDirectory as NSString).appendingPathComponent("tenantctl/resolve.json")
    }

    /// The resolution under way; nil when there is none.
    public static func read(commonDirectory: String) throws -> ResolveState? {
        try underWay(commonDirectory: commonDirectory)?.state
    }

    /// The resolution under way and the run whose journal holds it: the newest of the unfinished resolve runs that
    /// recorded one (killed or stopped) and the run `resolve.json` names (a start or continuation that ended, its
    /// resolution still open). A damaged `resolve.json` is passed over when an unfinished run holds the resolution.
    static func underWay(commonDirectory: String) throws -> (state: ResolveState, run: String?)? {
        var found: (state: ResolveState, run: String?)?
        let unfinished: [RunJournal]
        do {
            unfinished = try RunJournal.unfinished(gitDirectory: commonDirectory)
        } catch {
            // A journal that cannot be read is reported where the journals are read as a whole: status warns naming
            // it, and every writing command (resolve too) refuses before it begins. Here the resolution is then
            // the one resolve.json names.
            unfinished = []
        }
        for run in unfinished where run.commandName == "resolve" {
            if let resolution = run.resolution { found = (resolution, run.runId) }
        }
        let path = Self.path(commonDirectory: commonDirectory)
        guard FileManager.default.fileExists(atPath: path) else { return found }
        let named: (state: ResolveState, run: String?)
        do {
            named = try readFile(path, commonDirectory: commonDirectory)
        } catch {
            if found != nil { return found }
            throw error
        }
        if let found, let run = found.run, named.run.map({ $0 < run }) ?? true { return found }
        return named
    }

    /// The resolution `resolve.json` names, read from that run's journal (a file of the earlier format holds it
    /// whole).
    private static func readFile(_ path: String, commonDirectory: String) throws -> (state: ResolveState, run: String?)
    {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ResolveError(.refused, "cannot read the resolve state \(path)")
        }
        let pointer: ResolvePointer
        do {
            pointer = try JSONDecoder().decode(ResolvePointer.self, from: data)
        } catch {
            if let whole = try? JSONDecoder().decode(ResolveState.self, from: data) { return (whole, nil) }
            throw ResolveError(
                .refused, "cannot read the resolve state \(path): \(error); move it away to start over")
        }
        let journal = RunJournal.path(gitDirectory: commonDirectory, runId: pointer.run)
        let run: RunJournal
        do {
            run = try RunJournal.read(gitDirectory: commonDirectory, runId: pointer.run)
        } catch {
            throw ResolveError(
                .refused,
                "cannot read the resolution of \(pointer.tenant) from the journal \(journal) that \(path) names: "
                    + "\(error); move \(path) away to start over")
        }
        guard let resolution = run.resolution else {
            throw ResolveError(
                .refused,
                "the journal \(journal) that \(path) names holds no resolution of \(pointer.tenant); move \(path) away "
                    + "to start over")
        }
        return (resolution, pointer.run)
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

    /// Records the resolution as it now stands in the journal of `transaction` (one line appended), and names that
    /// run in `resolve.json` (rewritten only when what it says changes).
    public func record(in transaction: Transaction, commonDirectory: String) throws {
        try transaction.recordResolution(self)
        let pointer = ResolvePointer(self, run: transaction.runId)
        let path = Self.path(commonDirectory: commonDirectory)
        if let data = FileManager.default.contents(atPath: path),
            (try? JSONDecoder().decode(ResolvePointer.self, from: data)) == pointer
        {
            return
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        do {
            try DurableFile.write(try encoder.encode(pointer), to: path)
        } catch {
            throw ResolveError(.refused, "cannot write the resolve state \(path): \(error)")
        }
    }

    /// Removes `resolve.json` (the resolution is finished or aborted; its runs' journals say so).
    public static func remove(commonDirectory: String) throws {
        let path = Self.path(commonDirectory: commonDirectory)
        guard FileManager.default.fileExists(atPath: path) else { return }
        try FileManager.default.removeItem(atPath: path)
    }

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
