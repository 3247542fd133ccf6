/// Facts about this build of tenantctl.
public enum TenantKitInfo {
    /// The tool's version, printed by `tenantctl --version`.
    public static let version = "0.1.0"
}
