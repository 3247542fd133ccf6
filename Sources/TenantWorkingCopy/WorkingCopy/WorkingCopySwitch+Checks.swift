import Foundation

extension WorkingCopySwitch {
    /// A module that is not initialised may still have its git directory (`git submodule deinit` keeps it) with the
    /// user's branches: the set-up re-creates `branch` at the pin, so a branch holding commits no remote has is a
    /// pre-flight problem, as for an initialised module.
    func uninitialisedProblem(_ module: Module, branch: String, pin: String) throws -> WorkingCopyProblem? {
        let superproject = workspace.superproject
        guard let name = try superproject.submoduleNamesByPath()[module.path] else { return nil }
        let gitDirectory = try superproject.gitPath(
            "modules/\(name)", context: "find the git directory of module \(module.name)")
        guard FileManager.default.fileExists(atPath: (gitDirectory as NSString).appendingPathComponent("HEAD")) else {
            return nil
        }
        let moduleRepository = superproject.repository(at: gitDirectory)
        let branches = try moduleRepository.branches(under: "refs/heads/", what: "module \(module.name)")
        guard let tip = branches[branch], tip != pin else { return nil }
        let target = try moduleRepository.objectID(of: pin, peeledTo: .commit)?.hex
        let unpublished = try moduleRepository.unpublished(tip, beyond: target)
        guard unpublished.count > 0 else { return nil }
        return WorkingCopyProblem(
            repository: module.name, path: module.path,
            reason: SwitchPlanner.unpublishedReason(
                branch: branch, target: target ?? pin, count: unpublished.count, listed: unpublished.listed)
                + " (the module is not checked out; its repository is \(gitDirectory))")
    }
}

extension WorkingCopySwitch {
    /// A free-standing name for a branch whose name clashes (`t3/wip` → `t3-wip`, `t3` → `t3-renamed`).
    static func renamed(_ branch: String) -> String {
        branch.contains("/") ? branch.replacingOccurrences(of: "/", with: "-") : branch + "-renamed"
    }

    /// Module checkouts that the target superproject commit replaces by a file or a directory of its own: the
    /// superproject's checkout deletes the module's working tree, so its untracked and ignored files are problems
    /// (its commits stay in its git directory). Modules that stay gitlinks are not asked.
    func replacedModuleProblems(_ contexts: some Sequence<ModuleContext>, target: String) throws
        -> [WorkingCopyProblem]
    {
        var problems: [WorkingCopyProblem] = []
        let checkouts = contexts.filter { $0.presence == .repository }.sorted { $0.module.path < $1.module.path }
        let modes = try workspace.superproject.modes(of: checkouts.map(\.module.path), at: target)
        for context in checkouts {
            guard let mode = modes[context.module.path], mode != "160000" else { continue }
            for file in try gitRepository(at: context.absolutePath).untrackedAndIgnored() {
                problems.append(
                    WorkingCopyProblem(
                        repository: context.module.name, path: context.module.path + "/" + file,
                        reason: "untracked or ignored file in the checkout of module \(context.module.name), which "
                            + "the target replaces by a \(mode == "040000" ? "directory" : "file") of its own "
                            + "(switching would delete it); move it away first"))
            }
        }
        return problems
    }

    /// Whether the superproject's `commit` tracks `path` as a file or directory (not a gitlink).
    func trackedAsFile(_ path: String, at commit: String?) throws -> Bool {
        guard let commit,
            let mode = try workspace.superproject.modes(of: [path], at: commit)[path]
        else { return false }
        return mode != "160000"
    }

    /// Modules whose URL in the `.gitmodules` of `commit` differs from `modules.json`'s (relative URLs resolved
    /// against the superproject's origin): module name → the `.gitmodules` URL. switch uses `modules.json`'s.
    func gitmodulesDrift(_ modules: [Module], at commit: String, superOrigin: String) throws -> [String: String] {
        Self.gitmodulesDrift(
            modules, entries: try workspace.superproject.gitmodules(at: commit)?.entries ?? [],
            superOrigin: superOrigin)
    }

    /// ``gitmodulesDrift(_:at:superOrigin:)`` of `.gitmodules` entries already read (pure).
    static func gitmodulesDrift(_ modules: [Module], entries: [GitmodulesEntry], superOrigin: String) -> [String:
        String]
    {
        var drift: [String: String] = [:]
        for entry in entries {
            guard let path = entry.path, let url = entry.url,
                let module = modules.first(where: { $0.path == path }), !module.url.isEmpty,
                let expected = resolved(module.url, superOrigin: superOrigin),
                let actual = resolved(url, superOrigin: superOrigin), !sameRemote(actual, expected)
            else { continue }
            drift[module.name] = url
        }
        return drift
    }

    /// A module URL as git uses it: relative URLs resolved against the superproject's origin.
    static func resolved(_ url: String, superOrigin: String) -> String? {
        RemoteURL.classify(url) == .relative ? RemoteURL.resolve(relative: url, against: superOrigin) : url
    }
}
