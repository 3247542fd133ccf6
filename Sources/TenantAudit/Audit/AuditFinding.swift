import Foundation

/// One problem found by the audit.
public struct AuditFinding: Sendable, Equatable, Encodable {
    /// The kinds of finding (shared with verify).
    public typealias Code = FindingCode

    /// What kind of problem.
    public var code: Code
    /// One sentence for a person, naming commits and branches.
    public var message: String

    /// Creates a finding.
    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    /// The code and message of a judged ``Finding`` (the cell or the report says where it is).
    public init(_ finding: Finding) {
        self.init(finding.code, finding.message)
    }
}
