import Foundation

/// What `tenantctl audit` found: per tenant, the superproject branch and every module.
public struct AuditReport: Sendable, Equatable, Encodable {
    /// The version of this report's JSON schema (`docs/audit-schema.json`).
    public static let schemaVersion = 2

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
    /// The reviews of review rolls, each naming its cell (tenant and repository): the open ones, and those that
    /// landed by squash or rebase while the target lacks the general commit by ancestry.
    public var reviews: [AuditReview] = []
    /// Whether being behind fails the gate (`audit --check`); false with `--max-behind-days`, where only a tenant that
    /// lacked a general commit for too long (`stale-tenant`) does. Not part of the JSON.
    public var behindFailsGate = true

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
        FindingCode.failsGate(findings.map(\.code))
            || tenants.contains { $0.needsAttention(behindFailsGate: behindFailsGate) }
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
        case schemaVersion, generalBranch, modules, tenants, findings, source, cell, reviews
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
        try container.encode(reviews, forKey: .reviews)
    }
}
