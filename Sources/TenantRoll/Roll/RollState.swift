import Foundation

/// Everything roll plans from: the project read at the general branch and the refs and pins of every repository.
public struct RollState: Sendable {
    /// The project (modules, tenants, the branch rule) as committed on the general branch.
    public var project: Project
    /// The superproject.
    public var superproject: SuperprojectState
    /// Module name → its repository state (modules that could not be fetched have none).
    public var repositories: [String: ModuleRepositoryState]
    /// Module name → why it could not be fetched.
    public var unreachable: [String: String]

    public init(
        project: Project, superproject: SuperprojectState, repositories: [String: ModuleRepositoryState],
        unreachable: [String: String] = [:]
    ) {
        self.project = project
        self.superproject = superproject
        self.repositories = repositories
        self.unreachable = unreachable
    }

    /// The superproject's general branch.
    public var generalBranch: String { project.manifest.generalBranch }
}
