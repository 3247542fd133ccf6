import Foundation

/// Why the manifest of a working copy cannot be used.
public struct LayoutError: Error, Sendable, Equatable, CustomStringConvertible {
    public var description: String

    public init(_ description: String) { self.description = description }
}

/// What the working-copy commands need from `modules.json` and `Tenants/*.json`, read from the working tree.
///
/// A small adapter until the shared manifest model (`ProjectReader.workingTree`) is wired in: names, paths and
/// branches are checked with `git check-ref-format` style rules here only as far as these commands depend on them.
public struct WorkingCopyLayout: Sendable, Equatable {
    /// A module: its name and path in the superproject.
    public struct Module: Sendable, Equatable {
        public var name: String
        public var path: String

        public init(name: String, path: String) {
            self.name = name
            self.path = path
        }
    }

    /// A tenant: id, branch, customised modules.
    public struct Tenant: Sendable, Equatable {
        public var id: String
        public var branch: String
        public var customised: Set<String>

        public init(id: String, branch: String, customised: Set<String>) {
            self.id = id
            self.branch = branch
            self.customised = customised
        }
    }

    /// The general development branch (`general_dev`).
    public var generalBranch: String
    /// Modules in manifest order.
    public var modules: [Module]
    /// Tenants sorted by id.
    public var tenants: [Tenant]

    public init(generalBranch: String, modules: [Module], tenants: [Tenant]) {
        self.generalBranch = generalBranch
        self.modules = modules
        self.tenants = tenants.sorted { $0.id < $1.id }
    }

    /// The tenant with this id, or whose branch has this name.
    public func tenant(named name: String) -> Tenant? {
        tenants.first { $0.id == name } ?? tenants.first { $0.branch == name }
    }

    /// The tenant whose superproject branch is `branch`.
    public func tenant(onBranch branch: String) -> Tenant? {
        tenants.first { $0.branch == branch }
    }

    /// The module branch a module should be on: the tenant's branch when customised, else the general branch.
    public func branch(for module: String, tenant: Tenant?) -> String {
        guard let tenant, tenant.customised.contains(module) else { return generalBranch }
        return tenant.branch
    }

    /// Reads the manifest and tenant files from the working tree at `root`.
    public static func load(root: String) throws(LayoutError) -> WorkingCopyLayout {
        let manifestPath = (root as NSString).appendingPathComponent("modules.json")
        let manifest: ManifestFile = try decode(ManifestFile.self, at: manifestPath)
        var tenants: [Tenant] = []
        let tenantsDirectory = (root as NSString).appendingPathComponent("Tenants")
        let names: [String]
        do {
            names =
                FileManager.default.fileExists(atPath: tenantsDirectory)
                ? try FileManager.default.contentsOfDirectory(atPath: tenantsDirectory) : []
        } catch {
            throw LayoutError("cannot list \(tenantsDirectory): \(error.localizedDescription)")
        }
        for name in names.sorted() where name.hasSuffix(".json") {
            let path = (tenantsDirectory as NSString).appendingPathComponent(name)
            let file: TenantFile = try decode(TenantFile.self, at: path)
            tenants.append(
                Tenant(id: file.id, branch: file.branch ?? file.id, customised: Set(file.customised ?? [])))
        }
        let layout = WorkingCopyLayout(
            generalBranch: manifest.generalBranch ?? "general_dev",
            modules: manifest.modules.map { Module(name: $0.name, path: $0.path) }, tenants: tenants)
        try layout.validate()
        return layout
    }

    func validate() throws(LayoutError) {
        var problems: [String] = []
        for module in modules {
            let components = module.path.split(separator: "/", omittingEmptySubsequences: false)
            if module.path.isEmpty || module.path.hasPrefix("/") || module.path.hasPrefix("-")
                || components.contains(where: { $0.isEmpty || $0 == "." || $0 == ".." || $0.lowercased() == ".git" })
                || module.path.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F })
            {
                problems.append("modules.json: module \(module.name): invalid path '\(module.path)'")
            }
        }
        for tenant in tenants
        where !Self.isPlausibleBranch(tenant.branch) || !Self.isPlausibleBranch(tenant.id) {
            problems.append("Tenants/\(tenant.id).json: invalid tenant id or branch '\(tenant.branch)'")
        }
        if !Self.isPlausibleBranch(generalBranch) {
            problems.append("modules.json: invalid generalBranch '\(generalBranch)'")
        }
        guard problems.isEmpty else { throw LayoutError(problems.joined(separator: "\n")) }
    }

    static func isPlausibleBranch(_ name: String) -> Bool {
        guard !name.isEmpty, !name.hasPrefix("-"), !name.hasPrefix("/"), !name.hasSuffix("/"), !name.hasSuffix("."),
            !name.hasSuffix(".lock"), !name.contains(".."), !name.contains("@{"), name != "@", !name.contains("//")
        else { return false }
        return !name.unicodeScalars.contains {
            $0.value <= 0x20 || $0.value == 0x7F || "~^:?*[\\".unicodeScalars.contains($0)
        }
    }

    private static func decode<T: Decodable>(_ type: T.Type, at path: String) throws(LayoutError) -> T {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw LayoutError("cannot read \(path): \(error.localizedDescription)")
        }
        do {
            return try JSONDecoder().decode(T.self, from: data)
        } catch {
            throw LayoutError("\(path) is not valid: \(error)")
        }
    }

    private struct ManifestFile: Decodable {
        struct Entry: Decodable {
            var name: String
            var path: String
        }
        var generalBranch: String?
        var modules: [Entry]
    }

    private struct TenantFile: Decodable {
        var id: String
        var branch: String?
        var customised: [String]?
    }
}
