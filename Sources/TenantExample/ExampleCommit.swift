/// One commit of the example: a message and the files it writes (`nil` deletes the path).
public struct ExampleCommit: Sendable {
    /// The commit message (one line).
    public var message: String
    /// Path → new content; `nil` deletes the path.
    public var files: [String: String?]

    /// Creates a commit description.
    public init(message: String, files: [String: String?]) {
        self.message = message
        self.files = files
    }
}
