import Foundation

/// The author and committer of the commits tenantctl writes (`Name <email> <time> <zone>`), and whether the user's
/// config asks for them to be signed.
public struct CommitIdentity: Sendable, Equatable {
    public var author: String
    public var committer: String
    /// `commit.gpgSign` is true: every commit is signed as `git commit` would sign it (`gpg.format`,
    /// `user.signingKey`, `gpg.<format>.program`).
    public var signs: Bool

    public init(author: String, committer: String, signs: Bool = false) {
        self.author = author
        self.committer = committer
        self.signs = signs
    }

    /// Read the way `git commit` reads them in `repository`: `git var GIT_AUTHOR_IDENT` and `GIT_COMMITTER_IDENT`
    /// (strict: they fail where `git commit` would, with no email configured or `user.useConfigOnly` set, and the
    /// error carries git's own hint), honouring `GIT_AUTHOR_*` / `GIT_COMMITTER_*`; and `commit.gpgSign`. Call it
    /// before the first write, so that a missing identity changes nothing.
    public static func read(in repository: String, git: Git) throws -> CommitIdentity {
        func ident(_ name: String) throws -> String {
            let value = try git.run(
                ["var", name], in: repository,
                context: "read the \(name == "GIT_AUTHOR_IDENT" ? "author" : "committer") identity "
                    + "(the one git commit would use; set user.name and user.email)"
            ).text.trimmingCharacters(in: .newlines)
            guard !value.isEmpty else {
                throw CommitWriterError(
                    "git var \(name) printed no identity in \(repository); set user.name and user.email")
            }
            return value
        }
        let author = try ident("GIT_AUTHOR_IDENT")
        let committer = try ident("GIT_COMMITTER_IDENT")
        let sign = try git.run(
            ["config", "--type=bool", "--get", "commit.gpgsign"], in: repository,
            context: "read commit.gpgSign", accepting: [0, 1])
        return CommitIdentity(author: author, committer: committer, signs: sign.text.hasPrefix("true"))
    }

    /// `GIT_AUTHOR_NAME`, `_EMAIL`, `_DATE` and the committer's: the identity for `git commit-tree`.
    func environment() throws -> [String: String] {
        var result: [String: String] = [:]
        for (role, line) in [("AUTHOR", author), ("COMMITTER", committer)] {
            guard let open = line.lastIndex(of: "<"), let close = line.lastIndex(of: ">"), open < close else {
                throw CommitWriterError("the commit identity \(line.debugDescription) is not Name <email> date")
            }
            result["GIT_\(role)_NAME"] = String(line[..<open]).trimmingCharacters(in: .whitespaces)
            result["GIT_\(role)_EMAIL"] = String(line[line.index(after: open)..<close])
            result["GIT_\(role)_DATE"] = String(line[line.index(after: close)...]).trimmingCharacters(in: .whitespaces)
        }
        return result
    }
}
