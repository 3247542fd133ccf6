import Foundation

/// Calls of a working copy that talk to a remote (fetch, submodule clones), and the submodule set-up around them.
extension GitRepository {
    /// Fetches the remote `origin` of a module checkout (no submodules, no progress); `prune`: branches deleted on
    /// the remote are deleted here too.
    public func fetchOrigin(prune: Bool, module: String) throws(GitError) {
        try runNetwork(
            ["fetch", "--no-recurse-submodules", "--quiet"] + (prune ? ["--prune"] : []) + ["origin"],
            remote: "origin", context: "fetch module \(module)")
    }

    /// Initialises and clones the submodule at `path` (relative to this superproject) and checks out its recorded
    /// commit: `--checkout` overrides `update = none` (and any other update mode); the clone's remote is
    /// `remoteName` whatever `clone.defaultRemoteName` says. `reference`: a repository that holds the module's objects
    /// already (tenantctl's mirror of it, just fetched): the clone copies them from there and downloads only what it
    /// lacks, and keeps no link to it (`--reference … --dissociate`); ignored when the submodule's git directory
    /// exists already (nothing is cloned then).
    public func initialiseSubmodule(_ path: String, remoteName: String, module: String, reference: String? = nil)
        throws(GitError)
    {
        try runNetwork(
            [
                "-c", "clone.defaultRemoteName=\(remoteName)", "submodule", "--quiet", "update", "--init",
                "--checkout",
            ] + (reference.map { ["--reference", $0, "--dissociate"] } ?? []) + ["--", path],
            remote: "the remote of module \(module)", context: "initialise and clone module \(module)")
    }

    /// Initialises and updates every nested submodule, recursively, to the commit its repository records.
    public func updateSubmodulesRecursively(what: String) throws(GitError) {
        try runNetwork(
            ["submodule", "--quiet", "update", "--init", "--recursive"],
            remote: "the nested submodules' remotes of \(what)", context: "initialise the nested submodules of \(what)")
    }

    /// Copies the URLs of `.gitmodules` into the configuration of the submodules at `paths`.
    public func syncSubmodules(_ paths: [String]) throws(GitError) {
        try run(["submodule", "--quiet", "sync", "--"] + paths, context: "sync the module URLs from .gitmodules")
    }

    /// Puts the submodule at `path` back to not initialised (its git directory is kept).
    public func deinitialiseSubmodule(_ path: String, context: String) throws(GitError) {
        try run(["submodule", "--quiet", "deinit", "--force", "--", path], context: context)
    }
}

/// Reading a remote's refs (`ls-remote`, one parser: ``RemoteRef``).
extension GitRepository {
    /// The current values of `refs` on `remote` (a URL or a remote's name): ref → object id; refs the remote does
    /// not have are absent.
    public func remoteValues(of refs: [String], on remote: String, context: String) throws(GitError)
        -> [String: String]
    {
        let output = try runNetwork(["ls-remote", "--end-of-options", remote] + refs, remote: remote, context: context)
        var values: [String: String] = [:]
        for ref in RemoteRef.parse(output.lines) { if let id = ref.id { values[ref.name] = id } }
        return values
    }

    /// The tags of `remote`, name → the object it names (`ls-remote --tags --refs`: peeled tags left out).
    public func remoteTags(of remote: String, context: String) throws(GitError) -> [String: String] {
        let output = try runNetwork(["ls-remote", "--tags", "--refs", "--", remote], remote: remote, context: context)
        var tags: [String: String] = [:]
        for ref in RemoteRef.parse(output.lines) where ref.name.hasPrefix("refs/tags/") {
            guard let id = ref.id else { continue }
            tags[String(ref.name.dropFirst("refs/tags/".count))] = id
        }
        return tags
    }

    /// The branch `remote`'s HEAD names (its default branch), from `ls-remote --symref`; nil when it names none.
    public func remoteDefaultBranch(of remote: String, context: String) throws(GitError) -> String? {
        let output = try runNetwork(
            ["ls-remote", "--symref", "--end-of-options", remote, "HEAD"], remote: remote, context: context)
        for ref in RemoteRef.parse(output.lines) where ref.name == "HEAD" {
            if let target = ref.target, target.hasPrefix("refs/heads/") {
                return String(target.dropFirst("refs/heads/".count))
            }
        }
        return nil
    }

    /// Fetches every branch of `remote` into `prefix` (`+refs/heads/*:<prefix>*`, pruned), leaving local branches,
    /// the remote-tracking refs (`--refmap=`), tags, FETCH_HEAD and submodules alone; `unshallow`: completes a shallow
    /// clone's history.
    public func fetchBranches(of remote: String, into prefix: String, unshallow: Bool, context: String)
        throws(GitError)
    {
        var arguments = [
            "fetch", "--quiet", "--prune", "--no-tags", "--no-recurse-submodules", "--no-write-fetch-head",
            "--refmap=",
        ]
        if unshallow { arguments.append("--unshallow") }
        arguments += ["--end-of-options", remote, "+refs/heads/*:\(prefix)*"]
        try runNetwork(arguments, remote: remote, context: context)
    }

    /// Sets refs of this repository from the local repository `source`, which has their commits: one `fetch` of
    /// `+<source ref or commit id>:<ref>` pairs (no tags, FETCH_HEAD, submodules or configured refmap), as `git push` sets the
    /// remote-tracking refs of the branches it pushed.
    public func fetchRefs(_ pairs: [(source: String, destination: String)], from source: String, context: String)
        throws(GitError)
    {
        guard !pairs.isEmpty else { return }
        try run(
            [
                "fetch", "--quiet", "--no-tags", "--no-recurse-submodules", "--no-write-fetch-head", "--refmap=",
                "--end-of-options", source,
            ] + pairs.map { "+\($0.source):\($0.destination)" }, context: context)
    }

    /// Makes this bare mirror's branches and tags exactly those of `url` (`+refs/heads/*`, `+refs/tags/*`, pruned).
    public func fetchMirror(from url: String, context: String) throws(GitError) {
        try runNetwork(
            [
                "fetch", "--quiet", "--prune", "--no-tags", "--no-write-fetch-head", "--", url,
                "+refs/heads/*:refs/heads/*", "+refs/tags/*:refs/tags/*",
            ], remote: url, context: context)
    }

    /// Creates an empty bare repository at `path`; `objectFormat` (`sha1`) and `initialBranch` as git's `init` takes
    /// them, else git's defaults.
    @discardableResult
    public static func initBare(
        at path: String, git: Git, objectFormat: String? = nil, initialBranch: String? = nil, context: String
    ) throws(GitError) -> GitRepository {
        try git.run(
            ["init", "--bare", "--quiet"] + (objectFormat.map { ["--object-format=\($0)"] } ?? [])
                + (initialBranch.map { ["--initial-branch=\($0)"] } ?? []) + ["--", path], in: nil, context: context)
        return GitRepository(path, git: git)
    }

    /// Clones `url` into `directory` with `branch` checked out and the remote named `remoteName`.
    @discardableResult
    public static func clone(
        _ url: String, into directory: String, branch: String, remoteName: String, git: Git, context: String
    ) throws(GitError) -> GitRepository {
        try git.run(
            ["clone", "--quiet", "--origin", remoteName, "--branch", branch, "--", url, directory], in: nil,
            context: context)
        return GitRepository(directory, git: git)
    }

    /// Initialises and checks out every submodule (`jobs` at a time), clones' remotes named `remoteName`.
    public func initialiseSubmodules(remoteName: String, jobs: Int, context: String) throws(GitError) {
        try run(
            [
                "-c", "clone.defaultRemoteName=\(remoteName)", "submodule", "update", "--init", "--quiet", "--jobs",
                "\(jobs)",
            ], context: context)
    }

    /// The names of the configured remotes.
    public func remoteNames(context: String) throws(GitError) -> [String] {
        try run(["remote"], context: context).lines
    }
}
