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
