/// One module repository of the example.
public struct ExampleModuleRepo: Sendable {
    /// Module name (as in `modules.json`).
    public var name: String
    /// Branches in creation order; the first is `general_dev`.
    public var branches: [ExampleBranch]
    /// General changes of AF.5/AF.6 for `general_dev`, applied only at stage `after-updates`.
    public var updates: [ExampleCommit]

    /// Creates a module repository description.
    public init(name: String, branches: [ExampleBranch], updates: [ExampleCommit]) {
        self.name = name
        self.branches = branches
        self.updates = updates
    }
}
