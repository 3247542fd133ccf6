import Foundation

/// The `review` objects of one `modules.json`: the manifest's and each module's that has one.
public struct CheckedOutReview: Sendable, Equatable {
    /// The manifest's `review` object.
    public var review: ReviewSettings?
    /// Module name → its own `review` object.
    public var modules: [String: ReviewSettings]

    public init(review: ReviewSettings?, modules: [String: ReviewSettings]) {
        self.review = review
        self.modules = modules
    }

    /// The objects of `manifest`.
    public init(manifest: ModuleManifest) {
        review = manifest.review
        modules = Dictionary(
            manifest.modules.compactMap { module in module.review.map { (module.name, $0) } },
            uniquingKeysWith: { first, _ in first })
    }

    /// The objects as `modules.json` has them, for a message: `{"forge": "gitlab"}`, `modules[Order].review {…}`;
    /// `no review object` when there is none.
    public var described: String {
        var parts: [String] = []
        if let review { parts.append("review \(review.encoded())") }
        for name in modules.keys.sorted() { parts.append("\(name)'s review \(modules[name]?.encoded() ?? "")") }
        return parts.isEmpty ? "no review object" : parts.joined(separator: ", ")
    }
}
