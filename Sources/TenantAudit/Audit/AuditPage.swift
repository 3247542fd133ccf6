import Foundation

/// What the HTML page shows beyond the report: the tenants' display names, the modules' paths and the cells' commits
/// (bounded: ``AuditPageCommits``). ``AuditRun`` gathers it while it reads the repositories, so the page is rendered
/// from values alone (``AuditHTMLRenderer/render(_:page:)``).
public struct AuditPage: Sendable, Equatable {
    /// Tenant id → display name.
    public var tenantNames: [String: String]
    /// Module name → path.
    public var modulePaths: [String: String]
    /// The commits of the cells' detail panels.
    public var commits: AuditPageCommits
    /// The divergence over time (`audit --history --format html`): the "Drift over time" section; nil: none.
    public var drift: AuditHistory?

    public init(
        tenantNames: [String: String] = [:], modulePaths: [String: String] = [:],
        commits: AuditPageCommits = AuditPageCommits()
    ) {
        self.tenantNames = tenantNames
        self.modulePaths = modulePaths
        self.commits = commits
    }
}
