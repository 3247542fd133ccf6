import Foundation

/// A submodule of the target branch that `modules.json` does not name (a repository renamed or added with plain
/// git): switch checks it out at its pin as `git submodule update --init` would, and reports it.
public struct UnnamedSubmodule: Sendable, Equatable, Codable {
    /// Its path in the superproject.
    public var path: String
    /// The commit the target branch pins there.
    public var pin: String
    /// The URL the target's `.gitmodules` gives it (a password or token in it hidden).
    public var url: String?
    /// Where its checkout was before (nil: not initialised).
    public var from: String?
    /// `unchanged`, `cloned`, `checked out` (with `--dry-run`: `unchanged`, `clone`, `check out`).
    public var change: String

    public init(path: String, pin: String, url: String?, from: String?, change: String) {
        self.path = path
        self.pin = pin
        self.url = url
        self.from = from
        self.change = change
    }

    /// Whether the switch changes its checkout.
    var changes: Bool { change != "unchanged" }

    /// How its journal records and messages name it: `submodule <path>`.
    var repository: String { "submodule \(path)" }
}

extension WorkingCopySwitch {
    /// A repository the switch clones (a module, or a submodule `modules.json` does not name), with the pin its
    /// clone must reach.
    struct CloneToCheck {
        /// The name of its mirror directory: the module's name, or for a submodule `modules.json` does not name
        /// its path made one name (`unnamed-Vendor%2FExtra`, no clash with a module's).
        var mirror: String
        /// What a problem is about: the module name, or `submodule <path>`.
        var repository: String
        /// Its path in the superproject.
        var path: String
        /// Its URL as the file gives it (relative URLs resolved against the superproject's origin); empty: none.
        var url: String
        /// The pin.
        var pin: String
        /// How the refusal names it: the module name, or `the submodule at <path>`.
        var what: String

        init(module: Module, pin: String) {
            mirror = module.name
            repository = module.name
            path = module.path
            url = module.url
            self.pin = pin
            what = module.name
        }

        init(unnamedAt path: String, url: String, pin: String) {
            mirror =
                "unnamed-" + path.replacingOccurrences(of: "%", with: "%25").replacingOccurrences(of: "/", with: "%2F")
            repository = "submodule \(path)"
            self.path = path
            self.url = url
            self.pin = pin
            what = "the submodule at \(path)"
        }
    }

    /// Why a repository to clone whose remote could not be fetched (`error`, from its mirror's fetch) stops the switch,
    /// in words a person can act on: what it is and its URL (the error's first line names them), git's own lines
    /// kept, indented, and the command that checks the remote. Never the mirror: not its internal name (`unnamed-<path>`, percent-encoded), not the
    /// command that fetched it into a directory of its own (which a person neither ran nor can find).
    static func unfetchedReason(_ error: String, of item: CloneToCheck, url: String) -> String {
        var lines = error.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            .filter { !$0.hasPrefix("  command: ") }
        if item.mirror != item.repository {
            lines = lines.map {
                $0.replacingOccurrences(of: "module \(item.mirror)", with: item.what)
                    .replacingOccurrences(of: item.mirror, with: item.path)
            }
        }
        let shown = RemoteURL.redacted(url)
        lines.append(
            "  check the URL and your access with `git ls-remote -- \(ShellWord.quote(shown))`, then switch again")
        return "its remote could not be fetched, so it cannot be cloned:\n    "
            + lines.joined(separator: "\n    ")
    }

    /// The repositories to clone whose pin their remote does not have (on no branch and no tag): git's clone would
    /// stop half-way through the switch, after the modules before it were cloned. Checked before any change in the
    /// private mirrors audit, verify and roll keep (`.git/tenantctl/mirrors`), fetched first (a module never
    /// fetched is fetched there now) unless `--no-fetch`, which checks the mirrors there are. Per repository one
    /// fetch and at most two git calls; a remote that cannot be fetched is a problem too (its clone would fail).
    /// Also returns the mirror of each repository by its path, for its clone to copy from (``Plan/cloneSources``):
    /// its objects are downloaded once, here.
    func missingPinProblems(_ cloning: [CloneToCheck], superOrigin: String, target: String) throws
        -> (problems: [WorkingCopyProblem], mirrors: [String: String])
    {
        var specs: [MirrorSpec] = []
        for item in cloning {
            guard !item.url.isEmpty, let url = Self.resolved(item.url, superOrigin: superOrigin) else {
                continue  // no URL of modules.json's: git clones from .gitmodules' and says what it finds
            }
            specs.append(MirrorSpec(name: item.mirror, url: url))
        }
        guard !specs.isEmpty else { return ([], [:]) }
        let mirrors = ModuleMirrors(workspace: workspace)
        var problems: [WorkingCopyProblem] = []
        let available: [String: String]
        if fetch {
            console?.progress("checking the pins of \(English.count(specs.count, "module")) to clone")
            let fetched = mirrors.syncEach(specs, console: console)
            available = fetched.mirrors
            for failure in fetched.failures {
                guard let item = cloning.first(where: { $0.mirror == failure.module }),
                    let url = specs.first(where: { $0.name == failure.module })?.url
                else { continue }
                problems.append(
                    WorkingCopyProblem(
                        repository: item.repository, path: item.path,
                        reason: Self.unfetchedReason(failure.error, of: item, url: url)))
            }
        } else {
            available = mirrors.existingEach(specs).mirrors
        }
        var sources: [String: String] = [:]
        for item in cloning {
            guard let mirror = available[item.mirror] else { continue }
            sources[item.path] = mirror
            guard ObjectID.isValid(item.pin) else { continue }
            let repository = gitRepository(at: mirror)
            let context = "look for the pin \(ObjectID.short(item.pin)) of \(item.what) in its mirror"
            if let commit = try repository.objectID(of: item.pin, peeledTo: .commit, context: context)?.hex,
                try repository.isOnBranchOrTag(commit, context: context)
            {
                continue
            }
            problems.append(
                WorkingCopyProblem(
                    repository: item.repository, path: item.path,
                    reason: "\(target) pins \(item.what) at \(item.pin), which is on no branch or tag of its "
                        + "remote (not pushed?), so it cannot be cloned; push it from the clone that has it (git push "
                        + "origin \(item.pin):refs/heads/<branch>), or pin a pushed commit"))
        }
        return (problems, sources)
    }

    /// The gitlinks of the superproject commit `target` at paths no module of `modules` has (`modules.json` does
    /// not name them), each planned as `git submodule update --init` would check it out: cloned when not
    /// initialised, moved to the pin (detached) when its clean checkout is elsewhere; and what forbids it. One
    /// `ls-tree` of the commit, and per such submodule a look at its checkout.
    func planUnnamed(target: String, branch: String, modules: [Module]) throws -> (
        submodules: [UnnamedSubmodule], cloning: [CloneToCheck], problems: [WorkingCopyProblem],
        before: [String: Before]
    ) {
        let superproject = workspace.superproject
        let named = Set(modules.map(\.path))
        let extra = try superproject.gitlinks(at: target).filter { !named.contains($0.key) }
        guard !extra.isEmpty else { return ([], [], [], [:]) }
        let gitmodules = try superproject.gitmodules(at: target) ?? Gitmodules()
        var submodules: [UnnamedSubmodule] = []
        var problems: [WorkingCopyProblem] = []
        var cloning: [CloneToCheck] = []
        var before: [String: Before] = [:]
        for (path, pin) in extra.sorted(by: { $0.key < $1.key }) {
            let label = "submodule \(path)"
            guard let rawURL = gitmodules.entry(atPath: path)?.url else {
                problems.append(
                    WorkingCopyProblem(
                        repository: label, path: path,
                        reason: "\(branch) pins a submodule here (\(ObjectID.short(pin))) that neither modules.json "
                            + "nor its .gitmodules names, so git cannot clone it; add it to .gitmodules on "
                            + "\(branch) or remove the gitlink"))
                continue
            }
            let url = RemoteURL.redacted(rawURL)
            let absolute = workspace.path(path)
            switch try CheckoutPresence.of(gitRepository(at: absolute)) {
            case .notInitialised:
                submodules.append(UnnamedSubmodule(path: path, pin: pin, url: url, from: nil, change: "cloned"))
                cloning.append(CloneToCheck(unnamedAt: path, url: rawURL, pin: pin))
            case .notARepository(let reason):
                problems.append(WorkingCopyProblem(repository: label, path: path, reason: reason))
            case .repository:
                let state = try RepositoryState.inspect(gitRepository(at: absolute))
                guard state.head != pin else {
                    submodules.append(
                        UnnamedSubmodule(path: path, pin: pin, url: url, from: state.head, change: "unchanged"))
                    continue
                }
                let found = state.problems(repository: label, relativePath: path)
                problems += found
                before[label] = Before(branch: state.currentBranch)
                if found.isEmpty {
                    submodules.append(
                        UnnamedSubmodule(path: path, pin: pin, url: url, from: state.head, change: "checked out"))
                }
            }
        }
        return (submodules, cloning, problems, before)
    }

    /// Checks out every submodule of ``planUnnamed(target:branch:modules:)`` that changes at its pin, as
    /// `git submodule update --init --checkout` does (detached; a branch it was on stays), with its nested
    /// submodules unless `--no-recursive`. `start` records in the journal that one is about to change; each
    /// checkout is recorded as a step once it landed (HEAD from where it was to the pin). `add` records the nested
    /// submodules the update changes (``updateNested(at:prefix:name:tenant:add:)``).
    func checkOutUnnamed(
        _ submodules: [UnnamedSubmodule], sources: [String: String], tenant: String, start: (String) throws -> Void,
        add: ([RunJournal.Before]) throws -> Void
    ) throws -> [UnnamedSubmodule] {
        var done: [UnnamedSubmodule] = []
        for submodule in submodules {
            guard submodule.changes else {
                done.append(submodule)
                continue
            }
            let label = submodule.repository
            try start(label)
            console?.progress(
                "\(submodule.path): \(submodule.from == nil ? "cloning" : "checking out") \(ObjectID.short(submodule.pin)) "
                    + "(not in modules.json)")
            try workspace.superproject.initialiseSubmodule(
                submodule.path, remoteName: Workspace.defaultRemoteName, module: label,
                reference: sources[submodule.path])
            try transaction?.record(
                repository: label,
                steps: [try JournalStep(ref: JournalStep.headName, new: submodule.pin, old: submodule.from)],
                published: nil, landed: true)
            if recursive {
                try updateNested(
                    at: workspace.path(submodule.path), prefix: submodule.path, name: label, tenant: tenant, add: add)
            }
            done.append(submodule)
        }
        return done
    }

    /// Initialises and updates the nested submodules of the checkout at `path` to the commits it records, when any
    /// is not there; a failure names `--no-recursive`, the switch without them. Each nested submodule the update
    /// changes is a repository of the run (`submodule <path>`, detached at its recorded commit): `add` records it,
    /// with the branch and commit it had, before the update, and its checkout is recorded as a step once the update
    /// landed, so that a put-back takes it back too. Nested submodules below one that was not initialised are not
    /// seen before the update and are not recorded.
    @discardableResult
    func updateNested(
        at path: String, prefix: String, name: String, tenant: String, add: ([RunJournal.Before]) throws -> Void
    ) throws -> Bool {
        let changing = try NestedSubmodules.inspect(gitRepository(at: path), prefix: prefix).filter { !$0.atRecorded }
        guard !changing.isEmpty else { return false }
        try add(try changing.map(nestedRecord))
        console?.progress("\(name): updating nested submodules")
        do {
            try gitRepository(at: path).updateSubmodulesRecursively(what: name)
        } catch {
            throw WorkspaceError(
                "the nested submodules of \(name) could not be updated: \(error); switch without them: tenantctl "
                    + "switch \(tenant) --no-recursive")
        }
        for submodule in changing {
            try transaction?.record(
                repository: "submodule \(submodule.path)",
                steps: [try JournalStep(ref: JournalStep.headName, new: submodule.recorded, old: submodule.head)],
                published: nil,
                landed: true)
        }
        return true
    }

    /// The journal record of a nested submodule the update is about to change: where it is, the branch and commit it
    /// has (none: not initialised, the update clones it), and the commit it goes to, detached.
    private func nestedRecord(_ submodule: NestedSubmodule) throws -> RunJournal.Before {
        let label = "submodule \(submodule.path)"
        let branch = try submodule.head.map { _ in
            try gitRepository(at: workspace.path(submodule.path)).headBranch(context: "read the branch of \(label)")
        }
        var record = RunJournal.Before(repository: label, branch: branch ?? nil, head: submodule.head)
        record.path = submodule.path
        record.targetBranch = ""
        record.target = submodule.recorded
        record.initialises = submodule.head == nil
        record.started = true
        return record
    }
}
