import Foundation

/// The outcome of one module merge.
public struct ModuleMergeOutcome: Sendable, Equatable {
    /// The planned merge.
    public var merge: ModuleMerge
    /// The merge commit (nil when conflicted).
    public var commit: String?
    /// Conflicting paths (empty when clean).
    public var conflicts: [String]
}
