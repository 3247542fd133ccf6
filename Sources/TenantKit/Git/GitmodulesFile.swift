import Foundation

/// Edits `.gitmodules` content with `git config --file` on a temporary copy (git's own parser and writer).
enum GitmodulesFile {
    /// The `.gitmodules` of `commit`; empty when it has none.
    static func read(at commit: String, in repository: GitRepository) throws -> Data {
        guard try repository.hasPath(".gitmodules", at: commit, context: "look for .gitmodules") else { return Data() }
        return try repository.blob(".gitmodules", at: commit, context: "read .gitmodules")
    }

    private static func withCopy<T>(_ content: Data, _ body: (String) throws -> T) throws -> T {
        let directory = try TemporaryDirectory(prefix: "tenantctl-gitmodules-")
        defer { directory.remove() }
        let file = directory.url.appendingPathComponent("gitmodules")
        try content.write(to: file)
        return try body(file.path)
    }

    static func entries(_ content: Data, git: Git) throws -> [GitmodulesEntry] {
        try withCopy(content) { path in try entries(ofFile: path, in: nil, git: git) }
    }

    /// The entries of the `.gitmodules`-format file `file` (git's own parser), git run in `directory`.
    static func entries(ofFile file: String, in directory: String?, git: Git) throws(GitError) -> [GitmodulesEntry] {
        GitmodulesParser.parse(
            try git.run(["config", "-z", "--file", file, "--list"], in: directory, context: "read .gitmodules").stdout)
    }

    static func sectionName(forPath path: String, in content: Data, git: Git) throws -> String? {
        try entries(content, git: git).first { $0.path == path }?.name
    }

    static func hasSection(_ name: String, in content: Data, git: Git) throws -> Bool {
        try entries(content, git: git).contains { $0.name == name }
    }

    static func adding(name: String, path: String, url: String, to content: Data, git: Git) throws -> Data {
        try withCopy(content) { file in
            try git.run(
                ["config", "--file", file, "submodule.\(name).path", path], in: nil, context: "edit .gitmodules")
            try git.run(["config", "--file", file, "submodule.\(name).url", url], in: nil, context: "edit .gitmodules")
            return try Data(contentsOf: URL(fileURLWithPath: file))
        }
    }

    static func removing(section name: String, from content: Data, git: Git) throws -> Data {
        try withCopy(content) { file in
            try git.run(
                ["config", "--file", file, "--remove-section", "submodule.\(name)"], in: nil,
                context: "edit .gitmodules")
            return try Data(contentsOf: URL(fileURLWithPath: file))
        }
    }
}
