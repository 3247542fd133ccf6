import Foundation

/// `modules.json`: the modules of the superproject and their dependencies.
public struct ModuleManifest: Sendable, Equatable {
    /// Format version; must be 1.
    public var version: Int
    /// The shared development branch; `general_dev` when absent.
    public var generalBranch: String
    /// The modules in manifest order.
    public var modules: [Module]
    /// How `roll --review` proposes (the `review` object); nil: proposal branches (`branch`), `tenantctl/roll`.
    public var review: ReviewSettings?

    /// Creates a manifest.
    public init(version: Int = 1, generalBranch: String = ModuleManifest.defaultGeneralBranch, modules: [Module]) {
        self.version = version
        self.generalBranch = generalBranch
        self.modules = modules
    }

    /// The general branch of a module's repository: the module's own `generalBranch`, else the manifest's.
    public func generalBranch(of module: Module) -> String {
        module.generalBranch ?? generalBranch
    }

    /// The general branch used when the manifest does not name one.
    public static let defaultGeneralBranch = "general_dev"

    /// Stable pretty JSON (keys version, generalBranch, review when set, modules; module keys name, path, url,
    /// generalBranch when the module names its own, review when set, dependsOn), ending with a newline.
    public func encoded() -> Data {
        var out = "{\n"
        out += "  \"version\": \(version),\n"
        out += "  \"generalBranch\": \(JSONText.quoted(generalBranch)),\n"
        if let review { out += "  \"review\": \(review.encoded()),\n" }
        if modules.isEmpty {
            out += "  \"modules\": []\n"
        } else {
            out += "  \"modules\": [\n"
            let entries = modules.map { module in
                "    {\n"
                    + "      \"name\": \(JSONText.quoted(module.name)),\n"
                    + "      \"path\": \(JSONText.quoted(module.path)),\n"
                    + "      \"url\": \(JSONText.quoted(module.url)),\n"
                    + (module.generalBranch.map { "      \"generalBranch\": \(JSONText.quoted($0)),\n" } ?? "")
                    + (module.review.map { "      \"review\": \($0.encoded()),\n" } ?? "")
                    + "      \"dependsOn\": \(JSONText.inlineArray(module.dependsOn))\n"
                    + "    }"
            }
            out += entries.joined(separator: ",\n") + "\n  ]\n"
        }
        out += "}\n"
        return Data(out.utf8)
    }
}
