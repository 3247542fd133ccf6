import Foundation

/// The file names compose reads and writes.
public enum ComposeLayout {
    /// A module's string table.
    public static let moduleStrings = "Strings.csv"
    /// A module's description.
    public static let moduleDescription = "ModuleDescription.json"
    /// The active modules.
    public static let activeModules = "ActiveModules.json"
    /// The String Catalog.
    public static let stringCatalog = "Localizable.xcstrings"
    /// The umbrella package manifest.
    public static let packageManifest = "TenantDependencies/Package.swift"
    /// The umbrella package's one source file.
    public static let packageExports = "TenantDependencies/Sources/TenantDependencies/Exports.swift"
    /// The Podfile.
    public static let podfile = "Podfile"
    /// The tenant's build settings.
    public static let xcconfig = "Tenant.xcconfig"
    /// The default output directory, relative to the superproject root.
    public static let defaultOutput = "Generated"
}
