import Foundation

/// The files compose writes: relative path → bytes. Compared and written as a whole.
public struct ComposePlan: Sendable, Equatable {
    /// Relative path (`/`-separated) → content.
    public var files: [String: Data]

    /// Creates a plan.
    public init(files: [String: Data]) {
        self.files = files
    }

    /// The paths, sorted.
    public var paths: [String] { files.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) } }

    /// The marker file that says a directory is compose's own (it is replaced as a whole on every run).
    public static let marker = ".tenantctl-compose"
}
