import Foundation

/// One module of one tenant.
public struct ModuleAudit: Sendable, Equatable, Encodable {
    /// Module name.
    public var module: String
    /// The commit the tenant branch pins; nil when the tenant branch has no gitlink for the module.
    public var pin: String?
    /// The module branch the tenant tracks: the tenant branch if declared customised, else `general_dev`.
    public var branch: String
    /// Declared customised in the tenant file.
    public var customised: Bool
    /// Non-merge commits reachable from the pin but not from the module's `general_dev`; nil when unknown.
    public var ahead: Int?
    /// Commits of the module's `general_dev` not reachable from the pin; nil when unknown.
    public var behind: Int?
    /// The pin equals the head of ``branch``.
    public var pinIsTip: Bool
    /// The module is in the tenant's effective active set.
    public var active: Bool
    /// Files the customisation changes relative to the merge base with `general_dev`; nil when they were not
    /// computed (audit computes them for the formats that show them, ``AuditRun/changedFiles``).
    public var changedFiles: [String]?
    /// What is wrong, if anything.
    public var findings: [AuditFinding]
    /// How the pin contains the general branch's changes that it lacks by ancestry: `squash` or `rebase`, when a
    /// review roll's proposal landed so (the landing tenantctl found: the run journal, the trailer of the landed
    /// commit); ``behind`` then counts only the general commits it lacks by content too. Nil otherwise.
    public var contained: String?

    /// Creates a module audit.
    public init(
        module: String, pin: String?, branch: String, customised: Bool, ahead: Int?, behind: Int?, pinIsTip: Bool,
        active: Bool, changedFiles: [String]?, findings: [AuditFinding]
    ) {
        self.module = module
        self.pin = pin
        self.branch = branch
        self.customised = customised
        self.ahead = ahead
        self.behind = behind
        self.pinIsTip = pinIsTip
        self.active = active
        self.changedFiles = changedFiles
        self.findings = findings
    }

    enum CodingKeys: String, CodingKey {
        case module, pin, branch, customised, ahead, behind, pinIsTip, active, changedFiles, findings, contained
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(module, forKey: .module)
        try container.encode(pin, forKey: .pin)
        try container.encode(branch, forKey: .branch)
        try container.encode(customised, forKey: .customised)
        try container.encode(ahead, forKey: .ahead)
        try container.encode(behind, forKey: .behind)
        try container.encode(pinIsTip, forKey: .pinIsTip)
        try container.encode(active, forKey: .active)
        try container.encode(changedFiles, forKey: .changedFiles)
        try container.encode(findings, forKey: .findings)
        try container.encodeIfPresent(contained, forKey: .contained)
    }
}
