import Foundation

/// A tenant, read from `Tenants/<id>.json`.
public struct Tenant: Sendable, Equatable {
    /// The tenant id; equals the file name stem.
    public var id: String
    /// An optional display name.
    public var name: String?
    /// The tenant branch; defaults to ``id``.
    public var branch: String
    /// The declared active modules.
    public var modules: [String]
    /// The modules that have a tenant branch.
    public var customised: [String]
    /// Extra string tables applied after the modules' own (the thesis' TenantSpecificStrings): paths relative to
    /// the superproject root, in order. Empty when the file has no `strings`.
    public var strings: [String]
    /// Minimum platform versions of the tenant's app (`"platforms": { "iOS": "16.0" }`), platform → version.
    public var platforms: [String: String]
    /// The app build settings compose writes to `Tenant.xcconfig`, when the file has a `build` section.
    public var build: TenantBuild?
    /// The display path of the file the tenant came from.
    public var file: String

    /// Creates a tenant; `branch` defaults to `id`.
    public init(
        id: String, name: String? = nil, branch: String? = nil, modules: [String], customised: [String],
        strings: [String] = [], platforms: [String: String] = [:], build: TenantBuild? = nil, file: String
    ) {
        self.id = id
        self.name = name
        self.branch = branch ?? id
        self.modules = modules
        self.customised = customised
        self.strings = strings
        self.platforms = platforms
        self.build = build
        self.file = file
    }

    /// Whether the tenant declares `module` customised (has a tenant branch in it).
    public func customises(_ module: String) -> Bool { customised.contains(module) }

    /// Stable pretty JSON (keys id, name if any, branch, modules, customised, then strings, platforms and build if
    /// any), ending with a newline.
    public func encoded() -> Data {
        var lines = ["  \"id\": \(JSONText.quoted(id))"]
        if let name { lines.append("  \"name\": \(JSONText.quoted(name))") }
        lines.append("  \"branch\": \(JSONText.quoted(branch))")
        lines.append("  \"modules\": \(JSONText.inlineArray(modules))")
        lines.append("  \"customised\": \(JSONText.inlineArray(customised))")
        if !strings.isEmpty { lines.append("  \"strings\": \(JSONText.inlineArray(strings))") }
        if !platforms.isEmpty { lines.append("  \"platforms\": \(PlatformVersions.inlineObject(platforms))") }
        if let build { lines.append("  \"build\": \(build.encodedLines())") }
        return Data(("{\n" + lines.joined(separator: ",\n") + "\n}\n").utf8)
    }
}
