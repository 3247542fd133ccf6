import Foundation

/// One input file: a display path (e.g. "modules.json", "general_dev:Tenants/t2.json") and its bytes.
public struct SourceFile: Sendable, Equatable {
    /// The path shown in messages.
    public var path: String
    /// The raw file contents.
    public var data: Data

    /// Creates a source file.
    public init(path: String, data: Data) {
        self.path = path
        self.data = data
    }
}

/// Switches that relax validation.
public struct ValidationOptions: Sendable {
    /// Accept local-path and `file://` remotes (`--allow-local-remotes`, `TENANTCTL_ALLOW_LOCAL_REMOTES=1`).
    public var allowLocalRemotes: Bool
    /// Load a project whose tenant files are partly invalid: an invalid tenant file becomes an entry of
    /// ``Project/invalidTenants`` instead of failing the load (roll blocks that tenant, audit and verify report
    /// `invalid-tenant-file`). Problems of `modules.json` still fail the load.
    public var keepInvalidTenants: Bool

    /// Creates options; by default local remotes are refused and any invalid file fails the load.
    public init(allowLocalRemotes: Bool = false, keepInvalidTenants: Bool = false) {
        self.allowLocalRemotes = allowLocalRemotes
        self.keepInvalidTenants = keepInvalidTenants
    }
}

/// One problem found in a manifest or tenant file.
public struct ManifestProblem: Sendable, Equatable, CustomStringConvertible {
    /// The display path of the file.
    public var file: String
    /// The coding path of the offending value, like `modules[3].url`, when known.
    public var field: String?
    /// 1-based line, when known.
    public var line: Int?
    /// 1-based column, when known.
    public var column: Int?
    /// What is wrong.
    public var message: String

    /// Creates a problem.
    public init(file: String, field: String? = nil, line: Int? = nil, column: Int? = nil, message: String) {
        self.file = file
        self.field = field
        self.line = line
        self.column = column
        self.message = message
    }

    /// One location style for every problem, the compiler's `file:line:column:` that editors jump to:
    /// `modules.json:9:14: modules[3].url: expected a string` when a field is known,
    /// `modules.json:4:17: unexpected end of input` for a syntax error; without a position `modules.json: …`.
    public var description: String {
        var text = file
        if let line, let column { text += ":\(line):\(column)" }
        text += ": "
        if let field { text += "\(field): " }
        return text + message
    }
}

/// Every problem found while loading the manifest and tenant files, thrown once.
public struct ManifestError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The problems, sorted stably by file (order found within a file).
    public var problems: [ManifestProblem]

    /// Creates an error; problems are sorted stably by file.
    public init(problems: [ManifestProblem]) {
        self.problems = ManifestError.sortedStably(problems)
    }

    /// One line per problem.
    public var description: String {
        ManifestError.sortedStably(problems).map(\.description).joined(separator: "\n")
    }

    static func sortedStably(_ problems: [ManifestProblem]) -> [ManifestProblem] {
        problems.enumerated()
            .sorted { lhs, rhs in
                let (left, right) = (lhs.element.file.utf8, rhs.element.file.utf8)
                return left.elementsEqual(right) ? lhs.offset < rhs.offset : left.lexicographicallyPrecedes(right)
            }
            .map(\.element)
    }
}
