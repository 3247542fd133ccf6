import Foundation

/// One problem, as audit and verify report it: its code, one sentence for a person, and where it is (the tenant, the
/// module, the repository and the branch, each where it applies).
public struct Finding: Sendable, Equatable, Encodable {
    /// Stable code, shared by audit and verify (`stale-pin`, `missing-branch`, …).
    public var code: FindingCode
    /// What is wrong and what to do, in one sentence.
    public var message: String
    /// The tenant concerned; nil for the general branch or the whole project.
    public var tenant: String?
    /// The module concerned; nil for the superproject.
    public var module: String?
    /// `superproject` or a module name.
    public var repository: String?
    /// The branch concerned.
    public var branch: String?

    public init(
        code: FindingCode, message: String, tenant: String? = nil, module: String? = nil, repository: String? = nil,
        branch: String? = nil
    ) {
        self.code = code
        self.message = message
        self.tenant = tenant
        self.module = module
        self.repository = repository
        self.branch = branch
    }

    /// The repository name findings use for the superproject.
    public static let superproject = "superproject"
}
