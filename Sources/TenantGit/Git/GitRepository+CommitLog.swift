import Foundation

/// The commits of a range, as a person reads them: ids, authors, subjects (audit's cell and page commits).
extension GitRepository {
    /// One commit of a log: full id, author, subject.
    public struct LoggedCommit: Sendable, Equatable, Encodable {
        public var id: String
        public var author: String
        public var subject: String

        public init(id: String, author: String, subject: String) {
            self.id = id
            self.author = author
            self.subject = subject
        }
    }

    /// The number of commits in `range` (`rev-list --count`; `merges: false` leaves merge commits out).
    public func count(range: String, merges: Bool, context: String) throws(GitError) -> Int {
        let arguments = ["rev-list", "--count"] + (merges ? [] : ["--no-merges"]) + ["--end-of-options", range]
        let output = try run(arguments, context: context)
        guard let value = Int(output.text) else {
            throw unparseable(arguments, output: output, detail: output.text, context: context)
        }
        return value
    }

    /// The newest `limit` commits of `range`, newest first (`git log -n`; `merges: false` leaves merges out).
    public func log(range: String, limit: Int, merges: Bool, context: String) throws(GitError) -> [LoggedCommit] {
        let output = try run(
            ["log", "--format=%H%x1f%an%x1f%s%x1e", "-n", "\(limit)"] + (merges ? [] : ["--no-merges"])
                + ["--end-of-options", range], context: context)
        return Self.parseLog(output.text)
    }

    /// The commits of `git log --format=%H%x1f%an%x1f%s%x1e` output.
    static func parseLog(_ text: String) -> [LoggedCommit] {
        text.split(separator: "\u{1E}").compactMap { record -> LoggedCommit? in
            let fields = record.trimmingCharacters(in: .newlines).split(
                separator: "\u{1F}", maxSplits: 2, omittingEmptySubsequences: false)
            guard fields.count == 3 else { return nil }
            return LoggedCommit(id: String(fields[0]), author: String(fields[1]), subject: String(fields[2]))
        }
    }
}
