import Foundation

/// Questions about a repository's commits: counts, ancestry, commits no remote holds.
extension GitRepository {
    /// One commit of a listing: its id, parents and subject.
    public struct ListedCommit: Sendable, Equatable {
        public var id: String
        public var parents: [String]
        public var subject: String
    }

    /// Commits only in `left` and only in `right` (`rev-list --left-right --count left...right`).
    public func counts(_ left: String, _ right: String) throws(GitError) -> (left: Int, right: Int) {
        if left == right { return (0, 0) }
        let arguments = ["rev-list", "--left-right", "--count", "--end-of-options", "\(left)...\(right)"]
        let context = "compare \(ObjectID.short(left)) with \(ObjectID.short(right)) in \(path)"
        let output = try run(arguments, context: context)
        let text = output.text
        let parts = text.split(whereSeparator: { $0 == "\t" || $0 == " " })
        guard parts.count == 2, let a = Int(parts[0]), let b = Int(parts[1]) else {
            throw unparseable(arguments, output: output, detail: text, context: "compare commits in \(path)")
        }
        return (a, b)
    }

    /// Whether a commit reachable from `tip` has `text` in its message (`rev-list -1 --fixed-strings --grep`).
    public func hasCommit(from tip: String, withMessage text: String, context: String) throws(GitError) -> Bool {
        try !run(["rev-list", "-1", "--fixed-strings", "--grep=\(text)", "--end-of-options", tip], context: context)
            .text.isEmpty
    }

    /// The number of commits reachable from `tip` and from no remote-tracking branch (nor, with `orLocalBranches`,
    /// from any local branch).
    public func countCommits(from tip: String, orLocalBranches: Bool = false, context: String) throws(GitError) -> Int {
        let arguments = ["rev-list", "--count", tip, "--not"] + (orLocalBranches ? ["--branches"] : []) + ["--remotes"]
        let output = try run(arguments, context: context)
        guard let value = Int(output.text) else {
            throw unparseable(arguments, output: output, detail: output.text, context: context)
        }
        return value
    }

    /// The commits `tip` has beyond `target` that no remote-tracking branch (nor tenantctl's own remote refs)
    /// holds: their count, and the first ten as `<short id> <subject>`.
    /// (`target` nil: the repository does not have it; every commit no remote-tracking branch holds counts.)
    public func unpublished(_ tip: String, beyond target: String?) throws(GitError) -> (count: Int, listed: [String]) {
        let output = try run(
            ["log", "--format=%H %s", tip, "--not"] + (target.map { [$0] } ?? [])
                + ["--remotes", "--glob=refs/tenantctl/remotes/*", "--"],
            context: "look for commits of \(ObjectID.short(tip)) that no remote branch holds in \(path)")
        let lines = output.lines.filter { !$0.isEmpty }
        let listed = lines.prefix(10).map { line -> String in
            guard let space = line.firstIndex(of: " ") else { return ObjectID.short(line) }
            return "\(ObjectID.short(String(line[..<space]))) \(line[line.index(after: space)...])"
        }
        return (lines.count, Array(listed))
    }

    /// The commits reachable from `tip` and from none of `excluded` (commit ids; ids this repository does not have are
    /// skipped) nor from any remote-tracking branch, newest first.
    public func commits(from tip: String, excluding excluded: [String], what: String) throws(GitError)
        -> [ListedCommit]
    {
        let ids = Set(excluded.filter { ObjectID.isValid($0) }).sorted()
        guard ObjectID.isValid(tip) else { return [] }
        let output = try run(
            ["rev-list", "--ignore-missing", "--no-commit-header", "--format=%H%x01%P%x01%s", tip]
                + ids.map { "^" + $0 } + ["--not", "--remotes"],
            context: "list the commits of \(what) that no other branch has")
        return output.lines.compactMap { line in
            let fields = line.split(separator: "\u{01}", maxSplits: 2, omittingEmptySubsequences: false)
            guard fields.count == 3 else { return nil }
            return ListedCommit(
                id: String(fields[0]), parents: fields[1].split(separator: " ").map(String.init),
                subject: String(fields[2]))
        }
    }

    /// Whether `ancestor` is an ancestor of (or equal to) `descendant` (`merge-base --is-ancestor`).
    public func isAncestor(_ ancestor: String, of descendant: String, context: String? = nil) throws(GitError) -> Bool {
        try run(
            ["merge-base", "--is-ancestor", "--end-of-options", ancestor, descendant],
            context: context ?? "check whether \(ObjectID.short(ancestor)) is in \(ObjectID.short(descendant))",
            accepting: [0, 1]
        ).status == 0
    }
}
