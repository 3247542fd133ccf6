import Foundation

/// The re-pin commit on the superproject's general branch.
public struct GeneralRepin: Sendable, Equatable {
    /// The general branch tip it is based on (its parent).
    public var base: ObjectID
    /// The gitlinks that move to the modules' general tips.
    public var changes: [PinChange]
}
