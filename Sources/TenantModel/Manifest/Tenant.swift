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
    /// The modules declared customised in the file's `customised` list (see ``customisedModules`` for every module
    /// the tenant customises, the ones `branches` maps included).
    public var customised: [String]
    /// Module name → the module branch the tenant follows when it is not named after the tenant (a release line's
    /// `release/5.5.6`, a customer fork's own branch). A module listed here is customised on that branch, whether
    /// or not `customised` lists it too. Empty when the file has no `branches`.
    public var branches: [String: String]
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
        branches: [String: String] = [:], strings: [String] = [], platforms: [String: String] = [:],
        build: TenantBuild? = nil, file: String
    ) {
        self.id = id
        self.name = name
        self.branch = branch ?? id
        self.modules = modules
        self.customised = customised
        self.branches = branches
        self.strings = strings
        self.platforms = platforms
        self.build = build
        self.file = file
    }

    /// Whether the tenant declares `module` customised (has a branch of its own in it): listed in `customised` or
    /// mapped to a branch in `branches`.
    public func customises(_ module: String) -> Bool { customised.contains(module) || branches[module] != nil }

    /// Every module the tenant customises: `customised` in its order, then the modules only `branches` maps, by name.
    public var customisedModules: [String] {
        let listed = Set(customised)
        return customised + branches.keys.filter { !listed.contains($0) }.sorted()
    }

    /// The name of the tenant's own branch in `module`: what `branches` maps the module to, else the tenant's branch.
    /// Every module branch of a tenant is named through this (the module need not be customised: an uncustomised
    /// module's name is what customising it would create).
    public func moduleBranch(for module: String) -> String { branches[module] ?? branch }

    /// Stable pretty JSON (keys id, name if any, branch, modules, customised, then branches, strings, platforms and
    /// build if any), ending with a newline.
    public func encoded() -> Data {
        var lines = ["  \"id\": \(JSONText.quoted(id))"]
        if let name { lines.append("  \"name\": \(JSONText.quoted(name))") }
        lines.append("  \"branch\": \(JSONText.quoted(branch))")
        lines.append("  \"modules\": \(JSONText.inlineArray(modules))")
        lines.append("  \"customised\": \(JSONText.inlineArray(customised))")
        if !branches.isEmpty { lines.append("  \"branches\": \(Self.inlineObject(branches))") }
        if !strings.isEmpty { lines.append("  \"strings\": \(JSONText.inlineArray(strings))") }
        if !platforms.isEmpty { lines.append("  \"platforms\": \(PlatformVersions.inlineObject(platforms))") }
        if let build { lines.append("  \"build\": \(build.encodedLines())") }
        return Data(("{\n" + lines.joined(separator: ",\n") + "\n}\n").utf8)
    }

    /// `{ "obs-websocket": "release/5.5.6" }` on one line, modules by name.
    static func inlineObject(_ branches: [String: String]) -> String {
        let members = branches.keys.sorted().map { "\(JSONText.quoted($0)): \(JSONText.quoted(branches[$0] ?? ""))" }
        return "{ " + members.joined(separator: ", ") + " }"
    }
}
