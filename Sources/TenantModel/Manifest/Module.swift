import Foundation

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
    /// How `roll --review` proposes in this module's repository where it differs from the manifest's `review`.
    public var review: ReviewSettings?

    /// Creates a module.
    public init(name: String, path: String, url: String, dependsOn: [String] = [], generalBranch: String? = nil) {
        self.name = name
        self.path = path
        self.url = url
        self.dependsOn = dependsOn
        self.generalBranch = generalBranch
    }
}
