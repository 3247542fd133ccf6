import Foundation

/// One module pin that changes.
public struct PinChange: Sendable, Equatable, Codable {
    /// Module name.
    public var module: String
    /// Gitlink path.
    public var path: String
    /// The pin before (nil: the module was not pinned).
    public var old: ObjectID?
    /// The pin after.
    public var new: ObjectID

    public init(module: String, path: String, old: ObjectID?, new: ObjectID) {
        self.module = module
        self.path = path
        self.old = old
        self.new = new
    }
}
