import Foundation

/// What `tenantctl audit` found: per tenant, the superproject branch and every module.
public struct AuditReport: Sendable, Equatable, Encodable {
    /// The version of this report's JSON schema (`docs/audit-schema.json`).
    public static let schemaVersion = 1

    /// The shared development branch everything is compared with.
    public var generalBranch: String
    /// The tenants, in tenant-file order.
    public var tenants: [TenantAudit]
    /// The module names, in manifest order (the columns of the matrix).
    public var modules: [String]
    /// Findings of no single cell: a module remote that could not be fetched (`unreachable-remote`), a checked-out
    /// project file that is invalid on a pull request (`invalid-file`, `invalid-tenant-file`).
    public var findings: [AuditFinding]
    /// What the report describes and when it was made (a CI artifact says so), or nil.
    public var source: AuditSource?
    /// The commits of one cell, when asked for (`audit --tenant t2 --module Order`), or nil.
    public var cell: AuditCellCommits?

    /// Creates a report.
    public init(
        generalBranch: String, modules: [String], tenants: [TenantAudit], findings: [AuditFinding] = [],
        source: AuditSource? = nil
    ) {
        self.generalBranch = generalBranch
        self.modules = modules
        self.tenants = tenants
        self.findings = findings
        self.source = source
    }

    /// Whether any tenant is behind or has a finding, or the report has a finding of its own (`--check` fails);
    /// findings that only inform (``FindingCode/isInformation``) do not count.
    public var needsAttention: Bool {
        FindingCode.failsGate(findings.map(\.code)) || tenants.contains { $0.needsAttention }
    }

    /// Whether a module remote could not be fetched (the report is partial: audit exits 1).
    public var isPartial: Bool { findings.contains { $0.code == .unreachableRemote } }

    /// Every finding with the tenant and module (nil for the superproject) it belongs to, in report order.
    public var allFindings: [(tenant: String, module: String?, finding: AuditFinding)] {
        var result: [(tenant: String, module: String?, finding: AuditFinding)] = []
        for tenant in tenants {
            for finding in tenant.superproject.findings { result.append((tenant.id, nil, finding)) }
            for module in tenant.modules {
                for finding in module.findings { result.append((tenant.id, module.module, finding)) }
            }
        }
        return result
    }

    enum CodingKeys: String, CodingKey {
        case schemaVersion, generalBranch, modules, tenants, findings, source, cell
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(Self.schemaVersion, forKey: .schemaVersion)
        try container.encode(generalBranch, forKey: .generalBranch)
        try container.encode(modules, forKey: .modules)
        try container.encode(tenants, forKey: .tenants)
        try container.encode(findings, forKey: .findings)
        try container.encodeIfPresent(source, forKey: .source)
        try container.encodeIfPresent(cell, forKey: .cell)
    }
}

/// What an audit report describes: the general branch's commit on which remote, when, by which tenantctl.
public struct AuditSource: Sendable, Equatable, Encodable {
    /// The full id of the general branch's commit the tenants were compared with.
    public var generalCommit: String
    /// When the report was made (ISO 8601, UTC).
    public var generatedAt: String
    /// The superproject's remote's name (`origin`).
    public var remote: String
    /// Its URL with any password or token replaced by `***`, or nil when it has none.
    public var url: String?
    /// The tenantctl that made the report.
    public var tenantctlVersion: String

    /// Creates a source; `url` is redacted here.
    public init(
        generalCommit: String, generatedAt: Date = Date(), remote: String, url: String?,
        tenantctlVersion: String = TenantKitInfo.version
    ) {
        self.generalCommit = generalCommit
        self.generatedAt = Self.timestamp(generatedAt)
        self.remote = remote
        self.url = url.map(RemoteURL.redacted)
        self.tenantctlVersion = tenantctlVersion
    }

    /// `date` as `2026-11-24T04:30:00Z`.
    static func timestamp(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.timeZone = TimeZone(identifier: "UTC")
        return formatter.string(from: date)
    }

    /// One line for a person: `general_dev at 1a2b3c4 on origin (https://…), 2026-11-24T04:30:00Z, tenantctl 1.0`.
    public func line(generalBranch: String) -> String {
        "\(generalBranch) at \(ObjectID.short(generalCommit)) on \(remote)\(url.map { " (\($0))" } ?? ""), "
            + "\(generatedAt), tenantctl \(tenantctlVersion)"
    }
}

/// One tenant's audit.
public struct TenantAudit: Sendable, Equatable, Encodable {
    /// Tenant id.
    public var id: String
    /// The tenant's superproject branch.
    public var branch: String
    /// The superproject branch compared with `general_dev`.
    public var superproject: SuperprojectAudit
    /// One entry per module, in manifest order.
    public var modules: [ModuleAudit]

    /// Creates a tenant audit.
    public init(id: String, branch: String, superproject: SuperprojectAudit, modules: [ModuleAudit]) {
        self.id = id
        self.branch = branch
        self.superproject = superproject
        self.modules = modules
    }

    /// Behind anywhere, or any finding that is more than information (``FindingCode/isInformation``).
    public var needsAttention: Bool {
        (superproject.behind ?? 0) > 0 || FindingCode.failsGate(superproject.findings.map(\.code))
            || modules.contains { ($0.behind ?? 0) > 0 || FindingCode.failsGate($0.findings.map(\.code)) }
    }
}

/// The tenant's superproject branch compared with the superproject's `general_dev`.
public struct SuperprojectAudit: Sendable, Equatable, Encodable {
    /// Non-merge commits on the tenant branch that are not on `general_dev`; nil when the branch is missing.
    public var ahead: Int?
    /// Commits of `general_dev` not on the tenant branch; nil when the branch is missing.
    public var behind: Int?
    /// Files (not module pins) the tenant branch changes relative to its merge base with `general_dev`.
    public var changedFiles: [String]
    /// Problems with the tenant branch itself (`missing-branch`).
    public var findings: [AuditFinding]

    /// Creates a superproject audit.
    public init(ahead: Int?, behind: Int?, changedFiles: [String], findings: [AuditFinding]) {
        self.ahead = ahead
        self.behind = behind
        self.changedFiles = changedFiles
        self.findings = findings
    }

    enum CodingKeys: String, CodingKey { case ahead, behind, changedFiles, findings }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(ahead, forKey: .ahead)
        try container.encode(behind, forKey: .behind)
        try container.encode(changedFiles, forKey: .changedFiles)
        try container.encode(findings, forKey: .findings)
    }
}

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
    /// Files the customisation changes relative to the merge base with `general_dev`.
    public var changedFiles: [String]
    /// What is wrong, if anything.
    public var findings: [AuditFinding]

    /// Creates a module audit.
    public init(
        module: String, pin: String?, branch: String, customised: Bool, ahead: Int?, behind: Int?, pinIsTip: Bool,
        active: Bool, changedFiles: [String], findings: [AuditFinding]
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
        case module, pin, branch, customised, ahead, behind, pinIsTip, active, changedFiles, findings
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
    }
}

/// One problem found by the audit.
public struct AuditFinding: Sendable, Equatable, Encodable {
    /// The kinds of finding (shared with verify).
    public typealias Code = FindingCode

    /// What kind of problem.
    public var code: Code
    /// One sentence for a person, naming commits and branches.
    public var message: String

    /// Creates a finding.
    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    /// The code and message of a judged ``Finding`` (the cell or the report says where it is).
    public init(_ finding: Finding) {
        self.init(finding.code, finding.message)
    }
}
