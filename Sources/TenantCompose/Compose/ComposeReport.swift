import Foundation

/// What `tenantctl compose` did, for people (``render()``) and for machines (`--json`).
public struct ComposeReport: Sendable, Equatable, Codable {
    /// A dropped module.
    public struct Dropped: Sendable, Equatable, Codable {
        /// The module.
        public var module: String
        /// Its dependencies that were not active.
        public var missing: [String]
    }

    /// A package of the umbrella package.
    public struct Package: Sendable, Equatable, Codable {
        /// The URL.
        public var url: String
        /// `from 2.1.0`, `exact 1.0.0`, `branch main`, `revision <id>`.
        public var requirement: String
        /// The products.
        public var products: [String]
        /// The Swift modules `Exports.swift` re-exports from it (only those its products are declared to bring).
        public var imports: [String]
        /// The modules needing it.
        public var requiredBy: [String]
    }

    /// A pod of the Podfile.
    public struct Pod: Sendable, Equatable, Codable {
        /// The pod name.
        public var name: String
        /// The requirement, if any.
        public var version: String?
        /// The modules needing it.
        public var requiredBy: [String]
    }

    /// A platform of `TenantDependencies/Package.swift` (and a deployment target of `Tenant.xcconfig`): the
    /// composer's own value.
    public typealias Platform = ComposedPlatform

    /// A line of `Tenant.xcconfig`.
    public struct BuildSetting: Sendable, Equatable, Codable {
        /// The setting's name.
        public var name: String
        /// Its value, as the tenant file gives it.
        public var value: String

        /// Creates a setting entry.
        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    /// The JSON format's version.
    public var schemaVersion = 1
    /// The tenant id.
    public var tenant: String
    /// Where the inputs came from: `the working copy` or `origin/<branch>`.
    public var source: String
    /// The effective active modules in dependency order.
    public var active: [String]
    /// The dropped modules.
    public var dropped: [Dropped]
    /// The string tables read, in order.
    public var stringTables: [String]
    /// The languages written, sorted.
    public var languages: [String]
    /// The String Catalog's source language.
    public var sourceLanguage: String
    /// Number of keys.
    public var keys: Int
    /// Keys a later table overrode.
    public var overrides: [StringOverride]
    /// Keys without a value in a language.
    public var missingTranslations: [MissingTranslation]
    /// The packages of `TenantDependencies/Package.swift`.
    public var packages: [Package]
    /// The pods of the `Podfile` (empty: no Podfile).
    public var pods: [Pod]
    /// The platforms of `TenantDependencies/Package.swift` (empty: none declared).
    public var platforms: [Platform]
    /// The settings of `Tenant.xcconfig`, in the order written.
    public var buildSettings: [BuildSetting]
    /// Warnings about the inputs.
    public var warnings: [String]
    /// The output directory.
    public var outputDirectory: String
    /// Whether this was `--check` (nothing written).
    public var check: Bool
    /// Whether the directory already held exactly these files before the run.
    public var upToDate: Bool
    /// Every output file (and every extra file in the directory) with its state.
    public var files: [ComposeFileState]

    /// Builds the report of a run.
    public init(
        input: ComposeInput, result: ComposeResult, outputDirectory: String, check: Bool,
        files: [ComposeFileState]
    ) {
        tenant = input.tenant.id
        source = input.origin
        active = result.active
        dropped = result.dropped.map { Dropped(module: $0.module, missing: $0.missing) }
        stringTables = result.stringTables
        languages = result.strings.languages
        sourceLanguage = result.strings.sourceLanguage
        keys = result.strings.values.count
        overrides = result.strings.overrides
        missingTranslations = result.strings.missing
        packages = result.dependencies.packages.map {
            Package(
                url: $0.url, requirement: $0.rule.summary, products: $0.products, imports: $0.imports,
                requiredBy: $0.requiredBy)
        }
        pods = result.dependencies.pods.map { Pod(name: $0.name, version: $0.version, requiredBy: $0.requiredBy) }
        platforms = result.dependencies.platforms
        buildSettings = result.buildSettings.map { BuildSetting(name: $0.name, value: $0.value) }
        warnings = result.warnings
        self.outputDirectory = outputDirectory
        self.check = check
        upToDate = files.allSatisfy { $0.state == .unchanged }
        self.files = files
    }

    /// Whether `--check` found the directory stale.
    public var isStale: Bool { check && !upToDate }

    /// The report as text.
    public func render() -> String {
        var lines: [String] = []
        lines.append("compose \(tenant) from \(source) → \(outputDirectory)")
        lines.append("  active modules: \(active.joined(separator: ", "))")
        for drop in dropped {
            lines.append("  dropped: \(drop.module) (missing \(drop.missing.joined(separator: ", ")))")
        }
        lines.append(
            "  strings: \(keys) key\(keys == 1 ? "" : "s") in \(languages.joined(separator: ", ")) from "
                + "\(stringTables.count) table\(stringTables.count == 1 ? "" : "s")")
        for override in overrides {
            lines.append(
                "    override \(override.key) [\(override.languages.joined(separator: ", "))]: \(override.from) → "
                    + override.to)
        }
        for missing in missingTranslations {
            lines.append("    missing translation: \(missing.key) has no \(missing.language) (\(missing.source))")
        }
        if packages.isEmpty {
            lines.append("  packages: none")
        }
        for package in packages {
            lines.append(
                "  package \(package.url) \(package.requirement) → \(package.products.joined(separator: ", ")) "
                    + "(\(package.requiredBy.joined(separator: ", ")))"
                    + (package.imports.isEmpty ? "" : "; imports \(package.imports.joined(separator: ", "))"))
        }
        if pods.isEmpty {
            lines.append("  pods: none (no Podfile)")
        }
        for platform in platforms {
            lines.append(
                "  platform \(platform.platform) \(platform.version) (\(platform.requiredBy.joined(separator: ", ")))")
        }
        lines.append(
            buildSettings.isEmpty
                ? "  build settings: none" : "  build settings: \(buildSettings.map(\.name).joined(separator: ", "))")
        for pod in pods {
            lines.append(
                "  pod \(pod.name)\(pod.version.map { " \($0)" } ?? "") (\(pod.requiredBy.joined(separator: ", ")))")
        }
        let changed = files.filter { $0.state != .unchanged }
        if check {
            if upToDate {
                lines.append("up to date: \(files.count) files match")
            } else {
                lines.append("stale: \(changed.count) of the files differ (nothing written):")
                for file in changed { lines.append("  \(file.state.rawValue): \(file.path)") }
            }
        } else if upToDate {
            lines.append("up to date: nothing written (\(files.count) files)")
        } else {
            let written = changed.filter { $0.state == .written }.count
            let removed = changed.filter { $0.state == .removed }.count
            lines.append(
                "wrote \(written) file\(written == 1 ? "" : "s")"
                    + (removed > 0 ? ", removed \(removed)" : "")
                    + ", \(files.count - written - removed) unchanged")
        }
        return lines.joined(separator: "\n")
    }
}
