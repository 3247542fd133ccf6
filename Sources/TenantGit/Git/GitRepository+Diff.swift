import Foundation

extension GitRepository {
    /// How ``diff(from:to:format:prefix:color:context:)`` prints.
    public enum DiffFormat: Sendable {
        /// The patch, as `git diff` prints it.
        case patch
        /// `git diff --stat`.
        case stat
    }

    /// `git diff <from> <to>` of two commits of this repository, as git prints it: the paths prefixed with
    /// `prefix` (`a/<prefix>`, `b/<prefix>`: a module's files named from the superproject, as `git diff
    /// --submodule=diff` names them), in colour when `color`. No external diff driver or text conversion runs.
    ///
    /// `sinceMergeBase`: `git diff <from>...<to>`, what `to` changed since it forked off `from` (from their merge
    /// base), not what `from` has that `to` lacks. `ignoringSubmodules`: gitlinks left out (`--ignore-submodules=all`).
    public func diff(
        from: String, to: String, format: DiffFormat, prefix: String, color: Bool, sinceMergeBase: Bool = false,
        ignoringSubmodules: Bool = false, context: String
    ) throws(GitError) -> Data {
        var arguments = [
            "diff", "--no-ext-diff", "--no-textconv", color ? "--color=always" : "--no-color",
            "--src-prefix=a/\(prefix)", "--dst-prefix=b/\(prefix)",
        ]
        if format == .stat { arguments.append("--stat") }
        if ignoringSubmodules { arguments.append("--ignore-submodules=all") }
        let commits = sinceMergeBase ? ["\(from)...\(to)"] : [from, to]
        return try run(arguments + ["--end-of-options"] + commits + ["--"], context: context).stdout
    }
}
