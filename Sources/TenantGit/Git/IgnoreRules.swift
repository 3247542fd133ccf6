import Foundation

/// Which paths of a working tree git's ignore rules (`.gitignore`, `info/exclude`, `core.excludesFile`) exclude.
public enum IgnoreRules {
    /// An ignored path and the rule that ignores it.
    public struct Match: Sendable, Equatable {
        /// The path, relative to the working tree's root.
        public var path: String
        /// The file of the rule, as git names it (`.gitignore`, `.git/info/exclude`).
        public var source: String
        /// The rule's line in that file.
        public var line: String
        /// The rule (`/*`).
        public var pattern: String
    }

    /// The command a person runs to add `paths` although git ignores them (`git [-C <directory>] add -f -- …`).
    public static func forceAddCommand(_ paths: [String], directory: String?) -> [String] {
        (directory.map { ["git", "-C", $0] } ?? ["git"]) + ["add", "-f", "--"] + paths
    }

    /// The paths of `paths` (relative to `root`; they need not exist) that `git add` would refuse as ignored, with
    /// one `check-ignore --stdin`. Tracked paths are never ignored; a path a `!` rule takes back is not.
    public static func ignored(_ paths: [String], in root: String, git: Git) throws -> [Match] {
        guard !paths.isEmpty else { return [] }
        var input = Data()
        for path in paths {
            input.append(contentsOf: Array(path.utf8))
            input.append(0)
        }
        let output = try git.run(
            ["check-ignore", "-z", "--verbose", "--stdin"], in: root, input: input,
            context: "check which of tenantctl's files git ignores in \(root)", accepting: [0, 1])
        return parse(output.stdout)
    }

    /// Parses `check-ignore -z --verbose` output: `<source> NUL <line> NUL <pattern> NUL <path> NUL` per path that
    /// matched a rule; a match of a `!` rule (the path is not ignored) is left out.
    static func parse(_ data: Data) -> [Match] {
        let fields = data.split(separator: 0, omittingEmptySubsequences: false).map {
            String(decoding: $0, as: UTF8.self)
        }
        var matches: [Match] = []
        var index = 0
        while index + 3 < fields.count {
            let match = Match(
                path: fields[index + 3], source: fields[index], line: fields[index + 1], pattern: fields[index + 2])
            if !match.pattern.hasPrefix("!") { matches.append(match) }
            index += 4
        }
        return matches
    }
}
