import Foundation

/// One thing that stops `compose`: it names the file, the key, the module or the tenant concerned.
public struct ComposeProblem: Sendable, Equatable, CustomStringConvertible {
    /// What kind of problem it is (for callers and tests; the message is for people).
    public enum Kind: String, Sendable, Equatable, Codable {
        /// A `Strings.csv` or tenant string table is not valid RFC 4180 CSV with a `key` column.
        case invalidStringsTable
        /// A `ModuleDescription.json` is not valid.
        case invalidModuleDescription
        /// Two active modules require one package (or pod) in ways no single version satisfies.
        case incompatibleRequirements
        /// A file the tenant names is missing (or not a regular file).
        case missingFile
        /// A path resolves outside the repository.
        case outsideRepository
        /// The input cannot be read: no tenant, a module not checked out or not pinned.
        case input
        /// The output directory cannot be written or compared.
        case output
    }

    /// The kind.
    public var kind: Kind
    /// The message, naming what failed and where.
    public var message: String

    /// Creates a problem.
    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    public var description: String { message }
}

/// `compose` refused: every problem found, collected before throwing. Nothing was written.
public struct ComposeError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The problems, in the order found.
    public var problems: [ComposeProblem]

    /// Creates an error from problems (at least one).
    public init(problems: [ComposeProblem]) {
        self.problems = problems
    }

    /// Creates an error with one problem.
    public init(_ kind: ComposeProblem.Kind, _ message: String) {
        self.problems = [ComposeProblem(kind, message)]
    }

    public var description: String {
        if problems.count == 1 { return "compose: " + problems[0].message }
        return "compose: \(problems.count) problems:\n" + problems.map { "  " + $0.message }.joined(separator: "\n")
    }
}
