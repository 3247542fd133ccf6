import Foundation

/// Reads module pins (gitlinks) of superproject commits.
///
/// A gitlink is not an object of the superproject, so it cannot be read by name: the parent trees of the module
/// paths are read instead, all of them through one `cat-file --batch`. Object-id length agnostic.
public enum PinReader {
    /// Commit → module path → pinned commit, for every commit and every path that has a gitlink there.
    public static func pins(of commits: [String], paths: [String], batch: CatFileBatch) throws(GitError)
        -> [String: [String: String]]
    {
        // Each path split once; per commit one tree per directory, its gitlinks looked up by name (at 1000 tenant
        // branches × 50 modules the per-path string work was most of reading the pins).
        var namesByDirectory: [String: [(path: String, name: String)]] = [:]
        for path in paths {
            let (directory, name) = TreePath.split(path)
            namesByDirectory[directory, default: []].append((path, name))
        }
        let directories = namesByDirectory.keys.sorted()
        let distinct = Array(Set(commits)).sorted()
        var names: [String] = []
        names.reserveCapacity(distinct.count * directories.count)
        for commit in distinct {
            for directory in directories {
                names.append(directory.isEmpty ? "\(commit)^{tree}" : "\(commit):\(directory)")
            }
        }
        let objects = try batch.objects(names)
        var result: [String: [String: String]] = [:]
        result.reserveCapacity(distinct.count)
        var index = 0
        var pool = ObjectIDPool()
        for commit in distinct {
            var pins: [String: String] = [:]
            pins.reserveCapacity(paths.count)
            for directory in directories {
                defer { index += 1 }
                guard let object = objects[index] else { continue }  // the directory does not exist in that commit
                guard object.type == "tree",
                    let gitlinks = GitParse.treeGitlinks(object.data, idLength: ObjectID.byteLength(ofHex: object.id))
                else { continue }  // a file where a directory was expected: no gitlink below it
                for (path, name) in namesByDirectory[directory] ?? [] {
                    if let id = gitlinks[name] { pins[path] = pool.intern(id) }
                }
            }
            result[commit] = pins
        }
        return result
    }

    /// Module path → pinned commit of one commit, with a `cat-file --batch` of its own.
    public static func pins(at commit: String, paths: [String], in repository: String, git: Git) throws(GitError)
        -> [String: String]
    {
        guard !paths.isEmpty else { return [:] }
        let batch = try CatFileBatch(git: git, repository: repository)
        let pins = try Self.pins(of: [commit], paths: paths, batch: batch)[commit] ?? [:]
        try batch.close()
        return pins
    }
}

/// Paths inside a tree.
public enum TreePath {
    /// `Modules/Article` → (`Modules`, `Article`); `Article` → (``, `Article`).
    public static func split(_ path: String) -> (directory: String, name: String) {
        guard let slash = path.lastIndex(of: "/") else { return ("", path) }
        return (String(path[..<slash]), String(path[path.index(after: slash)...]))
    }

    /// The directory part of a path (`` for a top-level name).
    public static func parent(_ path: String) -> String { split(path).directory }
}
