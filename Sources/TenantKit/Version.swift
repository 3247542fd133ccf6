public enum TenantKitInfo { public static let version = "0.1.0" }
