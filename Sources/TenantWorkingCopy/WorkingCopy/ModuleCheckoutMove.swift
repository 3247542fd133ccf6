import Foundation

/// Moves a module's checkout to another path of the superproject, as `git mv` does for a submodule but without
/// touching the superproject's index: the directory is renamed, its `.git` file and the git directory's
/// `core.worktree` are pointed at the new place, and so are both links of every nested checkout it holds whose git
/// directory stays where it is (``NestedCheckoutLinks``), as `git mv` keeps them. For a module whose path differs
/// between two branches (same submodule, moved): the checkout follows the branch switched to, with its branches,
/// files, nested checkouts and git directory.
enum ModuleCheckoutMove {
    /// Moves `checkout` (at its path) to `destination` (an absolute path). `destination` must be absent or an empty
    /// directory (what the superproject's checkout leaves for a gitlink); throws, moving nothing, otherwise. Returns
    /// the nested checkouts whose links were pointed at the new place (paths inside the checkout).
    @discardableResult
    static func move(_ checkout: GitRepository, to destination: String) throws -> [String] {
        let source = checkout.path
        let fileManager = FileManager.default
        let gitDirectory = try checkout.absoluteGitDirectory()
        var isDirectory: ObjCBool = false
        if fileManager.fileExists(atPath: destination, isDirectory: &isDirectory) {
            guard isDirectory.boolValue, try fileManager.contentsOfDirectory(atPath: destination).isEmpty else {
                throw WorkspaceError(
                    "\(destination) is not empty; the module checkout at \(source) was not moved there")
            }
        }
        // git calls first, run outside the checkout; then only file operations, undone when one fails.
        let config = (gitDirectory as NSString).appendingPathComponent("config")
        let outside = checkout.repository(at: (source as NSString).deletingLastPathComponent)
        let oldWorktree = try outside.configValue(
            "core.worktree", inFile: config, context: "read core.worktree of \(gitDirectory)")
        if oldWorktree != nil {
            try outside.setConfig(
                "core.worktree", to: relativePath(from: gitDirectory, to: destination), inFile: config,
                context: "point core.worktree of \(gitDirectory) at \(destination)")
        }
        do {
            if fileManager.fileExists(atPath: destination) { try fileManager.removeItem(atPath: destination) }
            try fileManager.createDirectory(
                atPath: (destination as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try fileManager.moveItem(atPath: source, toPath: destination)
        } catch {
            // Put core.worktree back; if that fails too, say so: the checkout then needs it set by hand.
            var restore = ""
            if let oldWorktree {
                do {
                    try outside.setConfig(
                        "core.worktree", to: oldWorktree, inFile: config,
                        context: "point core.worktree of \(gitDirectory) back at \(source)")
                } catch {
                    restore =
                        "; core.worktree of \(gitDirectory) could not be set back (\(error)): run "
                        + "`git config --file \(config) core.worktree \(oldWorktree)`"
                }
            }
            throw WorkspaceError("cannot move the module checkout \(source) to \(destination): \(error)\(restore)")
        }
        let dotGit = (destination as NSString).appendingPathComponent(".git")
        if fileManager.fileExists(atPath: dotGit, isDirectory: &isDirectory), !isDirectory.boolValue {
            try Data("gitdir: \(relativePath(from: destination, to: gitDirectory))\n".utf8).write(
                to: URL(fileURLWithPath: dotGit), options: .atomic)
        }
        // The nested checkouts last: their links are read and written from the module's checkout, whole again.
        let nested = try NestedCheckoutLinks.reconnect(in: destination, movedFrom: source, outside: outside)
        removeEmptyParents(of: source, below: (destination as NSString).deletingLastPathComponent)
        return nested.map(\.path)
    }

    /// The nested checkouts of the module checkout at `checkout` (absolute) whose links a move rewrites: each one, at
    /// any depth, whose `.git` file names a git directory outside the module's checkout (paths inside the checkout,
    /// parents first). What `--dry-run` says a move takes along.
    static func linkedNestedCheckouts(in checkout: String, outside: GitRepository) throws -> [String] {
        try NestedCheckoutLinks.linked(in: checkout, outside: outside)
    }

    /// The path of `target` relative to the directory `base` (both absolute; symbolic links resolved).
    static func relativePath(from base: String, to target: String) -> String {
        StoppedCheckoutMove.relativePath(from: base, to: target)
    }

    /// Removes the directories above `path` that the move left empty (`plugins/` of `plugins/cap`), never
    /// `keep` or a directory above it.
    static func removeEmptyParents(of path: String, below keep: String) {
        var directory = (path as NSString).deletingLastPathComponent
        while !keep.hasPrefix(directory), directory.count > 1,
            let entries = try? FileManager.default.contentsOfDirectory(atPath: directory), entries.isEmpty
        {
            guard (try? FileManager.default.removeItem(atPath: directory)) != nil else { return }
            directory = (directory as NSString).deletingLastPathComponent
        }
    }
}
