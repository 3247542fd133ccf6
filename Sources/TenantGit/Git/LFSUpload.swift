import Foundation

/// Git LFS objects a push needs, uploaded before the push, as git-lfs's pre-push hook would upload them: pushes run
/// with the repository's hooks disabled (a hook is the repository's code), so the upload is made explicitly with
/// `git lfs pre-push`, fed the refs the push will set.
///
/// Only a repository that stores LFS objects (its common git directory has `lfs/objects`, which git-lfs creates the
/// first time it stores one) can have any to upload: for every other repository — tenantctl's mirrors, a workspace
/// without LFS — this costs a file-system check and no process. A repository that stores LFS objects while git-lfs
/// is not installed is refused before the push: it could publish commits pointing at content the server never got.
public enum LFSUpload {
    static let zeroID = String(repeating: "0", count: 40)

    /// Uploads the LFS objects the commits of `updates` need to `remote` (a remote name or URL), from `repository`.
    public static func upload(
        _ updates: [RefUpdate], repository name: String, from repository: String, to remote: String, git: Git
    )
        throws
    {
        let sets = updates.filter { $0.new != nil }
        guard !sets.isEmpty, storesObjects(repository) else { return }
        guard isInstalled(path: git.environment["PATH"] ?? "") else {
            throw PushError(
                "\(name) stores Git LFS objects but git-lfs is not installed: the push could publish commits whose "
                    + "LFS content the server never got. Install git-lfs (e.g. apt-get install git-lfs) and run again; "
                    + "nothing was pushed")
        }
        var input = ""
        for update in sets {
            input += "\(update.ref) \(update.new?.hex ?? zeroID) \(update.ref) \(update.old?.hex ?? zeroID)\n"
        }
        try git.runNetwork(
            ["lfs", "pre-push"] + arguments(remote: remote), in: repository, remote: remote, input: Data(input.utf8),
            context: "upload the Git LFS objects of \(name) to \(Redaction.redact(remote)) (nothing was pushed)")
    }

    /// `git lfs pre-push`'s arguments: a remote's name alone (git-lfs reads its URL and remote-tracking refs), or
    /// the URL twice, a local path as a `file://` URL (git-lfs's own transfer for local remotes).
    static func arguments(remote: String) -> [String] {
        if !remote.contains("/") && !remote.contains(":") { return [remote] }
        if remote.hasPrefix("/") { return [remote, "file://" + remote] }
        return [remote, remote]
    }

    /// Whether the common git directory of `repository` (a working tree or a bare repository) has `lfs/objects`.
    static func storesObjects(_ repository: String) -> Bool {
        guard let common = commonDirectory(of: repository) else { return false }
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: common + "/lfs/objects", isDirectory: &isDirectory)
            && isDirectory.boolValue
    }

    /// The common git directory: `<repository>/.git` (followed when it is a `gitdir:` file, as in a submodule or a
    /// linked worktree, and then its `commondir`), or `repository` itself when it is bare.
    static func commonDirectory(of repository: String) -> String? {
        let dotGit = repository + "/.git"
        var isDirectory: ObjCBool = false
        var gitDirectory: String
        if FileManager.default.fileExists(atPath: dotGit, isDirectory: &isDirectory) {
            if isDirectory.boolValue {
                gitDirectory = dotGit
            } else {
                guard let text = try? String(contentsOfFile: dotGit, encoding: .utf8), text.hasPrefix("gitdir: ")
                else { return nil }
                let target = text.dropFirst("gitdir: ".count).trimmingCharacters(in: .whitespacesAndNewlines)
                gitDirectory = target.hasPrefix("/") ? target : repository + "/" + target
            }
        } else if FileManager.default.fileExists(atPath: repository + "/HEAD") {
            gitDirectory = repository
        } else {
            return nil
        }
        if let common = try? String(contentsOfFile: gitDirectory + "/commondir", encoding: .utf8) {
            let target = common.trimmingCharacters(in: .whitespacesAndNewlines)
            gitDirectory = target.hasPrefix("/") ? target : gitDirectory + "/" + target
        }
        return gitDirectory
    }

    /// Whether `git-lfs` is an executable in one of `path`'s directories.
    static func isInstalled(path: String) -> Bool {
        path.split(separator: ":").contains { FileManager.default.isExecutableFile(atPath: "\($0)/git-lfs") }
    }
}
