import Foundation

/// The union of the active modules' third-party dependencies (the thesis' combinepods).
public struct ComposedDependencies: Sendable, Equatable {
    /// Packages sorted by identity.
    public var packages: [ComposedPackage]
    /// Pods sorted by name.
    public var pods: [ComposedPod]
    /// The strictest minimum version of every platform named, in ``PlatformVersions/names`` order.
    public var platforms: [ComposedPlatform] = []
}
