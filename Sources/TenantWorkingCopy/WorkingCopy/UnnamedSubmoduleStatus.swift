import Foundation

extension StatusReport {
    /// A submodule the superproject's HEAD pins that `modules.json` does not name (a repository renamed since, or
    /// added with plain git): switch checks it out at its pin, detached, as `git submodule update --init` would;
    /// status shows where it stands.
    public struct UnnamedStatus: Sendable, Codable, Equatable {
        /// Its path in the superproject.
        public var path: String
        /// The commit the superproject's HEAD pins there.
        public var pin: String
        /// The URL the HEAD's `.gitmodules` gives it (a password or token in it hidden); nil when it names none.
        public var url: String?
        /// Its HEAD; nil when it is not initialised.
        public var head: String?
        /// HEAD relative to the pin (`at-pin`, `ahead`, `behind`, `diverged`, `not-initialised`; `behind` with
        /// `behind` 0: the pin is not in its checkout).
        public var relation: PinRelation
        /// Commits HEAD has beyond the pin.
        public var ahead: Int
        /// Commits of the pin HEAD lacks.
        public var behind: Int
        /// Tracked files modified, staged or conflicted.
        public var dirty: Bool

        /// Every gitlink of the superproject's HEAD at a path not in `named`, where it stands (read-only).
        static func inspect(named: Set<String>, workspace: Workspace) throws -> [UnnamedStatus] {
            let superproject = workspace.superproject
            let extra = try superproject.gitlinks(at: "HEAD").filter { !named.contains($0.key) }
            guard !extra.isEmpty else { return [] }
            let gitmodules = try superproject.gitmodules(at: "HEAD") ?? Gitmodules()
            return try extra.sorted(by: { $0.key < $1.key }).map { path, pin in
                var status = UnnamedStatus(
                    path: path, pin: pin, url: gitmodules.entry(atPath: path)?.url.map { RemoteURL.redacted($0) },
                    head: nil, relation: .notInitialised, ahead: 0, behind: 0, dirty: false)
                let checkout = workspace.checkout(at: path)
                guard try CheckoutPresence.of(checkout) == .repository else { return status }
                let state = try RepositoryState.inspect(checkout)
                status.head = state.head
                status.dirty = !state.status.blockingEntries.isEmpty
                guard let head = state.head else { return status }
                if try checkout.hasCommit(pin) {
                    let counts = try checkout.counts(head, pin)
                    status.ahead = counts.left
                    status.behind = counts.right
                    status.relation = PinRelation.of(ahead: counts.left, behind: counts.right)
                } else {
                    status.relation = .behind
                }
                return status
            }
        }

        /// One line for the status table's notes.
        func line(console: Console) -> String {
            let whereItIs: String
            switch relation {
            case .atPin: whereItIs = "at its pin \(ObjectID.short(pin))"
            case .notInitialised: whereItIs = "not initialised (its pin: \(ObjectID.short(pin)))"
            case .ahead: whereItIs = "ahead \(ahead) of its pin \(ObjectID.short(pin))"
            case .behind:
                whereItIs =
                    behind > 0
                    ? "behind \(behind) of its pin \(ObjectID.short(pin))"
                    : "at \(ObjectID.short(head, none: "-")), its pin \(ObjectID.short(pin)) not fetched"
            case .diverged, .unpinned:
                whereItIs = console.styled("diverged +\(ahead)/-\(behind) from its pin \(ObjectID.short(pin))", .red)
            }
            return "\(TerminalText.escaped(path)): a submodule modules.json does not name ("
                + (url.map { TerminalText.escaped($0) } ?? "no URL") + "), \(whereItIs)"
                + (dirty ? ", " + console.styled("dirty", .yellow) : "")
                + (relation == .atPin ? "" : "; tenantctl switch checks it out at its pin")
        }

        /// Whether `status --short` lists it: not at its pin, or changed files.
        var needsAttention: Bool { relation != .atPin || dirty }

        /// Its line in `status --short`: the two letters of a module's line, its path and `[not in modules.json]`.
        var shortLine: String {
            let letter: String
            switch relation {
            case .atPin: letter = " "
            case .ahead: letter = ">"
            case .behind: letter = behind > 0 ? "<" : "?"
            case .diverged: letter = "X"
            case .notInitialised: letter = "-"
            case .unpinned: letter = "?"
            }
            return letter + (dirty ? "M" : " ") + " \(TerminalText.escaped(path)) [not in modules.json]"
        }
    }
}
