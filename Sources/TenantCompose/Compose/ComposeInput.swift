import Foundation

/// What compose reads for one tenant: the project, the tenant, and the files of its active modules at their pins.
public struct ComposeInput: Sendable {
    /// One module's inputs.
    public struct ModuleFiles: Sendable, Equatable {
        /// `Strings.csv` at the module root.
        public var strings: ComposeFile
        /// `ModuleDescription.json` at the module root.
        public var description: ComposeFile

        /// Creates the inputs of a module.
        public init(strings: ComposeFile, description: ComposeFile) {
            self.strings = strings
            self.description = description
        }
    }

    /// The validated project (as on the tenant's branch).
    public var project: Project
    /// The tenant.
    public var tenant: Tenant
    /// Where the inputs came from: `working copy` or `origin/<branch>`.
    public var origin: String
    /// Active module name → its files (only the effective active modules are read).
    public var modules: [String: ModuleFiles]
    /// The tenant's `strings` files, in the tenant file's order.
    public var tenantStrings: [(path: String, file: ComposeFile)]
    /// Notes about the inputs (a module not at its pin, …), shown as warnings.
    public var warnings: [String]

    /// Creates an input.
    public init(
        project: Project, tenant: Tenant, origin: String, modules: [String: ModuleFiles],
        tenantStrings: [(path: String, file: ComposeFile)], warnings: [String] = []
    ) {
        self.project = project
        self.tenant = tenant
        self.origin = origin
        self.modules = modules
        self.tenantStrings = tenantStrings
        self.warnings = warnings
    }
}
