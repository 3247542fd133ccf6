import Foundation

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
