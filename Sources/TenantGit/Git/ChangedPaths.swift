import Foundation

/// The files changed between commits and their bases, read with one `git diff-tree --stdin` per repository.
public enum ChangedPaths {
    /// Commit → paths changed between `base` and `commit`, for many pairs with one `diff-tree --stdin`.
    /// Paths whose old or new entry is a gitlink are left out unless `gitlinks` (the superproject's gitlinks are its
    /// modules, reported per module; a module's own gitlinks are nested submodules, reported as changed files).
    public static func between(
        _ pairs: [(commit: String, base: String)], repository: String, what: String, gitlinks: Bool, git: Git
    ) throws -> [String: [String]] {
        guard !pairs.isEmpty else { return [:] }
        var seen = Set<String>()
        var input = ""
        for pair in pairs where seen.insert(pair.commit).inserted { input += "\(pair.commit) \(pair.base)\n" }
        let arguments = ["diff-tree", "--stdin", "-r", "--raw", "-z", "--no-renames"]
        let output = try git.run(
            arguments, in: repository, input: Data(input.utf8), context: "list the files changed in \(what)")
        guard let parsed = parseDiffTreeRaw(output.stdout, gitlinks: gitlinks) else {
            throw GitError(
                context: "list the files changed in \(what)", kind: .unparseableOutput(detail: "diff-tree --raw"),
                command: git.command(arguments, in: repository), directory: repository, output: output)
        }
        return parsed
    }

    /// Parses `git diff-tree --stdin -r --raw -z` output: a commit id record, then for every change
    /// `:<old mode> <new mode> <old id> <new id> <status>` NUL `<path>` NUL. Returns commit → changed paths
    /// (gitlink changes left out unless `gitlinks`), or nil when the output has another shape.
    public static func parseDiffTreeRaw(_ data: Data, gitlinks: Bool = false) -> [String: [String]]? {
        // One pass over the bytes (no per-field Data or String for the fields that are not kept): at 1000 × 50 the
        // listing has tens of thousands of records.
        data.withUnsafeBytes { (buffer: UnsafeRawBufferPointer) -> [String: [String]]? in
            let bytes = buffer.bindMemory(to: UInt8.self)
            let count = bytes.count
            var result: [String: [String]] = [:]
            var current: String?
            var start = 0
            func field(from position: Int) -> Int? {
                var end = position
                while end < count && bytes[end] != 0 { end += 1 }
                return end < count ? end : nil
            }
            while start < count {
                if bytes[start] == 0 {
                    start += 1
                    continue
                }
                let end = field(from: start) ?? count
                if bytes[start] == UInt8(ascii: ":") {
                    // `:<old mode> <new mode> <old id> <new id> <status>` NUL `<path>` NUL
                    guard let commit = current, end < count else { return nil }
                    let pathEnd = field(from: end + 1) ?? count
                    guard pathEnd > end + 1 else { return nil }
                    var spaces = 0
                    for index in start..<end where bytes[index] == UInt8(ascii: " ") { spaces += 1 }
                    guard spaces >= 4 else { return nil }
                    let isGitlink =
                        Self.isGitlinkMode(bytes, at: start + 1) || Self.isGitlinkMode(bytes, at: start + 8)
                    if gitlinks || !isGitlink {
                        let path = String(
                            decoding: UnsafeBufferPointer(rebasing: bytes[(end + 1)..<pathEnd]), as: UTF8.self)
                        result[commit, default: []].append(path)
                    }
                    start = pathEnd + 1
                } else {
                    let length = end - start
                    guard length == 40 || length == 64 else { return nil }
                    let id = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
                    current = id
                    if result[id] == nil { result[id] = [] }
                    start = end + 1
                }
            }
            return result
        }
    }

    /// Whether the six bytes at `position` are `160000` followed by a space (a gitlink's mode in raw diff output).
    private static func isGitlinkMode(_ bytes: UnsafeBufferPointer<UInt8>, at position: Int) -> Bool {
        let mode: [UInt8] = [49, 54, 48, 48, 48, 48, 32]  // "160000 "
        guard position + mode.count <= bytes.count else { return false }
        for (offset, byte) in mode.enumerated() where bytes[position + offset] != byte { return false }
        return true
    }
}
