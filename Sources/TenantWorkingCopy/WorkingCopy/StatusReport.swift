import Foundation

/// Where a module's HEAD stands relative to the commit the superproject pins.
public enum PinRelation: String, Sendable, Codable, Equatable {
    /// HEAD is the pinned commit.
    case atPin = "at-pin"
    /// HEAD has commits the pin does not have (and none missing).
    case ahead
    /// HEAD lacks commits of the pin (and has none of its own).
    case behind
    /// Both: commits of its own and commits missing.
    case diverged
    /// The module is not initialised (no checkout).
    case notInitialised = "not-initialised"
    /// The superproject branch pins no commit for this module.
    case unpinned

    /// The relation of `ahead`/`behind` counts (pure).
    public static func of(ahead: Int, behind: Int) -> PinRelation {
        switch (ahead, behind) {
        case (0, 0): return .atPin
        case (_, 0): return .ahead
        case (0, _): return .behind
        default: return .diverged
        }
    }
}

/// `tenantctl status`: the working copy as a tenant.
public struct StatusReport: Sendable, Codable, Equatable {
    /// The superproject's state.
    public struct Superproject: Sendable, Codable, Equatable {
        /// Checked-out branch; nil when detached.
        public var branch: String?
        /// HEAD commit.
        public var head: String?
        /// Upstream (`origin/t2`), when set.
        public var upstream: String?
        /// Commits ahead of the upstream.
        public var ahead: Int?
        /// Commits behind the upstream.
        public var behind: Int?
        /// The upstream is configured but its remote branch is gone (deleted on the remote and pruned).
        public var upstreamGone: Bool
        /// Tracked files modified, staged or conflicted (module checkouts at other commits do not count).
        public var dirty: Bool
        /// The branch against the remote branch as switch and roll last fetched it (nil: no remote branch).
        public var remote: RemoteStatus? = nil
    }

    /// A local branch against its remote branch.
    public struct RemoteStatus: Sendable, Codable, Equatable {
        /// The remote branch compared with (`origin/t2`).
        public var upstream: String
        /// Commits the local branch has that the remote branch lacks.
        public var ahead: Int
        /// Commits the remote branch has that the local branch lacks.
        public var behind: Int
        /// The remote branch is gone (deleted on the remote and pruned).
        public var gone: Bool
        /// `up-to-date`, `ahead`, `behind`, `diverged` or `gone`.
        public var relation: String

        init(upstream: String, ahead: Int, behind: Int, gone: Bool) {
            self.upstream = upstream
            self.ahead = ahead
            self.behind = behind
            self.gone = gone
            if gone {
                relation = "gone"
            } else {
                switch (ahead, behind) {
                case (0, 0): relation = "up-to-date"
                case (_, 0): relation = "ahead"
                case (0, _): relation = "behind"
                default: relation = "diverged"
                }
            }
        }

        /// A few words for the table: `up to date`, `ahead 1`, `behind 2`, `diverged +1/-2`, `gone`.
        var words: String {
            switch relation {
            case "up-to-date": return "up to date"
            case "ahead": return "ahead \(ahead)"
            case "behind": return "behind \(behind)"
            case "diverged": return "diverged +\(ahead)/-\(behind)"
            default: return "gone"
            }
        }
    }

    /// One module's state.
    public struct ModuleStatus: Sendable, Codable, Equatable {
        /// Module name.
        public var module: String
        /// Path in the superproject.
        public var path: String
        /// The branch the module should be on for this tenant.
        public var expectedBranch: String
        /// Checked-out branch; nil when detached or not initialised.
        public var branch: String?
        /// HEAD is detached.
        public var detached: Bool
        /// HEAD commit.
        public var head: String?
        /// Commit pinned by the superproject's HEAD (an annotated tag as pin is peeled to its commit).
        public var pin: String?
        /// The annotated tag the gitlink names, when the pin is a tag.
        public var pinTag: String?
        /// HEAD relative to the pin.
        public var relation: PinRelation
        /// Commits HEAD has beyond the pin.
        public var ahead: Int
        /// Commits of the pin HEAD lacks.
        public var behind: Int
        /// Tracked files modified, staged or conflicted.
        public var dirty: Bool
        /// Commits reachable from HEAD but from no remote-tracking branch (not pushed).
        public var unpushed: Int
        /// The module's own (nested) submodules that are not initialised at the commit the module records.
        public var nested: [NestedSubmodule]
        /// The checked-out branch against its remote branch as last fetched (nil: no remote branch).
        public var remote: RemoteStatus? = nil
        /// The URL the checked-out commit's `.gitmodules` gives the module when it differs from `modules.json`'s
        /// (tenantctl keeps the module's origin at `modules.json`'s).
        public var gitmodulesURL: String? = nil
    }

    /// Report format version.
    public var schemaVersion = 1
    /// The tenant whose branch is checked out (the general branch name for the development view); nil otherwise.
    public var tenant: String?
    /// The superproject.
    public var superproject: Superproject
    /// Every module in manifest order.
    public var modules: [ModuleStatus]
    /// The submodules the superproject's HEAD pins that `modules.json` does not name, by path.
    public var unnamed: [UnnamedStatus] = []
    /// An unfinished `tenantctl resolve`, if any.
    public var resolution: ResolutionStatus? = nil
    /// The review rolls waiting for reviews (their counts, open proposals and way on); nil when none waits.
    public var reviews: [ReviewRunCounts]? = nil

    /// Inspects the working copy (read-only; no fetch). ``resolution`` is left for the caller
    /// (`ResolutionStatus.inspect`, read last).
    public static func inspect(workspace: Workspace) throws -> StatusReport {
        let project = try BranchProject.workingTree(
            workspace, options: ValidationOptions(allowLocalRemotes: workspace.git.allowLocalRemotes))
        let state = try RepositoryState.inspect(workspace.superproject, superproject: true)
        let branch = state.currentBranch
        let tenant = branch.flatMap { project.tenant(onBranch: $0) }
        let tenantName = branch == project.manifest.generalBranch ? project.manifest.generalBranch : tenant?.id
        let pins =
            state.head == nil
            ? [:]
            : try workspace.superproject.pins(at: "HEAD", paths: project.manifest.modules.map(\.path))
        let drift =
            state.head == nil
            ? [:]
            : WorkingCopySwitch.gitmodulesDrift(
                project.manifest.modules,
                entries: try workspace.superproject.gitmodules(at: "HEAD")?.entries ?? [],
                superOrigin: try SuperprojectRemote.originURL(workspace) ?? workspace.root)
        let modules = try project.manifest.modules.map { module in
            try inspectModule(
                module, expectedBranch: project.branch(of: module, for: tenant), pin: pins[module.path],
                gitmodulesURL: drift[module.name], workspace: workspace)
        }
        var superproject = Superproject(
            branch: branch, head: state.head, upstream: state.status.upstream, ahead: state.status.ahead,
            behind: state.status.behind, upstreamGone: state.status.upstream != nil && state.status.ahead == nil,
            dirty: !state.status.blockingEntries.isEmpty)
        if let branch, let head = state.head {
            superproject.remote = try superprojectRemote(
                branch: branch, head: head, upstream: state.status.upstream, workspace: workspace)
            if let remote = superproject.remote {
                superproject.upstream = remote.upstream
                superproject.ahead = remote.gone ? nil : remote.ahead
                superproject.behind = remote.gone ? nil : remote.behind
                superproject.upstreamGone = remote.gone
            }
        }
        var report = StatusReport(tenant: tenantName, superproject: superproject, modules: modules)
        if state.head != nil {
            report.unnamed = try UnnamedStatus.inspect(
                named: Set(project.manifest.modules.map(\.path)), workspace: workspace)
        }
        return report
    }

    /// One module's checkout against its pin and the branch the tenant takes it from.
    static func inspectModule(
        _ module: Module, expectedBranch: String, pin: String?, gitmodulesURL: String?, workspace: Workspace
    ) throws -> ModuleStatus {
        let checkout = workspace.checkout(at: module.path)
        var status = ModuleStatus(
            module: module.name, path: module.path, expectedBranch: expectedBranch,
            branch: nil, detached: false, head: nil, pin: pin, pinTag: nil, relation: .notInitialised,
            ahead: 0, behind: 0, dirty: false, unpushed: 0, nested: [])
        status.gitmodulesURL = gitmodulesURL
        guard try CheckoutPresence.of(checkout) == .repository else { return status }
        let moduleState = try RepositoryState.inspect(checkout)
        status.branch = moduleState.currentBranch
        status.detached = moduleState.status.isDetached
        status.head = moduleState.head
        status.dirty = !moduleState.status.blockingEntries.isEmpty
        if let head = moduleState.head {
            status.unpushed = try checkout.countCommits(
                from: head, context: "count unpushed commits of \(module.name)")
        }
        if let current = moduleState.currentBranch, let tip = moduleState.branches[current] {
            status.remote = try moduleRemote(branch: current, tip: tip, in: checkout)
        }
        status.nested = try NestedSubmodules.inspect(checkout, prefix: module.path).filter { !$0.atRecorded }
        if let recorded = status.pin, let head = moduleState.head {
            if let pin = try checkout.objectID(of: recorded, peeledTo: .commit)?.hex {
                if pin != recorded {
                    status.pin = pin
                    status.pinTag = recorded
                }
                let counts = try checkout.counts(head, pin)
                status.ahead = counts.left
                status.behind = counts.right
                status.relation = PinRelation.of(ahead: counts.left, behind: counts.right)
            } else {
                status.relation = .behind  // the pinned commit is not even fetched yet
            }
        } else {
            status.relation = .unpinned
        }
        return status
    }

    /// The superproject's branch against the remote branch tenantctl last fetched (`refs/tenantctl/remotes/…`,
    /// which switch and roll fetch), never the clone's possibly stale `refs/remotes/…`. The remote branch is the
    /// upstream's when the upstream is on the workspace's remote, else the branch of the same name. nil when
    /// tenantctl has fetched nothing yet (the clone's upstream counts are kept) or the remote never had it.
    static func superprojectRemote(
        branch: String, head: String, upstream: String?, workspace: Workspace
    ) throws -> RemoteStatus? {
        let fetched = try SuperprojectRemote.branches(workspace)
        guard !fetched.isEmpty else { return nil }
        var remoteBranch = branch
        if let upstream, upstream.hasPrefix(workspace.remoteName + "/") {
            remoteBranch = String(upstream.dropFirst(workspace.remoteName.count + 1))
        }
        let name = "\(workspace.remoteName)/\(remoteBranch)"
        guard let tip = fetched[remoteBranch] else {
            // Gone when the clone knew it (an upstream is configured); never there otherwise.
            return upstream == nil ? nil : RemoteStatus(upstream: name, ahead: 0, behind: 0, gone: true)
        }
        let counts = try workspace.superproject.counts(head, tip)
        return RemoteStatus(upstream: name, ahead: counts.left, behind: counts.right, gone: false)
    }

    /// A module branch against its upstream (or `origin/<branch>` when none is set), as the module's last fetch
    /// (switch fetches each module it moves) left it; gone when the upstream is set but its remote branch is not.
    static func moduleRemote(branch: String, tip: String, in repository: GitRepository) throws -> RemoteStatus? {
        let configured = try repository.upstream(of: branch)
        let upstreamRef = configured.isEmpty ? "refs/remotes/\(Workspace.defaultRemoteName)/\(branch)" : configured
        let shortName =
            upstreamRef.hasPrefix("refs/remotes/") ? String(upstreamRef.dropFirst("refs/remotes/".count)) : upstreamRef
        guard
            let found = try repository.objectID(
                of: upstreamRef, peeledTo: .commit, context: "look up \(shortName) in \(repository.path)")?.hex
        else {
            return configured.isEmpty ? nil : RemoteStatus(upstream: shortName, ahead: 0, behind: 0, gone: true)
        }
        let counts = try repository.counts(tip, found)
        return RemoteStatus(upstream: shortName, ahead: counts.left, behind: counts.right, gone: false)
    }

    /// The report as a table a person reads at a glance, fitted to `console.width`; with colour, dirty and
    /// diverged stand out.
    public func renderTable(console: Console = Console(out: BufferOutputSink(), err: BufferOutputSink())) -> String {
        var lines: [String] = []
        // Branch names and paths come from repositories: control characters escaped.
        let location = TerminalText.escaped(superproject.branch ?? "(detached HEAD)")
        lines.append("tenant: \(tenant ?? "none (superproject branch \(location) is no tenant's)")")
        if let resolution { lines += resolution.render() }
        var remote = "no upstream"
        if let upstream = superproject.upstream.map({ TerminalText.escaped($0) }) {
            remote =
                superproject.upstreamGone
                ? "\(upstream): gone (deleted on the remote)"
                : "\(upstream): ahead \(superproject.ahead ?? 0), behind \(superproject.behind ?? 0)"
        }
        lines.append(
            "superproject: \(location) at \(ObjectID.short(superproject.head, none: "-")) (\(remote))"
                + (superproject.dirty ? ", " + console.styled("dirty", .yellow) : ""))
        let rows = modules.map { module -> [String] in
            var branch = TerminalText.escaped(module.branch ?? (module.detached ? "(detached)" : "-"))
            if let current = module.branch, current != module.expectedBranch {
                branch += " (expected \(module.expectedBranch))"
            }
            return [
                module.module, branch, ObjectID.short(module.head, none: "-"), module.pinWords(console: console),
                module.dirty ? console.styled("dirty", .yellow) : "clean", "\(module.unpushed)",
                module.remoteWords,
            ]
        }
        // The table fits itself (ids and branches are never cut; the words of BRANCH, PIN and REMOTE wrap within
        // their column); only the prose around it is wrapped. The pin's own id is in `status --json`.
        let table = console.table(
            TextTable(
                header: ["MODULE", "BRANCH", "HEAD", "PIN", "FILES", "UNPUSHED", "REMOTE"], rows: rows,
                text: [1, 3, 6]))
        var after: [String] = []
        for module in modules {
            if let url = module.gitmodulesURL {
                lines.append(
                    "warning: \(module.module): .gitmodules on this branch names \(TerminalText.escaped(RemoteURL.redacted(url))), not "
                        + "modules.json's URL; tenantctl keeps \(TerminalText.escaped(module.path))'s origin at "
                        + "modules.json's (a plain `git submodule sync` would point it at the other repository)")
            }
            for nested in module.nested {
                let head = nested.head.map { "at \(ObjectID.short($0))" } ?? "not initialised"
                after.append(
                    "\(TerminalText.escaped(nested.path)): nested submodule not at its recorded commit \(ObjectID.short(nested.recorded)) (\(head))"
                )
            }
        }
        after += unnamed.map { $0.line(console: console) }
        return
            ([TextTable.fit(lines.joined(separator: "\n"), width: console.width), table]
            + (after.isEmpty ? [] : [TextTable.fit(after.joined(separator: "\n"), width: console.width)]))
            .joined(separator: "\n")
    }
}

extension StatusReport.ModuleStatus {
    /// HEAD against the pin in a few words for the table: `at pin`, `ahead 1`, `behind 2`, `diverged +1/-2`,
    /// `pin not fetched`, `not initialised`, `no pin`; with colour, diverged stands out.
    func pinWords(console: Console) -> String {
        switch relation {
        case .atPin: return "at pin"
        case .ahead: return "ahead \(ahead)"
        case .behind: return behind > 0 ? "behind \(behind)" : "pin not fetched"
        case .diverged: return console.styled("diverged +\(ahead)/-\(behind)", .red)
        case .notInitialised: return "not initialised"
        case .unpinned: return "no pin"
        }
    }

    /// The branch against its remote branch: the relation alone when the remote branch is the usual
    /// `origin/<branch>`, else prefixed with its name (`origin/vanished: gone`); `-` when there is none.
    var remoteWords: String {
        guard let remote else { return "-" }
        let usual = branch.map { remote.upstream == "\(Workspace.defaultRemoteName)/\($0)" } ?? false
        return usual ? remote.words : "\(TerminalText.escaped(remote.upstream)): \(remote.words)"
    }

    /// Whether `status --short` lists the module: not clean, not at its pin, detached or on another branch than
    /// the tenant's, or with commits no remote branch has.
    var needsAttention: Bool {
        dirty || relation != .atPin || detached || branch != expectedBranch || unpushed > 0
    }

    /// The two status letters of `status --short`: HEAD against the pin (space at the pin, `>` ahead, `<` behind,
    /// `X` diverged, `-` not initialised, `?` no pin or not fetched), then the files (`M` changed, else space).
    var shortCode: String {
        let pin: String
        switch relation {
        case .atPin: pin = " "
        case .ahead: pin = ">"
        case .behind: pin = behind > 0 ? "<" : "?"
        case .diverged: pin = "X"
        case .notInitialised: pin = "-"
        case .unpinned: pin = "?"
        }
        return pin + (dirty ? "M" : " ")
    }
}

extension StatusReport {
    /// `status --short`, in the style of `git status -sb`: a header line for the superproject
    /// (`## t2...origin/t2 [ahead 1]  tenant: t2`), then one line per module that needs attention
    /// (``ModuleStatus/needsAttention``): its two status letters, its path and what is off, in brackets. A resolution in
    /// progress is shown as in the full view.
    public func renderShort(console: Console = Console(out: BufferOutputSink(), err: BufferOutputSink())) -> String {
        var header = "## " + TerminalText.escaped(superproject.branch ?? "HEAD (no branch)")
        if let upstream = superproject.upstream.map({ TerminalText.escaped($0) }) {
            header += "..." + upstream
            if superproject.upstreamGone {
                header += " [gone]"
            } else {
                let counts = [
                    (superproject.ahead ?? 0) > 0 ? "ahead \(superproject.ahead ?? 0)" : nil,
                    (superproject.behind ?? 0) > 0 ? "behind \(superproject.behind ?? 0)" : nil,
                ].compactMap { $0 }
                if !counts.isEmpty { header += " [" + counts.joined(separator: ", ") + "]" }
            }
        }
        if superproject.dirty { header += " " + console.styled("dirty", .yellow) }
        header += "  tenant: " + TerminalText.escaped(tenant ?? "none")
        var lines = [header]
        if let resolution { lines += resolution.render() }
        for module in modules where module.needsAttention {
            var details: [String] = []
            switch module.relation {
            case .atPin, .notInitialised: break
            default: details.append(module.pinWords(console: console))
            }
            if module.detached {
                details.append("detached")
            } else if let branch = module.branch, branch != module.expectedBranch {
                details.append("on \(TerminalText.escaped(branch)), expected \(module.expectedBranch)")
            }
            if module.unpushed > 0 { details.append("\(module.unpushed) unpushed") }
            if let remote = module.remote, remote.relation != "up-to-date" {
                details.append("\(TerminalText.escaped(remote.upstream)): \(remote.words)")
            }
            let code = module.shortCode
            let styledCode = module.relation == .diverged || module.dirty ? console.styled(code, .red) : code
            lines.append(
                "\(styledCode) \(TerminalText.escaped(module.path))"
                    + details.map { " [\($0)]" }.joined())
        }
        for submodule in unnamed where submodule.needsAttention {
            lines.append(submodule.shortLine)
        }
        return lines.joined(separator: "\n")
    }
}
