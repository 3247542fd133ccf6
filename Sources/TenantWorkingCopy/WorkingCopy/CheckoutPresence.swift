import Foundation

/// Where a module stands on disk: a repository of its own, missing/empty (not initialised), or something else.
package enum CheckoutPresence: Sendable, Equatable {
    case repository
    case notInitialised
    case notARepository(String)

    /// The presence of `checkout` (a repository value whose path is where the checkout should be).
    package static func of(_ checkout: GitRepository) throws(GitError) -> CheckoutPresence {
        let path = checkout.path
        let fileManager = FileManager.default
        // A symbolic link is never followed: git would refuse to check out through it, and replacing it would
        // lose whatever it points at.
        if let type = try? fileManager.attributesOfItem(atPath: path)[.type] as? FileAttributeType,
            type == .typeSymbolicLink
        {
            let destination = (try? fileManager.destinationOfSymbolicLink(atPath: path)) ?? "?"
            return .notARepository(
                "is a symbolic link (to \(destination)), not the module's own checkout; not touched: replace it "
                    + "with the module's directory yourself (remove the link, then run tenantctl switch again)")
        }
        var isDirectory: ObjCBool = false
        guard fileManager.fileExists(atPath: path, isDirectory: &isDirectory) else { return .notInitialised }
        guard isDirectory.boolValue else { return .notARepository("exists but is not a directory") }
        let dotGit = (path as NSString).appendingPathComponent(".git")
        guard fileManager.fileExists(atPath: dotGit) else {
            let contents = (try? fileManager.contentsOfDirectory(atPath: path)) ?? ["?"]
            return contents.isEmpty
                ? .notInitialised : .notARepository("directory has files but is not a git repository; not touched")
        }
        let top = try checkout.topLevel()
        let resolvedTop = URL(fileURLWithPath: top).resolvingSymlinksInPath().path
        let resolvedPath = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
        return resolvedTop == resolvedPath ? .repository : .notARepository("is not the root of a git repository")
    }
}
