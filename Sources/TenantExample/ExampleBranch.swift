/// One branch of a module repository of the example.
public struct ExampleBranch: Sendable {
    /// The branch name (`general_dev` or a tenant id).
    public var name: String
    /// The branch this one forks from (its tip at that moment); `nil` = a root branch.
    public var from: String?
    /// The commits on this branch after the fork point, oldest first.
    public var commits: [ExampleCommit]

    /// Creates a branch description.
    public init(name: String, from: String?, commits: [ExampleCommit]) {
        self.name = name
        self.from = from
        self.commits = commits
    }
}
