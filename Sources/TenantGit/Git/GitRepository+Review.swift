import Foundation

/// What the review roll reads of a repository to follow a proposal: the target's first-parent line, a commit's
/// parents and tree, a branch's value.
extension GitRepository {
    /// The first-parent commits of `tip` after `base`, oldest first (`rev-list --first-parent --reverse`).
    public func firstParentLine(after base: String, to tip: String, context: String) throws(GitError) -> [String] {
        try run(
            ["rev-list", "--first-parent", "--reverse", "--end-of-options", tip, "^" + base], context: context
        ).lines.filter { !$0.isEmpty }
    }

    /// The parents of `commit`, first parent first.
    public func parents(of commit: String, context: String) throws(GitError) -> [String] {
        let fields = try run(["rev-list", "--parents", "-n", "1", "--end-of-options", commit], context: context)
            .text.split(separator: " ").map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
        return Array(fields.dropFirst())
    }

    /// The tree of `commit`.
    public func tree(of commit: String, context: String) throws(GitError) -> String {
        try run(["rev-parse", "--verify", "--end-of-options", commit + "^{tree}"], context: context).text
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The value of `ref` in this repository, nil when it does not exist.
    public func refValue(_ ref: String, context: String) throws(GitError) -> String? {
        let output = try run(
            ["rev-parse", "--verify", "--quiet", "--end-of-options", ref + "^{commit}"], context: context,
            accepting: [0, 1])
        let value = output.text.trimmingCharacters(in: .whitespacesAndNewlines)
        return output.status == 0 && !value.isEmpty ? value : nil
    }

    /// The subjects of the commits of `tip` that `base` lacks, merges left out.
    public func subjects(of tip: String, excluding base: String, context: String) throws(GitError) -> Set<String> {
        Set(
            try run(
                ["log", "--no-merges", "--format=%s", "--end-of-options", tip, "^" + base], context: context
            ).lines.filter { !$0.isEmpty })
    }
}
