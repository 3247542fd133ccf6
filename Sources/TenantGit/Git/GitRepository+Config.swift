import Foundation

/// Configuration of a repository (`.gitmodules`: GitRepository+Gitmodules.swift).
extension GitRepository {
    /// The value of `key`; nil when it is not set.
    public func configValue(_ key: String, context: String) throws(GitError) -> String? {
        let output = try run(["config", "--get", key], context: context, accepting: [0, 1])
        return output.status == 0 ? output.text : nil
    }

    /// Every value of the multi-valued `key`, in the order git reads them; empty when it is not set.
    public func configValues(_ key: String, context: String) throws(GitError) -> [String] {
        let output = try run(["config", "--get-all", "-z", key], context: context, accepting: [0, 1])
        guard output.status == 0 else { return [] }
        var values = output.text.split(separator: "\0", omittingEmptySubsequences: false).map(String.init)
        if values.last == "" { values.removeLast() }
        return values
    }

    /// Whether `key` is set to true in the repository's own configuration (`--local`, git's boolean rules); a
    /// directory that is no repository answers false.
    public func isLocallyTrue(_ key: String, context: String) throws(GitError) -> Bool {
        let output = try run(
            ["config", "--local", "--type=bool", "--get", key], context: context, accepting: [0, 1, 128])
        return output.status == 0 && output.text == "true"
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
}

extension GitRepository {
    /// Removes the section `section` (`remote.origin`) from the repository's configuration.
    public func removeConfigSection(_ section: String, context: String) throws(GitError) {
        try run(["config", "--remove-section", section], context: context)
    }
}
