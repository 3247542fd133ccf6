import Foundation

/// The superproject's remote branches as the working-copy commands (switch, pin) see them.
///
/// The one place switch and pin fetch the superproject and read its remote branches: tenantctl's own namespace
/// (``SuperprojectRemote``: every branch, complete history, whatever the clone's refspec and depth).
public enum WorkingCopyRemote {
    /// The ref that holds the remote's `branch` as last fetched (`refs/tenantctl/remotes/<remote>/<branch>`).
    public static func ref(of branch: String, in workspace: Workspace) -> String {
        SuperprojectRemote.refPrefix(workspace) + branch
    }

    /// Fetches the superproject when `fetch` (pruning branches deleted on the remote), then returns its remote
    /// branches: name → commit.
    public static func branches(_ workspace: Workspace, git: Git, fetch: Bool, console: Console?) throws
        -> [String: String]
    {
        if fetch {
            console?.progress("fetching superproject")
            try SuperprojectRemote.fetch(workspace, git: git)
        }
        return try SuperprojectRemote.branches(workspace, git: git)
    }
}

extension WorkingCopyGit {
    /// The commit `object` names, annotated tags peeled (`<object>^{commit}`); nil when the repository lacks it.
    static func commit(of object: String, in path: String, git: Git) throws(GitError) -> String? {
        let output = try git.run(
            ["rev-parse", "--verify", "--quiet", "--end-of-options", object + "^{commit}"], in: path,
            context: "look up commit \(object) in \(path)", accepting: [0, 1])
        return output.status == 0 ? output.text : nil
    }

    /// The commits `tip` has beyond `target` that no remote-tracking branch holds: their count, and the first ten
    /// as `<short id> <subject>`.
    /// (`target` nil: the repository does not have it; every commit no remote-tracking branch holds counts.)
    static func unpublished(_ tip: String, beyond target: String?, in path: String, git: Git) throws(GitError) -> (
        count: Int, listed: [String]
    ) {
        let output = try git.run(
            ["log", "--format=%H %s", tip, "--not"] + (target.map { [$0] } ?? [])
                + ["--remotes", "--glob=refs/tenantctl/remotes/*", "--"], in: path,
            context: "look for commits of \(ObjectID.short(tip)) that no remote branch holds in \(path)")
        let lines = output.lines.filter { !$0.isEmpty }
        let listed = lines.prefix(10).map { line -> String in
            guard let space = line.firstIndex(of: " ") else { return ObjectID.short(line) }
            return "\(ObjectID.short(String(line[..<space]))) \(line[line.index(after: space)...])"
        }
        return (lines.count, Array(listed))
    }

    /// A remote-tracking branch that contains `commit`: `origin/<preferred>` when it does, else the first by name.
    static func remoteBranch(containing commit: String, preferred: String, in path: String, git: Git)
        throws(GitError) -> String?
    {
        let names = try GitRefs.containing(commit, under: "refs/remotes/", in: path, git: git, what: path)
            .filter { !$0.hasSuffix("/HEAD") }
        let preferredName = "\(Workspace.defaultRemoteName)/\(preferred)"
        if names.contains(preferredName) { return preferredName }
        return names.sorted().first
    }

    /// Untracked (not ignored) files that checking out `target` would overwrite or that stand where `target` has
    /// a directory, or below where it has a file. Relative to the repository root. A repository of its own where
    /// `target` has a gitlink (a module's checkout left by a branch that did not have the module) is no conflict:
    /// git checks the gitlink out around it.
    static func untrackedOverwrites(to target: String, in path: String, git: Git) throws(GitError) -> [String] {
        let untracked = try git.run(
            ["ls-files", "-z", "--others", "--exclude-standard"], in: path,
            context: "list the untracked files of \(path)")
        let files = untracked.stdout.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
        guard !files.isEmpty else { return [] }
        let listing = try git.run(
            ["ls-tree", "-r", "-z", "--full-tree", "--end-of-options", target], in: path,
            context: "list the files of \(ObjectID.short(target)) in \(path)")
        guard let entries = GitParse.lsTree(listing.stdout) else {
            throw GitError(
                context: "list the files of \(ObjectID.short(target)) in \(path)",
                kind: .unparseableOutput(detail: "ls-tree output"), command: ["git", "ls-tree"], directory: path,
                stderr: listing.stderr)
        }
        let targetFiles = Set(entries.map(\.path))
        let targetGitlinks = Set(entries.filter(\.entry.isGitlink).map(\.path))
        var targetDirectories: Set<String> = []
        for entry in entries {
            var components = entry.path.split(separator: "/", omittingEmptySubsequences: false).dropLast()
            while !components.isEmpty {
                targetDirectories.insert(components.joined(separator: "/"))
                components = components.dropLast()
            }
        }
        return files.filter { file in
            if file.hasSuffix("/"), targetGitlinks.contains(String(file.dropLast())) { return false }
            if targetFiles.contains(file) || targetDirectories.contains(file) { return true }
            var components = file.split(separator: "/", omittingEmptySubsequences: false).dropLast()
            while !components.isEmpty {
                if targetFiles.contains(components.joined(separator: "/")) { return true }
                components = components.dropLast()
            }
            return false
        }.sorted()
    }

    /// Branches checked out in another worktree of the repository at `path` (whose git directory is
    /// `gitDirectory`): branch → that worktree's path. (git names a submodule's own checkout by its git directory.)
    static func branchesInOtherWorktrees(of path: String, gitDirectory: String, git: Git) throws(GitError)
        -> [String: String]
    {
        let output = try git.run(
            ["worktree", "list", "--porcelain", "-z"], in: path, context: "list the worktrees of \(path)")
        let own: Set<String> = [
            URL(fileURLWithPath: path).resolvingSymlinksInPath().path,
            URL(fileURLWithPath: gitDirectory).resolvingSymlinksInPath().path,
        ]
        var result: [String: String] = [:]
        var worktree: String?
        var branch: String?
        func flush() {
            if let worktree, let branch, !own.contains(URL(fileURLWithPath: worktree).resolvingSymlinksInPath().path) {
                result[branch] = worktree
            }
            worktree = nil
            branch = nil
        }
        for field in output.stdout.split(separator: 0, omittingEmptySubsequences: false) {
            let text = String(decoding: field, as: UTF8.self)
            if text.isEmpty {
                flush()
            } else if text.hasPrefix("worktree ") {
                worktree = String(text.dropFirst("worktree ".count))
            } else if text.hasPrefix("branch refs/heads/") {
                branch = String(text.dropFirst("branch refs/heads/".count))
            }
        }
        flush()
        return result
    }
}

extension WorkingCopySwitch {
    /// A module that is not initialised may still have its git directory (`git submodule deinit` keeps it) with the
    /// user's branches: the set-up re-creates `branch` at the pin, so a branch holding commits no remote has is a
    /// pre-flight problem, as for an initialised module.
    func uninitialisedProblem(_ module: Module, branch: String, pin: String) throws -> WorkingCopyProblem? {
        let names = try git.run(
            ["config", "--file", ".gitmodules", "-z", "--get-regexp", "^submodule\\..*\\.path$"], in: workspace.root,
            context: "read the submodule names of .gitmodules", accepting: [0, 1])
        var name: String?
        for record in names.stdout.split(separator: 0) {
            let text = String(decoding: record, as: UTF8.self)
            guard let newline = text.firstIndex(of: "\n"), text[text.index(after: newline)...] == module.path else {
                continue
            }
            let key = text[..<newline]
            name = String(key.dropFirst("submodule.".count).dropLast(".path".count))
        }
        guard let name else { return nil }
        let gitDirectory = try git.text(
            ["rev-parse", "--path-format=absolute", "--git-path", "modules/\(name)"], in: workspace.root,
            context: "find the git directory of module \(module.name)")
        guard FileManager.default.fileExists(atPath: (gitDirectory as NSString).appendingPathComponent("HEAD")) else {
            return nil
        }
        let branches = try GitRefs.branches(
            under: "refs/heads/", in: gitDirectory, git: git, what: "module \(module.name)")
        guard let tip = branches[branch], tip != pin else { return nil }
        let target = try WorkingCopyGit.commit(of: pin, in: gitDirectory, git: git)
        let unpublished = try WorkingCopyGit.unpublished(tip, beyond: target, in: gitDirectory, git: git)
        guard unpublished.count > 0 else { return nil }
        return WorkingCopyProblem(
            repository: module.name, path: module.path,
            reason: SwitchPlanner.unpublishedReason(
                branch: branch, target: target ?? pin, count: unpublished.count, listed: unpublished.listed)
                + " (the module is not checked out; its repository is \(gitDirectory))")
    }
}

/// A nested submodule (a module's own submodule) and where it stands.
public struct NestedSubmodule: Sendable, Codable, Equatable {
    /// Path relative to the superproject root (`Modules/Article/Vendor/Lib`).
    public var path: String
    /// The commit the module records for it.
    public var recorded: String
    /// Its HEAD; nil when it is not initialised.
    public var head: String?

    /// Whether it is initialised at its recorded commit.
    public var atRecorded: Bool { head == recorded }
}

/// Reads the nested submodules of a module, recursively, without changing anything.
enum NestedSubmodules {
    /// Every gitlink of the repository at `path` (its index), recursively; `prefix` is `path` relative to the
    /// superproject root. Repositories without `.gitmodules` are not asked (no git call).
    static func inspect(_ path: String, prefix: String, git: Git) throws(GitError) -> [NestedSubmodule] {
        guard FileManager.default.fileExists(atPath: (path as NSString).appendingPathComponent(".gitmodules")) else {
            return []
        }
        let output = try git.run(
            ["ls-files", "-z", "--stage"], in: path, context: "list the submodules of \(prefix)")
        var result: [NestedSubmodule] = []
        for record in output.stdout.split(separator: 0) {
            let text = String(decoding: record, as: UTF8.self)
            guard text.hasPrefix("160000 "), let tab = text.firstIndex(of: "\t") else { continue }
            let fields = text[..<tab].split(separator: " ")
            guard fields.count == 3 else { continue }
            let relative = String(text[text.index(after: tab)...])
            let absolute = (path as NSString).appendingPathComponent(relative)
            let display = prefix + "/" + relative
            var nested = NestedSubmodule(path: display, recorded: String(fields[1]), head: nil)
            if try WorkingCopyGit.presence(of: absolute, git: git) == .repository {
                let head = try git.run(
                    ["rev-parse", "--verify", "--quiet", "HEAD"], in: absolute, context: "read the HEAD of \(display)",
                    accepting: [0, 1])
                nested.head = head.status == 0 ? head.text : nil
                result.append(nested)
                result += try inspect(absolute, prefix: display, git: git)
            } else {
                result.append(nested)
            }
        }
        return result
    }
}

extension WorkingCopyGit {
    /// Local branches whose names clash with creating `branch` in the repository at `path`: a branch below it
    /// (`t3/wip` blocks `t3`) or above it (`t3` blocks `t3/wip`). git would refuse the creation half-way.
    static func branchNameClashes(_ branch: String, in path: String, git: Git) throws(GitError) -> [String] {
        let below = try GitRefs.branches(under: "refs/heads/\(branch)/", in: path, git: git, what: path)
            .keys.map { "\(branch)/\($0)" }
        var above: [String] = []
        var components = branch.split(separator: "/").dropLast()
        while !components.isEmpty {
            let name = components.joined(separator: "/")
            let found = try git.run(
                ["rev-parse", "--verify", "--quiet", "--end-of-options", "refs/heads/\(name)"], in: path,
                context: "look for branch \(name) in \(path)", accepting: [0, 1])
            if found.status == 0 { above.append(name) }
            components = components.dropLast()
        }
        return (below + above).sorted()
    }

    /// Untracked files, ignored ones included, in the repository at `path` (relative to its root, sorted): what a
    /// checkout that replaces the whole directory would delete.
    static func untrackedAndIgnored(in path: String, git: Git) throws(GitError) -> [String] {
        let output = try git.run(
            ["ls-files", "-z", "--others", "--directory", "--no-empty-directory"], in: path,
            context: "list the untracked and ignored files of \(path)")
        return output.stdout.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }.sorted()
    }

    /// The modes of `paths` in the tree of `commit` (`160000` for a gitlink, `100644` for a file, `040000` for a
    /// directory), by path; a path the commit has nothing at is absent. One git call for all of them.
    static func modes(of paths: [String], at commit: String, in repository: String, git: Git) throws(GitError)
        -> [String: String]
    {
        guard !paths.isEmpty else { return [:] }
        let output = try git.run(
            ["ls-tree", "-z", "--full-tree", "--end-of-options", commit, "--"] + paths, in: repository,
            context: "look up the module paths in \(ObjectID.short(commit))")
        let wanted = Set(paths)
        var result: [String: String] = [:]
        for record in output.stdout.split(separator: 0) {
            let text = String(decoding: record, as: UTF8.self)
            guard let tab = text.firstIndex(of: "\t") else { continue }
            let path = String(text[text.index(after: tab)...])
            if wanted.contains(path), let mode = text.split(separator: " ").first { result[path] = String(mode) }
        }
        return result
    }

    /// Whether `key` is set to true in the repository at `path` (git's own boolean rules, `--type=bool`).
    static func isTrue(_ key: String, in path: String, git: Git) throws(GitError) -> Bool {
        let output = try git.run(
            ["config", "--type=bool", "--get", key], in: path, context: "read \(key) in \(path)", accepting: [0, 1])
        return output.status == 0 && output.text == "true"
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
        let modes = try WorkingCopyGit.modes(
            of: checkouts.map(\.module.path), at: target, in: workspace.root, git: git)
        for context in checkouts {
            guard let mode = modes[context.module.path], mode != "160000" else { continue }
            for file in try WorkingCopyGit.untrackedAndIgnored(in: context.absolutePath, git: git) {
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
            let mode = try WorkingCopyGit.modes(of: [path], at: commit, in: workspace.root, git: git)[path]
        else { return false }
        return mode != "160000"
    }

    /// Modules whose URL in the `.gitmodules` of `commit` differs from `modules.json`'s (relative URLs resolved
    /// against the superproject's origin): module name → the `.gitmodules` URL. switch uses `modules.json`'s.
    func gitmodulesDrift(_ modules: [Module], at commit: String, superOrigin: String) throws -> [String: String] {
        Self.gitmodulesDrift(
            modules, entries: try GitmodulesReader.entries(at: commit, in: workspace.root, git: git),
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
