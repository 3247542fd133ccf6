import Foundation

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
