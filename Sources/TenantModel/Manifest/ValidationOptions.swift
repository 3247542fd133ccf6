import Foundation

/// Switches that relax validation.
public struct ValidationOptions: Sendable {
    /// Accept local-path and `file://` remotes (`--allow-local-remotes`, `TENANTCTL_ALLOW_LOCAL_REMOTES=1`).
    public var allowLocalRemotes: Bool
    /// Load a project whose tenant files are partly invalid: an invalid tenant file becomes an entry of
    /// ``Project/invalidTenants`` instead of failing the load (roll blocks that tenant, audit and verify report
    /// `invalid-tenant-file`). Problems of `modules.json` still fail the load.
    public var keepInvalidTenants: Bool

    /// Creates options; by default local remotes are refused and any invalid file fails the load.
    public init(allowLocalRemotes: Bool = false, keepInvalidTenants: Bool = false) {
        self.allowLocalRemotes = allowLocalRemotes
        self.keepInvalidTenants = keepInvalidTenants
    }
}
