import Foundation

/// The tenant's superproject branch compared with the superproject's `general_dev`.
public struct SuperprojectAudit: Sendable, Equatable, Encodable {
    /// Non-merge commits on the tenant branch that are not on `general_dev`; nil when the branch is missing.
    public var ahead: Int?
    /// Commits of `general_dev` not on the tenant branch; nil when the branch is missing.
    public var behind: Int?
    /// Files (not module pins) the tenant branch changes relative to its merge base with `general_dev`; nil when
    /// they were not computed (``AuditRun/changedFiles``).
    public var changedFiles: [String]?
    /// Problems with the tenant branch itself (`missing-branch`).
    public var findings: [AuditFinding]
    /// How the branch contains the general branch's changes that it lacks by ancestry: `squash` or `rebase`, when a
    /// review roll's proposal landed so; ``behind`` then counts only the general commits it lacks by content too.
    public var contained: String?

    /// Creates a superproject audit.
    public init(ahead: Int?, behind: Int?, changedFiles: [String]?, findings: [AuditFinding]) {
        self.ahead = ahead
        self.behind = behind
        self.changedFiles = changedFiles
        self.findings = findings
    }

    enum CodingKeys: String, CodingKey { case ahead, behind, changedFiles, findings, contained }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(ahead, forKey: .ahead)
        try container.encode(behind, forKey: .behind)
        try container.encode(changedFiles, forKey: .changedFiles)
        try container.encode(findings, forKey: .findings)
        try container.encodeIfPresent(contained, forKey: .contained)
    }
}
