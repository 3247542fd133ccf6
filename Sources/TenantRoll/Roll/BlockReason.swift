import Foundation

/// Why a tenant is blocked: rolling it would drop or spread a customisation, so nothing of it changes.
public struct BlockReason: Sendable, Equatable, Codable {
    /// The finding code (`missing-commit`, `undeclared-customisation`, `tenant-merged-back`, `invalid-tenant-file`,
    /// `unreachable-remote`).
    public var code: FindingCode
    /// The module concerned; nil for the tenant file.
    public var module: String?
    /// What is wrong, naming commits and branches.
    public var message: String
    /// A command that fixes it.
    public var fix: String

    public init(code: FindingCode, module: String?, message: String, fix: String) {
        self.code = code
        self.module = module
        self.message = message
        self.fix = fix
    }

    /// A finding of the ``FindingJudge`` that blocks the roll, in audit's and verify's words followed by what
    /// rolling would do (`rolling`), with the command that fixes it.
    init(_ finding: Finding, rolling: String, fix: String) {
        self.init(code: finding.code, module: finding.module, message: "\(finding.message); \(rolling)", fix: fix)
    }
}
