import Foundation

/// `git status --porcelain=v2 --branch -z`, parsed.
public struct PorcelainStatus: Sendable, Equatable {
    /// How a path differs.
    public enum EntryKind: Sendable, Equatable {
        /// `1`: changed (modified, added, deleted, type change).
        case changed
        /// `2`: renamed or copied.
        case renamed
        /// `u`: unmerged (conflicted).
        case unmerged
        /// `?`: untracked.
        case untracked
        /// `!`: ignored.
        case ignored
    }

    /// The submodule field (`N...` or `S<c><m><u>`) of a changed entry.
    public struct SubmoduleState: Sendable, Equatable {
        /// The recorded commit differs from the submodule's HEAD (`C`).
        public var commitChanged: Bool
        /// The submodule has tracked changes (`M`).
        public var modified: Bool
        /// The submodule has untracked files (`U`).
        public var untracked: Bool
    }

    /// One path that differs from HEAD.
    public struct Entry: Sendable, Equatable {
        /// Kind of entry.
        public var kind: EntryKind
        /// Index status (`X`, `.` when unchanged); `?` / `!` for untracked and ignored.
        public var indexStatus: Character
        /// Working tree status (`Y`, `.` when unchanged).
        public var worktreeStatus: Character
        /// Submodule state; nil when the path is not a submodule.
        public var submodule: SubmoduleState?
        /// Path relative to the repository root.
        public var path: String
        /// Original path of a rename or copy.
        public var originalPath: String?

        public init(
            kind: EntryKind, indexStatus: Character, worktreeStatus: Character, submodule: SubmoduleState? = nil,
            path: String, originalPath: String? = nil
        ) {
            self.kind = kind
            self.indexStatus = indexStatus
            self.worktreeStatus = worktreeStatus
            self.submodule = submodule
            self.path = path
            self.originalPath = originalPath
        }
    }

    /// `branch.oid`; nil on an unborn branch (`(initial)`).
    public var oid: String?
    /// `branch.head`; nil on a detached HEAD.
    public var head: String?
    /// `branch.upstream`, when set.
    public var upstream: String?
    /// Commits ahead of the upstream (`branch.ab`), when the upstream exists.
    public var ahead: Int?
    /// Commits behind the upstream (`branch.ab`), when the upstream exists.
    public var behind: Int?
    /// Every changed, unmerged, untracked or ignored path, in git's order.
    public var entries: [Entry]

    public init(
        oid: String? = nil, head: String? = nil, upstream: String? = nil, ahead: Int? = nil, behind: Int? = nil,
        entries: [Entry] = []
    ) {
        self.oid = oid
        self.head = head
        self.upstream = upstream
        self.ahead = ahead
        self.behind = behind
        self.entries = entries
    }

    /// Whether HEAD is detached.
    public var isDetached: Bool { head == nil }

    /// Entries that make a working copy unsafe to switch: tracked changes (staged or not) and conflicts.
    /// Untracked and ignored files are not among them. Submodules whose only difference is that their checkout
    /// is at another commit (or has untracked files) are not either; their own content is inspected separately.
    public var blockingEntries: [Entry] {
        entries.filter { entry in
            switch entry.kind {
            case .untracked, .ignored: return false
            case .unmerged, .renamed: return true
            case .changed:
                if entry.indexStatus != "." { return true }
                guard let submodule = entry.submodule else { return entry.worktreeStatus != "." }
                return submodule.modified
            }
        }
    }

    /// Parses the output of `git status --porcelain=v2 --branch -z`; nil when it is not in that format.
    public static func parse(_ data: Data) -> PorcelainStatus? {
        var fields = data.split(separator: 0, omittingEmptySubsequences: false).map {
            String(decoding: $0, as: UTF8.self)
        }
        if fields.last == "" { fields.removeLast() }
        var status = PorcelainStatus()
        var index = 0
        while index < fields.count {
            let field = fields[index]
            index += 1
            if field.hasPrefix("# ") {
                guard parseHeader(field.dropFirst(2), into: &status) else { return nil }
                continue
            }
            guard let type = field.first else { return nil }
            switch type {
            case "?", "!":
                guard field.count > 2 else { return nil }
                let path = String(field.dropFirst(2))
                status.entries.append(
                    Entry(
                        kind: type == "?" ? .untracked : .ignored, indexStatus: type, worktreeStatus: type, path: path))
            case "1", "2", "u":
                // Fixed fields before the path: 1 → 8, 2 → 9, u → 10 (each followed by one space).
                let fixed = type == "1" ? 8 : type == "2" ? 9 : 10
                let parts = field.split(separator: " ", maxSplits: fixed, omittingEmptySubsequences: false)
                guard parts.count == fixed + 1 else { return nil }
                let xy = Array(parts[1])
                guard xy.count == 2, let submodule = parseSubmodule(parts[2]) else { return nil }
                var entry = Entry(
                    kind: type == "1" ? .changed : type == "2" ? .renamed : .unmerged, indexStatus: xy[0],
                    worktreeStatus: xy[1], submodule: submodule.state, path: String(parts[fixed]))
                if type == "2" {
                    guard index < fields.count else { return nil }
                    entry.originalPath = fields[index]
                    index += 1
                }
                status.entries.append(entry)
            default:
                return nil
            }
        }
        return status
    }

    private static func parseHeader(_ header: Substring, into status: inout PorcelainStatus) -> Bool {
        let parts = header.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2 else { return true }  // unknown headers are ignored, as git documents
        let value = String(parts[1])
        switch parts[0] {
        case "branch.oid": status.oid = value == "(initial)" ? nil : value
        case "branch.head": status.head = value == "(detached)" ? nil : value
        case "branch.upstream": status.upstream = value
        case "branch.ab":
            let numbers = value.split(separator: " ")
            guard numbers.count == 2, numbers[0].hasPrefix("+"), numbers[1].hasPrefix("-"),
                let ahead = Int(numbers[0].dropFirst()), let behind = Int(numbers[1].dropFirst())
            else { return false }
            status.ahead = ahead
            status.behind = behind
        default: break
        }
        return true
    }

    private static func parseSubmodule(_ field: Substring) -> (state: SubmoduleState?, valid: Void)? {
        let characters = Array(field)
        guard characters.count == 4 else { return nil }
        if characters[0] == "N" { return (nil, ()) }
        guard characters[0] == "S" else { return nil }
        return (
            SubmoduleState(
                commitChanged: characters[1] == "C", modified: characters[2] == "M", untracked: characters[3] == "U"),
            ()
        )
    }
}
