import Foundation

/// The commits behind one audit cell's counts (`audit --tenant t2 --module Order`): the commits of the module's
/// general branch the pin lacks (`↓n`) and the tenant's own commits on it (`✎n`, merges left out, as counted).
public struct AuditCellCommits: Sendable, Equatable, Encodable {
    /// One commit: full id, author, subject.
    public typealias Commit = GitRepository.LoggedCommit

    /// The most commits listed per kind; the totals say how many there are.
    public static let limit = 20

    /// The tenant.
    public var tenant: String
    /// The module.
    public var module: String
    /// The pinned commit.
    public var pin: String
    /// The module's general branch and its tip.
    public var generalBranch: String
    public var generalCommit: String
    /// The general branch's commits the pin lacks, newest first (at most ``limit``) and how many there are.
    public var behind: [Commit]
    public var behindTotal: Int
    /// The pin's own commits (no merges) not on the general branch, newest first (at most ``limit``), and how many.
    public var customised: [Commit]
    public var customisedTotal: Int

    /// Reads the commits from the module's repository (its mirror): 4 git processes.
    public static func load(
        tenant: String, module: String, pin: String, generalBranch: String, generalCommit: String,
        repository: GitRepository
    ) throws -> AuditCellCommits {
        let what = "the commits of \(tenant)/\(module)"
        func commits(_ range: String, merges: Bool) throws -> (list: [Commit], total: Int) {
            let total = try repository.count(range: range, merges: merges, context: "count " + what)
            let list = try repository.log(range: range, limit: limit, merges: merges, context: "read " + what)
            return (list, total)
        }
        let behind = try commits("\(pin)..\(generalCommit)", merges: true)
        let customised = try commits("\(generalCommit)..\(pin)", merges: false)
        return AuditCellCommits(
            tenant: tenant, module: module, pin: pin, generalBranch: generalBranch, generalCommit: generalCommit,
            behind: behind.list, behindTotal: behind.total, customised: customised.list,
            customisedTotal: customised.total)
    }

    /// The commits as text for a terminal (control characters escaped; subjects are free text).
    public func render() -> String {
        var lines = [
            "\(tenant)/\(module): pin \(ObjectID.short(pin)), \(generalBranch) at \(ObjectID.short(generalCommit))"
        ]
        func section(_ title: String, _ commits: [Commit], total: Int) {
            lines.append("")
            lines.append("\(title) (\(total)):")
            if commits.isEmpty { lines.append("  none") }
            for commit in commits {
                lines.append(
                    "  \(ObjectID.short(commit.id))  \(TerminalText.escaped(commit.subject))  "
                        + "(\(TerminalText.escaped(commit.author)))")
            }
            if total > commits.count { lines.append("  … and \(total - commits.count) more") }
        }
        section("behind \(generalBranch): its commits the pin lacks", behind, total: behindTotal)
        section("customised: the tenant's commits not on \(generalBranch)", customised, total: customisedTotal)
        return lines.joined(separator: "\n")
    }
}
