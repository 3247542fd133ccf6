import Foundation

/// Lines added and removed between two commits, as `git diff --shortstat` counts them (renames detected, a binary
/// file counts no line).
public struct LineCount: Sendable, Equatable, Hashable {
    public var added: Int
    public var removed: Int

    public init(added: Int, removed: Int) {
        self.added = added
        self.removed = removed
    }

    /// Parses `git diff-tree --stdin --always --numstat` output: a commit id line per input line, in input order,
    /// then a `<added>\t<removed>\t<path>` line per changed file (`-` for a binary file). Nil when the output has
    /// another shape.
    public static func parse(_ data: Data) -> [LineCount]? {
        var result: [LineCount] = []
        var valid = true
        for line in data.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: true) {
            let fields = line.split(separator: UInt8(ascii: "\t"), maxSplits: 2, omittingEmptySubsequences: false)
            if fields.count == 1 {
                guard line.count == 40 || line.count == 64 else {
                    valid = false
                    break
                }
                result.append(LineCount(added: 0, removed: 0))
                continue
            }
            guard fields.count == 3, !result.isEmpty else {
                valid = false
                break
            }
            result[result.count - 1].added += number(fields[0])
            result[result.count - 1].removed += number(fields[1])
        }
        return valid ? result : nil
    }

    private static func number(_ field: Data.SubSequence) -> Int {
        Int(String(decoding: field, as: UTF8.self)) ?? 0  // `-`: a binary file
    }
}

extension GitRepository {
    /// The lines added and removed from each pair's `base` to its `commit`, in the pairs' order, with one
    /// `diff-tree --stdin` (what `git diff --shortstat <base> <commit>` counts, with git's default rename detection).
    public func lineCounts(between pairs: [(commit: String, base: String)], what: String) throws -> [LineCount] {
        guard !pairs.isEmpty else { return [] }
        let context = "count the lines changed in \(what)"
        let arguments = ["diff-tree", "--stdin", "-r", "--numstat", "-M", "--always"]
        let input = pairs.map { "\($0.commit) \($0.base)\n" }.joined()
        let output = try run(arguments, context: context, input: Data(input.utf8))
        guard let counts = LineCount.parse(output.stdout), counts.count == pairs.count else {
            throw unparseable(arguments, output: output, detail: "diff-tree --numstat", context: context)
        }
        return counts
    }

    /// The committer date (seconds since 1970) of the commit `revision` names, or nil when it names none.
    public func committerDate(of revision: String, context: String) throws -> Int? {
        let arguments = ["log", "-1", "--no-walk", "--format=tformat:%ct", "--end-of-options", revision, "--"]
        let output = try run(arguments, context: context, accepting: [0, 128])
        guard output.status == 0 else { return nil }
        return Int(output.text.trimmingCharacters(in: .whitespacesAndNewlines))
    }
}
