import Foundation

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
    public var needsAttention: Bool { needsAttention(behindFailsGate: true) }

    /// ``needsAttention``; without `behindFailsGate` being behind alone does not count (`--max-behind-days`).
    public func needsAttention(behindFailsGate: Bool) -> Bool {
        let behind = behindFailsGate && ((superproject.behind ?? 0) > 0 || modules.contains { ($0.behind ?? 0) > 0 })
        return behind || FindingCode.failsGate(superproject.findings.map(\.code))
            || modules.contains { FindingCode.failsGate($0.findings.map(\.code)) }
    }
}
