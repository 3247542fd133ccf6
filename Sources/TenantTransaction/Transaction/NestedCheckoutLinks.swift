import Foundation

/// The links of the nested checkouts a module checkout holds (its own submodules, recursively), kept right when the
/// module's checkout moves. A nested checkout cloned by `git submodule update --init` has its git directory inside
/// its module's (`.git/modules/<module>/modules/<nested>`), so the directory rename that moves the module's checkout
/// does not move it: its `.git` file names the git directory relative to the old place, and the git directory's
/// `core.worktree` names the old place. git itself cannot work there any more (`cannot chdir`, `not a git
/// repository`), and plain `git status` in the superproject fails with it. `git mv` and `git submodule
/// absorbgitdirs` rewrite both links of every nested checkout; so does ``reconnect(in:movedFrom:outside:)``.
///
/// A nested checkout whose `.git` is a directory (its git directory inside it) moves with the module's directory
/// and keeps its links: nothing is done for it.
package enum NestedCheckoutLinks {
    /// A nested checkout whose links were set right.
    package struct Reconnected: Sendable, Equatable {
        /// Its path inside the module's checkout (`external/capture-device-support`).
        package var path: String
        /// Its git directory (absolute).
        package var gitDirectory: String
    }

    /// Points every nested checkout of the module checkout at `checkout` (absolute; its own links already right) at
    /// where it is now: its `.git` file names its git directory from there, and that git directory's
    /// `core.worktree` (when set) names it. `other` is the path the module's checkout was moved from (a move just
    /// made, or one a stopped switch or its put-back left): a nested `.git` file may name its git directory as seen
    /// from there. Parents first (a nested checkout's own gitlinks are read once its links are right), only where
    /// `.gitmodules` exists; links already right are left as they are (no write). `outside` runs git outside the
    /// checkout. Returns the nested checkouts whose links were rewritten.
    @discardableResult
    package static func reconnect(in checkout: String, movedFrom other: String, outside: GitRepository) throws
        -> [Reconnected]
    {
        try reconnect(in: checkout, movedFrom: other, prefix: "", outside: outside)
    }

    private static func reconnect(in checkout: String, movedFrom other: String, prefix: String, outside: GitRepository)
        throws -> [Reconnected]
    {
        guard FileManager.default.fileExists(atPath: (checkout as NSString).appendingPathComponent(".gitmodules"))
        else {
            return []
        }
        var result: [Reconnected] = []
        let repository = outside.repository(at: checkout)
        for (relative, _) in try repository.indexGitlinks(what: prefix.isEmpty ? checkout : prefix) {
            let here = (checkout as NSString).appendingPathComponent(relative)
            let there = (other as NSString).appendingPathComponent(relative)
            let dotGit = (here as NSString).appendingPathComponent(".git")
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: dotGit, isDirectory: &isDirectory), !isDirectory.boolValue,
                let gitDirectory = try gitDirectory(of: here, movedFrom: there, outside: outside)
            else { continue }
            let display = prefix.isEmpty ? relative : prefix + "/" + relative
            if try connect(here, to: gitDirectory, outside: outside) {
                result.append(Reconnected(path: display, gitDirectory: gitDirectory))
            }
            result += try reconnect(in: here, movedFrom: there, prefix: display, outside: outside)
        }
        return result
    }

    /// The nested checkouts of the module checkout at `checkout` (absolute; links right) whose `.git` file names a
    /// git directory outside it, at any depth: those whose links a move of the checkout rewrites (paths inside the
    /// checkout, parents first). Changes nothing.
    package static func linked(in checkout: String, outside: GitRepository) throws -> [String] {
        var result: [String] = []
        func visit(_ directory: String, prefix: String) throws {
            guard FileManager.default.fileExists(atPath: (directory as NSString).appendingPathComponent(".gitmodules"))
            else { return }
            for (relative, _) in try outside.repository(at: directory).indexGitlinks(what: prefix) {
                let nested = (directory as NSString).appendingPathComponent(relative)
                let display = prefix.isEmpty ? relative : prefix + "/" + relative
                let dotGit = (nested as NSString).appendingPathComponent(".git")
                var isDirectory: ObjCBool = false
                guard FileManager.default.fileExists(atPath: dotGit, isDirectory: &isDirectory) else { continue }
                if !isDirectory.boolValue,
                    let named = StoppedCheckoutMove.gitDirectory(namedIn: dotGit, from: nested),
                    !isInside(named, checkout)
                {
                    result.append(display)
                }
                try visit(nested, prefix: display)
            }
        }
        try visit(checkout, prefix: "")
        return result
    }

    /// Whether `path` is `directory` or below it (`..` and symbolic links resolved).
    private static func isInside(_ path: String, _ directory: String) -> Bool {
        func resolved(_ path: String) -> String {
            URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath().standardizedFileURL.path
        }
        let inner = resolved(path)
        let outer = resolved(directory)
        return inner == outer || inner.hasPrefix(outer + "/")
    }

    /// The git directory of the nested checkout at `checkout`, whose `.git` file was written there or at `other`: the
    /// first of the two readings that is a git directory whose `core.worktree` is unset or names one of the two
    /// places. Nil when neither is (a `.git` file of the user's making: left alone).
    private static func gitDirectory(of checkout: String, movedFrom other: String, outside: GitRepository) throws
        -> String?
    {
        let dotGit = (checkout as NSString).appendingPathComponent(".git")
        for base in [checkout, other] {
            guard let named = StoppedCheckoutMove.gitDirectory(namedIn: dotGit, from: base), isGitDirectory(named)
            else { continue }
            guard let worktree = try worktree(of: named, outside: outside) else { return named }
            if sameDirectory(worktree, checkout) || sameDirectory(worktree, other) { return named }
        }
        return nil
    }

    /// Sets both links of the checkout at `checkout` to `gitDirectory`, each only when it differs; returns whether
    /// one was written.
    private static func connect(_ checkout: String, to gitDirectory: String, outside: GitRepository) throws -> Bool {
        var wrote = false
        let config = (gitDirectory as NSString).appendingPathComponent("config")
        if let worktree = try worktree(of: gitDirectory, outside: outside), !sameDirectory(worktree, checkout) {
            try outside.setConfig(
                "core.worktree", to: StoppedCheckoutMove.relativePath(from: gitDirectory, to: checkout),
                inFile: config, context: "point core.worktree of \(gitDirectory) at \(checkout)")
            wrote = true
        }
        let dotGit = (checkout as NSString).appendingPathComponent(".git")
        let named = StoppedCheckoutMove.gitDirectory(namedIn: dotGit, from: checkout)
        if named.map({ !sameDirectory($0, gitDirectory) }) ?? true {
            let line = "gitdir: \(StoppedCheckoutMove.relativePath(from: checkout, to: gitDirectory))\n"
            do {
                try Data(line.utf8).write(to: URL(fileURLWithPath: dotGit), options: .atomic)
            } catch {
                throw WorkspaceError(
                    "cannot write \(dotGit) (it names the git directory of a nested checkout whose module's "
                        + "checkout moved): \(error.localizedDescription); write `gitdir: \(gitDirectory)` into it "
                        + "yourself")
            }
            wrote = true
        }
        return wrote
    }

    /// The checkout `core.worktree` of `gitDirectory` names (absolute), nil when it is unset.
    private static func worktree(of gitDirectory: String, outside: GitRepository) throws -> String? {
        let config = (gitDirectory as NSString).appendingPathComponent("config")
        guard
            let value = try outside.configValue(
                "core.worktree", inFile: config, context: "read core.worktree of \(gitDirectory)")
        else { return nil }
        return value.hasPrefix("/") ? value : (gitDirectory as NSString).appendingPathComponent(value)
    }

    /// Whether `path` looks like a git directory: a directory with a `config` file and a `HEAD`.
    private static func isGitDirectory(_ path: String) -> Bool {
        let fileManager = FileManager.default
        return fileManager.fileExists(atPath: (path as NSString).appendingPathComponent("config"))
            && fileManager.fileExists(atPath: (path as NSString).appendingPathComponent("HEAD"))
    }

    /// Whether two paths name the same directory (`..` and symbolic links resolved).
    private static func sameDirectory(_ one: String, _ other: String) -> Bool {
        func resolved(_ path: String) -> String {
            URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath().standardizedFileURL.path
        }
        return resolved(one) == resolved(other)
    }
}
