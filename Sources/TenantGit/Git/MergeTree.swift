import Foundation

/// One result of `git merge-tree --write-tree`.
public struct MergeTreeResult: Sendable, Equatable {
    /// True when the merge had no conflict.
    public var clean: Bool
    /// The written tree (with conflict markers, or the first side for gitlinks, when not clean).
    public var tree: String
    /// Conflicted paths (deduplicated, sorted).
    public var paths: [String]

    public init(clean: Bool, tree: String, paths: [String]) {
        self.clean = clean
        self.tree = tree
        self.paths = paths
    }
}

/// Merges without a working tree: any number of merges of one repository in one
/// `merge-tree --write-tree --stdin` process (git 2.38+).
public enum MergeTree {
    /// Merges every pair (`ours`, `theirs`) of commits of `repository`; returns one result per pair, in order.
    public static func merge(_ pairs: [(ours: String, theirs: String)], in repository: String, git: Git, what: String)
        throws -> [MergeTreeResult]
    {
        guard !pairs.isEmpty else { return [] }
        for pair in pairs {
            guard ObjectID.isValid(pair.ours), ObjectID.isValid(pair.theirs) else {
                throw MergeTreeError("refusing to merge \(pair.ours) and \(pair.theirs) in \(what): not object ids")
            }
        }
        let input = pairs.map { "\($0.ours) \($0.theirs)\n" }.joined()
        let output = try git.run(
            ["merge-tree", "--write-tree", "--stdin", "--name-only", "--no-messages"], in: repository,
            input: Data(input.utf8), context: "merge \(pairs.count) pair\(pairs.count == 1 ? "" : "s") in \(what)")
        guard let results = parse(output.stdout, count: pairs.count) else {
            throw MergeTreeError("cannot parse the merge-tree output of \(what)")
        }
        return results
    }

    /// Parses `merge-tree --write-tree --stdin --name-only --no-messages` output (`-z` records).
    public static func parse(_ data: Data, count: Int) -> [MergeTreeResult]? {
        let fields = data.split(separator: 0, omittingEmptySubsequences: false).map {
            String(decoding: $0, as: UTF8.self)
        }
        var results: [MergeTreeResult] = []
        var index = 0
        while results.count < count {
            guard index + 1 < fields.count else { return nil }
            let status = fields[index]
            let tree = fields[index + 1]
            guard status == "0" || status == "1", ObjectID.isValid(tree) else { return nil }
            index += 2
            var paths: [String] = []
            while index < fields.count, !fields[index].isEmpty {
                paths.append(fields[index])
                index += 1
            }
            guard index < fields.count else { return nil }
            index += 1  // the empty field that ends this result
            results.append(MergeTreeResult(clean: status == "1", tree: tree, paths: Array(Set(paths)).sorted()))
        }
        return results
    }
}

/// A merge could not be run or read.
public struct MergeTreeError: Error, Sendable, Equatable, CustomStringConvertible {
    public var description: String

    public init(_ description: String) { self.description = description }
}
