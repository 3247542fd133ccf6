import Foundation

/// A 1-based line and column in a source file; columns count Unicode scalars.
public struct JSONPosition: Sendable, Equatable, Hashable {
    /// 1-based line number.
    public var line: Int
    /// 1-based column, counted in Unicode scalars.
    public var column: Int

    /// Creates a position.
    public init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }
}
