import Foundation

/// Minimum platform versions, as a module's `ModuleDescription.json` or a tenant file declares them
/// (`"platforms": { "iOS": "15.0" }`): platform name → version, spelt as SwiftPM's `Package.swift` does.
public enum PlatformVersions {
    /// The platform names accepted, in the order compose writes them.
    public static let names = ["iOS", "macOS", "macCatalyst", "tvOS", "watchOS", "visionOS", "driverKit"]

    /// Whether `version` is `major.minor` or `major.minor.patch` (what `Package.swift` accepts).
    static func isValid(_ version: String) -> Bool {
        let parts = version.split(separator: ".", omittingEmptySubsequences: false)
        return (2...3).contains(parts.count)
            && parts.allSatisfy { part in
                !part.isEmpty && part.count <= 4 && part.unicodeScalars.allSatisfy { ("0"..."9").contains($0) }
            }
    }

    /// Orders two valid versions numerically (`15.0` < `15.0.1` < `16.0`); missing components count as 0.
    public static func precedes(_ lhs: String, _ rhs: String) -> Bool {
        let a = lhs.split(separator: ".").map { Int($0) ?? 0 }
        let b = rhs.split(separator: ".").map { Int($0) ?? 0 }
        for index in 0..<max(a.count, b.count) {
            let x = index < a.count ? a[index] : 0
            let y = index < b.count ? b[index] : 0
            if x != y { return x < y }
        }
        return false
    }

    /// Decodes `"platforms"` at `field`: an object of known platform names to version strings.
    package static func decode(_ value: JSONValue, at field: String, decoder: inout FieldDecoder) -> [String: String]? {
        guard let members = decoder.object(value, at: field, allowed: names, required: []) else { return nil }
        var result: [String: String] = [:]
        var ok = true
        for (name, member) in members {
            let path = "\(field).\(name)"
            guard let version = decoder.string(member, at: path) else {
                ok = false
                continue
            }
            guard isValid(version) else {
                decoder.report(
                    path, member.position,
                    "invalid \(name) version \"\(version)\" (expected major.minor or major.minor.patch, e.g. \"15.0\")")
                ok = false
                continue
            }
            result[name] = version
        }
        return ok ? result : nil
    }

    /// `{ "iOS": "15.0" }` on one line, platforms in ``names`` order.
    static func inlineObject(_ platforms: [String: String]) -> String {
        let members = names.compactMap { name in
            platforms[name].map { "\(JSONText.quoted(name)): \(JSONText.quoted($0))" }
        }
        return "{ " + members.joined(separator: ", ") + " }"
    }
}

/// A tenant's app build settings (the `build` section of `Tenants/<id>.json`): what the thesis configured in each
/// tenant's own Xcode target and Info.plist. `tenantctl compose` writes them to `Tenant.xcconfig`.
public struct TenantBuild: Sendable, Equatable {
    /// `PRODUCT_BUNDLE_IDENTIFIER`, e.g. `com.example.erp.t2`.
    public var bundleIdentifier: String?
    /// The name under the app icon (`CFBundleDisplayName`).
    public var displayName: String?
    /// The app icon set in the asset catalog (`ASSETCATALOG_COMPILER_APPICON_NAME`).
    public var appIcon: String?
    /// `MARKETING_VERSION` (`CFBundleShortVersionString`), e.g. `2.1` or `2.1.0`.
    public var marketingVersion: String?
    /// Further build settings, name → value, written as they are.
    public var settings: [String: String]

    /// The keys of the section, in the order they are written.
    public static let keys = ["bundleIdentifier", "displayName", "appIcon", "marketingVersion", "settings"]

    /// Creates build settings.
    public init(
        bundleIdentifier: String? = nil, displayName: String? = nil, appIcon: String? = nil,
        marketingVersion: String? = nil, settings: [String: String] = [:]
    ) {
        self.bundleIdentifier = bundleIdentifier
        self.displayName = displayName
        self.appIcon = appIcon
        self.marketingVersion = marketingVersion
        self.settings = settings
    }

    /// The build setting each named field sets, field → setting.
    public static let settingOfField = [
        "bundleIdentifier": "PRODUCT_BUNDLE_IDENTIFIER", "displayName": "TENANT_DISPLAY_NAME",
        "appIcon": "ASSETCATALOG_COMPILER_APPICON_NAME", "marketingVersion": "MARKETING_VERSION",
    ]

    /// The settings the named fields set, setting → value (without ``settings``).
    public var namedSettings: [String: String] {
        var result: [String: String] = [:]
        if let bundleIdentifier { result["PRODUCT_BUNDLE_IDENTIFIER"] = bundleIdentifier }
        if let displayName {
            result["TENANT_DISPLAY_NAME"] = displayName
            result["INFOPLIST_KEY_CFBundleDisplayName"] = "$(TENANT_DISPLAY_NAME)"
        }
        if let appIcon { result["ASSETCATALOG_COMPILER_APPICON_NAME"] = appIcon }
        if let marketingVersion { result["MARKETING_VERSION"] = marketingVersion }
        return result
    }

    static func decode(_ value: JSONValue, decoder: inout FieldDecoder) -> TenantBuild? {
        guard let fields = decoder.object(value, at: "build", allowed: keys, required: []) else { return nil }
        let before = decoder.problems.count
        var build = TenantBuild()
        build.bundleIdentifier = fields["bundleIdentifier"].flatMap {
            decoder.string($0, at: "build.bundleIdentifier")
        }
        build.displayName = fields["displayName"].flatMap { decoder.string($0, at: "build.displayName") }
        build.appIcon = fields["appIcon"].flatMap { decoder.string($0, at: "build.appIcon") }
        build.marketingVersion = fields["marketingVersion"].flatMap {
            decoder.string($0, at: "build.marketingVersion")
        }
        if let value = fields["settings"] {
            if case .object(let members, _) = value {
                decoder.positions["build.settings"] = value.position
                for member in members {
                    let path = "build.settings.\(member.key)"
                    if let text = decoder.string(member.value, at: path) { build.settings[member.key] = text }
                }
            } else {
                decoder.expected("an object", value, at: "build.settings")
            }
        }
        return decoder.problems.count == before ? build : nil
    }

    /// Reports every value that cannot go into an `.xcconfig` file or that the app build would reject.
    static func validate(_ build: TenantBuild, who: String, decoder: inout FieldDecoder) {
        if let id = build.bundleIdentifier {
            let allowed = id.unicodeScalars.allSatisfy {
                $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "-" || $0 == ".")
            }
            if id.isEmpty || !allowed || id.hasPrefix(".") || id.hasSuffix(".") || id.contains("..") {
                decoder.report(
                    "build.bundleIdentifier",
                    "invalid bundle identifier \"\(id)\" of \(who) (reverse DNS of ASCII letters, digits, '-' and "
                        + "'.', e.g. \"com.example.erp.t2\")")
            }
        }
        for (field, value) in [("displayName", build.displayName), ("appIcon", build.appIcon)] {
            guard let value else { continue }
            if let reason = valueProblem(value) {
                decoder.report("build.\(field)", "invalid \(field) \"\(value)\" of \(who): \(reason)")
            }
        }
        if let icon = build.appIcon, icon.contains("/") {
            decoder.report("build.appIcon", "invalid appIcon \"\(icon)\" of \(who): name the icon set, not a path")
        }
        if let version = build.marketingVersion {
            let parts = version.split(separator: ".", omittingEmptySubsequences: false)
            let ok =
                (1...3).contains(parts.count)
                && parts.allSatisfy { !$0.isEmpty && $0.unicodeScalars.allSatisfy { ("0"..."9").contains($0) } }
            if !ok {
                decoder.report(
                    "build.marketingVersion",
                    "invalid marketingVersion \"\(version)\" of \(who) (up to three numbers separated by '.', "
                        + "e.g. \"2.1.0\")")
            }
        }
        let named = build.namedSettings
        for key in build.settings.keys.sorted() {
            let path = "build.settings.\(key)"
            if !isSettingName(key) {
                decoder.report(
                    path,
                    "invalid build setting name \"\(key)\" of \(who) (ASCII letters, digits and '_', not starting "
                        + "with a digit, e.g. \"API_BASE_URL\")")
            } else if named[key] != nil {
                let field = settingOfField.first { $0.value == key }?.key ?? "displayName"
                decoder.report(path, "\(key) is set by build.\(field) of \(who); set it there only")
            }
            if let value = build.settings[key], let reason = valueProblem(value) {
                decoder.report(path, "invalid value of build setting \(key) of \(who): \(reason)")
            }
        }
    }

    /// nil when `value` can be written as one `.xcconfig` value.
    static func valueProblem(_ value: String) -> String? {
        if value.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
            return "contains a line break or a control character"
        }
        if value != value.trimmingCharacters(in: .whitespaces) {
            return "starts or ends with a space (an .xcconfig file drops it)"
        }
        return nil
    }

    /// A build setting name: `[A-Za-z_][A-Za-z0-9_]*`.
    static func isSettingName(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, first.isASCII,
            first.properties.isAlphabetic || first == "_"
        else { return false }
        return name.unicodeScalars.allSatisfy {
            $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "_")
        }
    }

    /// The section as pretty JSON lines, indented for a tenant file (keys in ``keys`` order, settings sorted).
    func encodedLines() -> String {
        var members: [String] = []
        if let bundleIdentifier { members.append("    \"bundleIdentifier\": \(JSONText.quoted(bundleIdentifier))") }
        if let displayName { members.append("    \"displayName\": \(JSONText.quoted(displayName))") }
        if let appIcon { members.append("    \"appIcon\": \(JSONText.quoted(appIcon))") }
        if let marketingVersion { members.append("    \"marketingVersion\": \(JSONText.quoted(marketingVersion))") }
        if !settings.isEmpty {
            let entries = settings.keys.sorted().map {
                "      \(JSONText.quoted($0)): \(JSONText.quoted(settings[$0] ?? ""))"
            }
            members.append("    \"settings\": {\n" + entries.joined(separator: ",\n") + "\n    }")
        }
        if members.isEmpty { return "{}" }
        return "{\n" + members.joined(separator: ",\n") + "\n  }"
    }
}
