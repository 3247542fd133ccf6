import Foundation

/// The part of the project (`modules.json`, `Tenants/*.json`, read from the working tree) that switch, status and
/// pin need: module paths, tenant branches and customisations.
public struct WorkingCopyLayout: Sendable, Equatable {
    /// A module: its name and path in the superproject.
    public struct Module: Sendable, Equatable {
        public var name: String
        public var path: String
        /// The URL as `modules.json` writes it (relative URLs resolve against the superproject's origin).
        public var url: String

        public init(name: String, path: String, url: String = "") {
            self.name = name
            self.path = path
            self.url = url
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

    /// The layout of a validated project (read with ``ProjectReader/workingTree(_:options:)``).
    public init(project: Project) {
        self.init(
            generalBranch: project.manifest.generalBranch,
            modules: project.manifest.modules.map { Module(name: $0.name, path: $0.path, url: $0.url) },
            tenants: project.tenants.map { Tenant(id: $0.id, branch: $0.branch, customised: Set($0.customised)) })
    }

    /// Reads and validates `modules.json` and `Tenants/*.json` from the superproject's working tree.
    public static func load(_ workspace: Workspace, allowLocalRemotes: Bool) throws -> WorkingCopyLayout {
        WorkingCopyLayout(
            project: try ProjectReader.workingTree(
                workspace, options: ValidationOptions(allowLocalRemotes: allowLocalRemotes)))
    }
}
