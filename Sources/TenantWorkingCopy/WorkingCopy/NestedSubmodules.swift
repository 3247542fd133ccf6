import Foundation

/// A nested submodule (a module's own submodule) and where it stands.
public struct NestedSubmodule: Sendable, Codable, Equatable {
    /// Path relative to the superproject root (`Modules/Article/Vendor/Lib`).
    public var path: String
    /// The commit the module records for it.
    public var recorded: String
    /// Its HEAD; nil when it is not initialised.
    public var head: String?

    /// Whether it is initialised at its recorded commit.
    public var atRecorded: Bool { head == recorded }
}

/// Reads the nested submodules of a module, recursively, without changing anything.
enum NestedSubmodules {
    /// Every gitlink of `checkout` (its index), recursively; `prefix` is its path relative to the superproject root.
    static func inspect(_ checkout: GitRepository, prefix: String) throws(GitError) -> [NestedSubmodule] {
        let path = checkout.path
        guard FileManager.default.fileExists(atPath: (path as NSString).appendingPathComponent(".gitmodules")) else {
            return []
        }
        var result: [NestedSubmodule] = []
        for (relative, recorded) in try checkout.indexGitlinks(what: prefix) {
            let inner = checkout.repository(at: (path as NSString).appendingPathComponent(relative))
            let display = prefix + "/" + relative
            var nested = NestedSubmodule(path: display, recorded: recorded, head: nil)
            if try CheckoutPresence.of(inner) == .repository {
                nested.head = try inner.objectID(of: "HEAD", context: "read the HEAD of \(display)")?.hex
                result.append(nested)
                result += try inspect(inner, prefix: display)
            } else {
                result.append(nested)
            }
        }
        return result
    }
}
