import Foundation

/// A module checkout move that stopped between its steps. A checkout has two pointers: the `.git` file in the
/// checkout names its git directory, and that git directory's `core.worktree` names the checkout. switch moves a
/// checkout (to the path where the branch it switches to has the module) in three steps: `core.worktree` is pointed
/// at the new path, the directory is renamed, the `.git` file is written again for the new place. No git call comes
/// between them, so a kill between them leaves the two pointers disagreeing with where the directory is, and git
/// cannot work in the checkout (`cannot chdir`, `not a git repository`):
/// - stopped before the rename: the checkout is at the old path with its `.git` file, nothing is at the new one, and
///   `core.worktree` already names the new path;
/// - stopped after the rename: the checkout is at the new path, nothing is at the old one, `core.worktree` names the
///   new path and the `.git` file still names the git directory as seen from the old path.
///
/// Either way every file, the index, HEAD and the branches are the checkout's own, whole: only a pointer is wrong,
/// and each is set to where the checkout really is. Nothing else is touched, and a state that is not exactly one of
/// these is left as it is.
package enum StoppedCheckoutMove {
    /// What was set right.
    package enum Repair: Sendable, Equatable {
        /// `core.worktree` of the checkout's git directory named the path the move was taking it to, where nothing
        /// is: it names the checkout again (`checkout`, absolute).
        case worktreePointedBack(checkout: String, gitDirectory: String)
        /// The checkout's `.git` file named the git directory from the path it was moved away from: it names it from
        /// where the checkout is now (`checkout`, absolute).
        case gitFileRewritten(checkout: String, gitDirectory: String)

        /// The checkout, as it stands now.
        package var checkout: String {
            switch self {
            case .worktreePointedBack(let checkout, _), .gitFileRewritten(let checkout, _): checkout
            }
        }

        /// What was wrong and what was done, in words, with paths as given by `relative` (a path relative to the
        /// workspace for a message).
        package func description(relative: (String) -> String) -> String {
            switch self {
            case .worktreePointedBack(let checkout, let gitDirectory):
                "core.worktree of \(gitDirectory) named the path the move was taking the checkout to, where nothing "
                    + "is; it names \(relative(checkout)) again, where the checkout is"
            case .gitFileRewritten(let checkout, let gitDirectory):
                "the .git file of \(relative(checkout)) still named its git directory from the path the checkout "
                    + "was moved away from; it names \(gitDirectory) again"
            }
        }
    }

    /// Sets the pointers of a checkout that a move between the absolute paths `one` and `other` (either way round)
    /// left disagreeing with where it is: see the type. `outside` runs git outside either path (the checkout's own
    /// configuration cannot be trusted). Nil when the checkout is not in one of the two stopped states (a checkout as
    /// git left it, a move not begun or finished, or anything else): then nothing is changed.
    package static func repair(between one: String, and other: String, outside: GitRepository) throws -> Repair? {
        for (here, there) in [(one, other), (other, one)] {
            if let repair = try pointBack(checkout: here, movingTo: there, outside: outside) { return repair }
            if let repair = try finish(checkout: here, movedFrom: there, outside: outside) { return repair }
        }
        return nil
    }

    /// Stopped before the rename: the checkout at `checkout` with its `.git` file naming a git directory (from
    /// there), no checkout at `destination`, and the git directory's `core.worktree` exactly the value a move to
    /// `destination` writes. `core.worktree` is pointed at `checkout` again.
    package static func pointBack(checkout: String, movingTo destination: String, outside: GitRepository) throws
        -> Repair?
    {
        guard let dotGit = gitFile(in: checkout), !hasGitEntry(destination),
            let gitDirectory = gitDirectory(namedIn: dotGit, from: checkout), isGitDirectory(gitDirectory)
        else { return nil }
        let config = (gitDirectory as NSString).appendingPathComponent("config")
        let worktree = try outside.configValue(
            "core.worktree", inFile: config, context: "read core.worktree of \(gitDirectory)")
        guard worktree == relativePath(from: gitDirectory, to: destination) else { return nil }
        try outside.setConfig(
            "core.worktree", to: relativePath(from: gitDirectory, to: checkout), inFile: config,
            context: "point core.worktree of \(gitDirectory) back at \(checkout)")
        return .worktreePointedBack(checkout: checkout, gitDirectory: gitDirectory)
    }

    /// Stopped after the rename: the checkout at `checkout` with a `.git` file whose git directory does not exist
    /// from there but does from `source` (it was written there), nothing at `source`, and the git directory's
    /// `core.worktree` naming `checkout` (as the move wrote it) or unset. The `.git` file is written for `checkout`,
    /// as the move would have.
    package static func finish(checkout: String, movedFrom source: String, outside: GitRepository) throws -> Repair? {
        guard let dotGit = gitFile(in: checkout), !hasGitEntry(source) else { return nil }
        if let named = gitDirectory(namedIn: dotGit, from: checkout), isGitDirectory(named) { return nil }
        guard let gitDirectory = gitDirectory(namedIn: dotGit, from: source), isGitDirectory(gitDirectory) else {
            return nil
        }
        let config = (gitDirectory as NSString).appendingPathComponent("config")
        let worktree = try outside.configValue(
            "core.worktree", inFile: config, context: "read core.worktree of \(gitDirectory)")
        if let worktree {
            let named =
                worktree.hasPrefix("/") ? worktree : (gitDirectory as NSString).appendingPathComponent(worktree)
            guard sameDirectory(named, checkout) else { return nil }
        }
        do {
            try Data("gitdir: \(relativePath(from: checkout, to: gitDirectory))\n".utf8).write(
                to: URL(fileURLWithPath: dotGit), options: .atomic)
        } catch {
            throw WorkspaceError(
                "cannot write \(dotGit) (it names the git directory of the checkout from where the checkout was "
                    + "before): \(error.localizedDescription); write `gitdir: \(gitDirectory)` into it yourself")
        }
        return .gitFileRewritten(checkout: checkout, gitDirectory: gitDirectory)
    }

    /// The git directory a checkout's `.git` file names (`gitdir: <path>`), absolute: relative paths taken from the
    /// directory `base`; nil when the file says no such thing.
    package static func gitDirectory(namedIn file: String, from base: String) -> String? {
        guard let data = FileManager.default.contents(atPath: file) else { return nil }
        let text = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard text.hasPrefix("gitdir: ") else { return nil }
        let named = String(text.dropFirst("gitdir: ".count))
        guard !named.isEmpty else { return nil }
        return named.hasPrefix("/")
            ? named
            : URL(fileURLWithPath: (base as NSString).appendingPathComponent(named)).standardizedFileURL.path
    }

    /// The path of `target` relative to the directory `base` (both absolute; symbolic links resolved).
    package static func relativePath(from base: String, to target: String) -> String {
        let from = URL(fileURLWithPath: base).resolvingSymlinksInPath().standardizedFileURL.pathComponents
        let to = URL(fileURLWithPath: target).resolvingSymlinksInPath().standardizedFileURL.pathComponents
        var common = 0
        while common < from.count, common < to.count, from[common] == to[common] { common += 1 }
        let parts = Array(repeating: "..", count: from.count - common) + to[common...]
        return parts.isEmpty ? "." : parts.joined(separator: "/")
    }

    /// `<directory>/.git` when it is a file (a checkout whose git directory is elsewhere).
    private static func gitFile(in directory: String) -> String? {
        let dotGit = (directory as NSString).appendingPathComponent(".git")
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: dotGit, isDirectory: &isDirectory), !isDirectory.boolValue else {
            return nil
        }
        return dotGit
    }

    /// Whether `<directory>/.git` exists in any form.
    private static func hasGitEntry(_ directory: String) -> Bool {
        FileManager.default.fileExists(atPath: (directory as NSString).appendingPathComponent(".git"))
    }

    /// Whether `path` looks like a git directory: a directory with a `config` file and a `HEAD`.
    private static func isGitDirectory(_ path: String) -> Bool {
        let fileManager = FileManager.default
        return fileManager.fileExists(atPath: (path as NSString).appendingPathComponent("config"))
            && fileManager.fileExists(atPath: (path as NSString).appendingPathComponent("HEAD"))
    }

    /// Whether two paths name the same directory (symbolic links resolved).
    private static func sameDirectory(_ one: String, _ other: String) -> Bool {
        func resolved(_ path: String) -> String {
            URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath().standardizedFileURL.path
        }
        return resolved(one) == resolved(other)
    }
}
