import Foundation

/// `modules.json`: the modules of the superproject and their dependencies.
public struct ModuleManifest: Sendable, Equatable {
    /// Format version; must be 1.
    public var version: Int
    /// The shared development branch; `general_dev` when absent.
    public var generalBranch: String
    /// The modules in manifest order.
    public var modules: [Module]

    /// Creates a manifest.
    public init(version: Int = 1, generalBranch: String = ModuleManifest.defaultGeneralBranch, modules: [Module]) {
        self.version = version
        self.generalBranch = generalBranch
        self.modules = modules
    }

    /// The general branch of a module's repository: the module's own `generalBranch`, else the manifest's.
    public func generalBranch(of module: Module) -> String {
        module.generalBranch ?? generalBranch
    }

    /// The general branch used when the manifest does not name one.
    public static let defaultGeneralBranch = "general_dev"

    /// Stable pretty JSON (keys version, generalBranch, modules; module keys name, path, url, generalBranch when the
    /// module names its own, dependsOn), ending with a newline.
    public func encoded() -> Data {
        var out = "{\n"
        out += "  \"version\": \(version),\n"
        out += "  \"generalBranch\": \(JSONText.quoted(generalBranch)),\n"
        if modules.isEmpty {
            out += "  \"modules\": []\n"
        } else {
            out += "  \"modules\": [\n"
            let entries = modules.map { module in
                "    {\n"
                    + "      \"name\": \(JSONText.quoted(module.name)),\n"
                    + "      \"path\": \(JSONText.quoted(module.path)),\n"
                    + "      \"url\": \(JSONText.quoted(module.url)),\n"
                    + (module.generalBranch.map { "      \"generalBranch\": \(JSONText.quoted($0)),\n" } ?? "")
                    + "      \"dependsOn\": \(JSONText.inlineArray(module.dependsOn))\n"
                    + "    }"
            }
            out += entries.joined(separator: ",\n") + "\n  ]\n"
        }
        out += "}\n"
        return Data(out.utf8)
    }
}

/// One module (a git submodule) of the superproject.
public struct Module: Sendable, Equatable, Hashable {
    /// Unique name (see ``ModuleName``).
    public var name: String
    /// Path relative to the superproject root (see ``RepoPath``).
    public var path: String
    /// Remote URL, absolute or relative to the superproject's remote (see ``RemoteURL``).
    public var url: String
    /// Names of the modules this one needs, in declared order.
    public var dependsOn: [String]
    /// The module repository's own general branch (`"generalBranch": "master"` under a `main` superproject); nil:
    /// the manifest's. Ask ``Project/generalBranch(of:)``, never this field.
    public var generalBranch: String?

    /// Creates a module.
    public init(name: String, path: String, url: String, dependsOn: [String] = [], generalBranch: String? = nil) {
        self.name = name
        self.path = path
        self.url = url
        self.dependsOn = dependsOn
        self.generalBranch = generalBranch
    }
}

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

/// A module dropped from a tenant's effective active set, and why.
public struct DroppedModule: Sendable, Equatable {
    /// The dropped module.
    public var module: String
    /// Its dependencies that were not in the active set when it was dropped.
    public var missing: [String]

    /// Creates a dropped-module record.
    public init(module: String, missing: [String]) {
        self.module = module
        self.missing = missing
    }
}

/// A tenant's effective active modules after the thesis' drop rule.
public struct ActiveSet: Sendable, Equatable {
    /// The effective active modules in manifest order.
    public var effective: [String]
    /// The modules dropped, in the order they were dropped.
    public var dropped: [DroppedModule]

    /// Creates an active set.
    public init(effective: [String], dropped: [DroppedModule]) {
        self.effective = effective
        self.dropped = dropped
    }
}

enum JSONText {
    /// A JSON string: control characters, DEL and U+2028/U+2029 (which some JavaScript parsers reject) as `\uXXXX`
    /// (``JSONString/Format/file``).
    static func quoted(_ string: String) -> String { JSONString.quoted(string, .file) }

    static func inlineArray(_ strings: [String]) -> String {
        "[" + strings.map(quoted).joined(separator: ", ") + "]"
    }
}
