import Foundation

/// One tenant's module at one point. Nil fields are unknown: the tenant absent, no gitlink at the module's path, the
/// module's general branch not yet made, or the pin missing from the module's repository.
public struct HistoryCell: Sendable, Equatable {
    /// The pinned commit (full id).
    public var pin: String?
    /// Commits of the module's general branch at the point that the pin lacks.
    public var behind: Int?
    /// Non-merge commits in the pin that are not on the module's general branch at the point.
    public var ahead: Int?
    /// Lines added from the merge base of the pin and the general branch at the point to the pin.
    public var added: Int?
    /// Lines removed, likewise.
    public var removed: Int?

    public init(pin: String? = nil, behind: Int? = nil, ahead: Int? = nil, added: Int? = nil, removed: Int? = nil) {
        self.pin = pin
        self.behind = behind
        self.ahead = ahead
        self.added = added
        self.removed = removed
    }
}
