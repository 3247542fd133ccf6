import Foundation

/// Configuration of a repository, and the working tree's `.gitmodules`.
extension GitRepository {
    /// The value of `key`; nil when it is not set.
    public func configValue(_ key: String, context: String) throws(GitError) -> String? {
        let output = try run(["config", "--get", key], context: context, accepting: [0, 1])
        return output.status == 0 ? output.text : nil
    }

    /// Whether `key` is set to true in the repository's own configuration (`--local`, git's boolean rules); a
    /// directory that is no repository answers false.
    public func isLocallyTrue(_ key: String, context: String) throws(GitError) -> Bool {
        let output = try run(
            ["config", "--local", "--type=bool", "--get", key], context: context, accepting: [0, 1, 128])
        return output.status == 0 && output.text == "true"
    }

    /// The submodules the `.gitmodules`-format file `file` declares, in file order.
    public func gitmodules(file: String) throws(GitError) -> [GitmodulesEntry] {
        try GitmodulesFile.entries(ofFile: file, in: path, git: git)
    }

    /// Sets `key` to `value` in the repository's configuration.
    public func setConfig(_ key: String, to value: String, context: String) throws(GitError) {
        try run(["config", key, value], context: context)
    }

    /// The value of `key` in the configuration file `file`; nil when it is not set.
    public func configValue(_ key: String, inFile file: String, context: String) throws(GitError) -> String? {
        let output = try run(["config", "--file", file, "--get", key], context: context, accepting: [0, 1])
        return output.status == 0 ? output.text : nil
    }

    /// Sets `key` to `value` in the configuration file `file`.
    public func setConfig(_ key: String, to value: String, inFile file: String, context: String) throws(GitError) {
        try run(["config", "--file", file, key, value], context: context)
    }

    /// The submodule names of the working tree's `.gitmodules`, by path (a path named twice: the last name).
    public func submoduleNamesByPath() throws(GitError) -> [String: String] {
        let output = try run(
            ["config", "--file", ".gitmodules", "-z", "--get-regexp", "^submodule\\..*\\.path$"],
            context: "read the submodule names of .gitmodules", accepting: [0, 1])
        var names: [String: String] = [:]
        for record in output.stdout.split(separator: 0) {
            let text = String(decoding: record, as: UTF8.self)
            guard let newline = text.firstIndex(of: "\n") else { continue }
            let key = text[..<newline]
            names[String(text[text.index(after: newline)...])] = String(
                key.dropFirst("submodule.".count).dropLast(".path".count))
        }
        return names
    }
}

extension GitRepository {
    /// Removes the section `section` (`remote.origin`) from the repository's configuration.
    public func removeConfigSection(_ section: String, context: String) throws(GitError) {
        try run(["config", "--remove-section", section], context: context)
    }

    /// The submodules the `.gitmodules` blob `blob` declares, in file order (none when git cannot list it).
    public func gitmodules(blob: String, context: String) throws(GitError) -> [GitmodulesEntry] {
        let output = try run(["config", "-z", "--blob", blob, "--list"], context: context, accepting: [0, 1])
        return output.status == 0 ? GitmodulesParser.parse(output.stdout) : []
    }
}

extension GitRepository {
    /// The submodules the `.gitmodules` of `commit` declares, in file order; empty when the commit has no
    /// `.gitmodules` file.
    public func gitmodules(at commit: String) throws(GitError) -> [GitmodulesEntry] {
        let label = ObjectID.isValid(commit) ? ObjectID.short(commit) : commit
        let blob = try run(
            ["rev-parse", "--verify", "--quiet", "--end-of-options", "\(commit):.gitmodules"],
            context: "look for .gitmodules on \(label)", accepting: [0, 1, 128])
        guard blob.status == 0, ObjectID.isValid(blob.text) else { return [] }
        return try gitmodules(blob: blob.text, context: "read .gitmodules of \(label)")
    }
}
