import Foundation

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
