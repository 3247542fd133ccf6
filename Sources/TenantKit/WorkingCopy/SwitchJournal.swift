import Foundation

/// The record of a switch under way: written before the first repository moves, updated as each one starts, and
/// removed when the switch has finished or everything it moved is back.
///
/// A switch stopped half-way (killed, interrupted, disk full) leaves it in the common git directory; the next
/// `tenantctl switch` reads it, checks that each repository holds nothing but the stopped switch's own leftovers,
/// puts them back where they were, and then switches as usual. Every repository the journal names was clean when
/// the switch started (its pre-flight), so putting one back loses nothing.
public struct SwitchJournal: Sendable, Equatable, Codable {
    /// One repository the switch changes.
    public struct Repository: Sendable, Equatable, Codable {
        /// `superproject` or the module name.
        public var repository: String
        /// Path relative to the superproject root ("" for the superproject).
        public var path: String
        /// The branch checked out before (nil: detached HEAD, or not initialised).
        public var branchBefore: String?
        /// HEAD before (nil: the module was not initialised).
        public var headBefore: String?
        /// The branch the switch puts it on.
        public var branch: String
        /// The tip `branch` had before (nil: the switch creates it).
        public var branchTipBefore: String?
        /// The commit it ends on.
        public var target: String
        /// The module is cloned by the switch (put back: deinitialised again).
        public var initialises: Bool
        /// The switch has started changing it.
        public var started: Bool
        /// The path the switch moves the module's checkout from to `path` (nil: not moved).
        public var movedFrom: String? = nil
    }

    /// Journal format version.
    public var schemaVersion = 1
    /// What was switched to (the tenant id or the general branch).
    public var target: String
    /// The repositories that change, in the order they are changed.
    public var repositories: [Repository]

    /// Where the journal lives: `<common git directory>/tenantctl/switch-journal.json`.
    public static func path(_ workspace: Workspace) -> String {
        (workspace.commonDirectory as NSString).appendingPathComponent("tenantctl/switch-journal.json")
    }

    /// The journal of an unfinished switch, nil when there is none.
    public static func read(_ workspace: Workspace) throws -> SwitchJournal? {
        let file = path(workspace)
        guard FileManager.default.fileExists(atPath: file) else { return nil }
        do {
            return try JSONDecoder().decode(SwitchJournal.self, from: Data(contentsOf: URL(fileURLWithPath: file)))
        } catch {
            throw WorkspaceError(
                "cannot read the journal of an unfinished switch, \(file): \(error); if no switch is running, "
                    + "check each repository with git status, then delete the file")
        }
    }

    /// Writes the journal through ``DurableFile``: a temporary file, fsynced, renamed over the old journal; a full
    /// disk leaves the old journal, or none, and no temporary file.
    public func write(_ workspace: Workspace) throws {
        let file = Self.path(workspace)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
        let data: Data
        do {
            data = try encoder.encode(self)
        } catch {
            throw WorkspaceError("cannot write the switch journal \(file): \(error)")
        }
        do {
            try DurableFile.write(data, to: file)
        } catch {
            throw WorkspaceError("cannot write the switch journal \(file): \(error.reason)")
        }
    }

    /// Removes the journal: the switch finished, or everything it moved is back.
    public static func remove(_ workspace: Workspace) throws {
        let file = path(workspace)
        guard FileManager.default.fileExists(atPath: file) else { return }
        do {
            try FileManager.default.removeItem(atPath: file)
        } catch {
            throw WorkspaceError("cannot remove the switch journal \(file): \(Self.reason(error))")
        }
    }

    /// A file-system error in a few words (`No space left on device`), not Foundation's whole dump.
    static func reason(_ error: Error) -> String { DurableFile.reason(error) }

    /// The repositories the switch started changing, by name.
    public var moved: [String] { repositories.filter(\.started).map(\.repository) }
}

/// A switch that stopped part-way and could not put everything back: what was left and how to finish.
public struct SwitchStoppedError: Error, Sendable, CustomStringConvertible {
    /// What failed first.
    public var cause: String
    /// Repositories put back.
    public var putBack: [String]
    /// Repositories still changed (the journal names them).
    public var left: [String]
    /// What went wrong while putting them back.
    public var rollbackFailure: String?
    /// The command that finishes the job.
    public var rerun: String

    public var description: String {
        var text = "switch stopped: \(cause)"
        if left.isEmpty {
            text += "\nevery repository it had changed is back where it was"
            if !putBack.isEmpty { text += " (\(putBack.joined(separator: ", ")))" }
            text += "; nothing else was changed"
        } else {
            text += "\nleft changed: \(left.joined(separator: ", "))"
            if let rollbackFailure { text += "\nputting them back failed: \(rollbackFailure)" }
            text += "\nto finish, fix the cause (e.g. free disk space) and run: \(rerun)"
            text += " (it first puts back what this run changed)"
        }
        return text
    }
}
