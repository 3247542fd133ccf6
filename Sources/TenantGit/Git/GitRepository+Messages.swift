import Foundation

/// Commit messages found on first-parent lines: what a forge kept of a proposal's messages when it squashed it.
extension GitRepository {
    /// One commit of a first-parent line whose message holds the text looked for.
    public struct FoundMessage: Sendable, Equatable {
        /// The commit.
        public var commit: String
        /// The tip (one of those asked for) whose first-parent line it was reached on.
        public var tip: String
        /// Its parents, first parent first.
        public var parents: [String]
        /// Its whole message.
        public var message: String

        public init(commit: String, tip: String, parents: [String], message: String) {
            self.commit = commit
            self.tip = tip
            self.parents = parents
            self.message = message
        }
    }

    /// The commits on the first-parent lines of `tips` (commit ids) that `excluded` lacks whose message contains
    /// `text` (a fixed string, on any line), each with the tip it was reached from; a commit reached from several
    /// tips is listed once. One `git log --first-parent --topo-order --source --fixed-strings --grep --stdin`: the
    /// tips are read from its input, so their number is not bounded by the command line.
    public func firstParentCommits(
        of tips: [String], excluding excluded: String, messageContaining text: String, context: String
    ) throws(GitError) -> [FoundMessage] {
        guard !tips.isEmpty else { return [] }
        let input = (tips + ["^" + excluded]).joined(separator: "\n") + "\n"
        let output = try run(
            [
                "log", "--first-parent", "--topo-order", "--source", "--fixed-strings", "--grep=" + text,
                "--format=%H%x1f%S%x1f%P%x1f%B%x1e", "--stdin",
            ], context: context, input: Data(input.utf8))
        return Self.parseFoundMessages(output.text)
    }

    /// The commits of `git log --format=%H%x1f%S%x1f%P%x1f%B%x1e` output.
    static func parseFoundMessages(_ text: String) -> [FoundMessage] {
        text.split(separator: "\u{1E}").compactMap { record -> FoundMessage? in
            let fields = record.drop(while: { $0.isNewline }).split(
                separator: "\u{1F}", maxSplits: 3, omittingEmptySubsequences: false)
            guard fields.count == 4, ObjectID.isValid(String(fields[0])) else { return nil }
            return FoundMessage(
                commit: String(fields[0]), tip: String(fields[1]),
                parents: fields[2].split(separator: " ").map(String.init),
                message: String(fields[3]))
        }
    }
}
