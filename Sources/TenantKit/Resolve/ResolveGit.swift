import Foundation

/// The few working-copy git queries and writes resolve needs beyond switch's: start points, unmerged paths,
/// conflict markers, ancestry. Every call goes through the runner.
enum ResolveGit {
    /// Where a repository stands now: its checked-out branch, HEAD and local branches.
    static func startPoint(repository: String, path: String, relativePath: String, git: Git) throws
        -> ResolveState.StartPoint
    {
        guard try WorkingCopyGit.presence(of: path, git: git) == .repository else {
            return ResolveState.StartPoint(
                repository: repository, path: relativePath, initialised: false, headBranch: nil, head: nil,
                branches: [:])
        }
        let symbolic = try git.run(
            ["symbolic-ref", "--quiet", "HEAD"], in: path, context: "read the branch of \(repository)",
            accepting: [0, 1])
        let head = try git.run(
            ["rev-parse", "--verify", "--quiet", "HEAD"], in: path, context: "read the HEAD of \(repository)",
            accepting: [0, 1])
        let branches = try GitRefs.branches(under: "refs/heads/", in: path, git: git, what: repository)
        let branch =
            symbolic.status == 0 && symbolic.text.hasPrefix("refs/heads/")
            ? String(symbolic.text.dropFirst("refs/heads/".count)) : nil
        return ResolveState.StartPoint(
            repository: repository, path: relativePath, initialised: true, headBranch: branch,
            head: head.status == 0 ? head.text : nil, branches: branches)
    }

    /// One commit of a listing: its id, parents and subject.
    struct ListedCommit: Sendable, Equatable {
        var id: String
        var parents: [String]
        var subject: String
    }

    /// The commits reachable from `tip` and from none of `excluded` (commit ids; ids this repository does not have are
    /// skipped) nor from any remote-tracking branch, newest first.
    static func commits(from tip: String, excluding excluded: [String], in path: String, git: Git, what: String)
        throws -> [ListedCommit]
    {
        let ids = Set(excluded.filter { ObjectID.isValid($0) }).sorted()
        guard ObjectID.isValid(tip) else { return [] }
        let output = try git.run(
            ["rev-list", "--ignore-missing", "--no-commit-header", "--format=%H%x01%P%x01%s", tip]
                + ids.map { "^" + $0 } + ["--not", "--remotes"], in: path,
            context: "list the commits of \(what) that no other branch has")
        return output.lines.compactMap { line in
            let fields = line.split(separator: "\u{01}", maxSplits: 2, omittingEmptySubsequences: false)
            guard fields.count == 3 else { return nil }
            return ListedCommit(
                id: String(fields[0]), parents: fields[1].split(separator: " ").map(String.init),
                subject: String(fields[2]))
        }
    }

    /// Paths with unmerged index entries (`ls-files -u -z`), sorted.
    static func unmergedPaths(in path: String, git: Git, what: String) throws -> [String] {
        let output = try git.run(["ls-files", "-u", "-z"], in: path, context: "list the unmerged paths of \(what)")
        var paths: Set<String> = []
        for record in output.stdout.split(separator: 0) {
            let text = String(decoding: record, as: UTF8.self)
            guard let tab = text.firstIndex(of: "\t") else { continue }
            paths.insert(String(text[text.index(after: tab)...]))
        }
        return paths.sorted()
    }

    /// Which of `files` (relative to `path`) still hold a conflict marker line (`<<<<<<< ` or `>>>>>>> `, git's
    /// default marker size, at the start of a line) or cannot be read. Missing files and directories (a gitlink) hold
    /// none.
    static func filesWithMarkers(_ files: [String], in path: String) -> [String] {
        files.filter { file in
            let full = (path as NSString).appendingPathComponent(file)
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: full, isDirectory: &isDirectory), !isDirectory.boolValue
            else { return false }
            // A file that cannot be read cannot be shown free of markers: it is named (fail closed).
            guard let data = FileManager.default.contents(atPath: full) else { return true }
            return hasMarkers(data)
        }
    }

    /// Whether `data` has a line starting with seven `<` or seven `>` followed by a space or the end of the line.
    static func hasMarkers(_ data: Data) -> Bool {
        let bytes = [UInt8](data)
        var start = 0
        while start < bytes.count {
            var end = start
            while end < bytes.count && bytes[end] != 10 { end += 1 }
            if end - start >= 7 {
                let first = bytes[start]
                if first == 60 || first == 62 {  // "<" or ">"
                    let run = bytes[start..<start + 7].allSatisfy { $0 == first }
                    let next = start + 7 < end ? bytes[start + 7] : 10
                    if run && (next == 32 || next == 10 || next == 13) { return true }
                }
            }
            start = end + 1
        }
        return false
    }

    /// Whether `ancestor` is reachable from `descendant`.
    static func isAncestor(_ ancestor: String, of descendant: String, in path: String, git: Git) throws -> Bool {
        let output = try git.run(
            ["merge-base", "--is-ancestor", "--end-of-options", ancestor, descendant], in: path,
            context: "check whether \(ObjectID.short(ancestor)) is in \(ObjectID.short(descendant)) in \(path)",
            accepting: [0, 1])
        return output.status == 0
    }

    /// Fetches `origin` in a module checkout unless it already has every commit of `commits`.
    static func ensureCommits(_ commits: [String], in path: String, module: String, git: Git, console: Console?)
        throws
    {
        for commit in commits where try !WorkingCopyGit.hasCommit(commit, in: path, git: git) {
            console?.progress("fetching \(module)")
            try git.runNetwork(
                ["fetch", "--no-recurse-submodules", "--quiet", "origin"], in: path, remote: "origin",
                context: "fetch module \(module)")
            for commit in commits where try !WorkingCopyGit.hasCommit(commit, in: path, git: git) {
                throw ResolveError(
                    .refused,
                    "commit \(ObjectID.short(commit)) is not in \(module) even after fetching origin; is it pushed?")
            }
            return
        }
    }
}
