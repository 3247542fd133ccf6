import Foundation

/// Everything of a working copy and its remotes that a refused command must leave byte-for-byte as it was.
///
/// For the superproject and every module checkout (the paths `.gitmodules` names that are checked out): HEAD
/// (symbolic and its commit), every ref (`for-each-ref`) but tenantctl's copy of the remote's branches
/// (`refs/tenantctl/`: a cache that every fetch refills, like the module mirrors), the bytes of the index
/// file, `git status --porcelain=v2 --ignored --untracked-files=all`, and the bytes of every untracked and ignored
/// file. For every remote of those repositories that is a directory on this machine: every ref and HEAD. Read
/// without taking git's optional locks, so that capturing it never rewrites an index.
public struct RepositoryFingerprint: Equatable, Sendable {
    /// "`<repository>` `<what>`" → value.
    public let items: [String: String]

    /// Captures the working copy at `workspace` and its remotes.
    public init(workspace: String, sandbox: GitSandbox) throws {
        var items: [String: String] = [:]
        var checkouts = [(name: "superproject", path: workspace)]
        let paths = try sandbox.gitResult(
            ["config", "-z", "--file", ".gitmodules", "--get-regexp", "^submodule\\..*\\.path$"], in: workspace)
        for entry in paths.stdout.split(separator: "\0") {
            let fields = entry.split(separator: "\n", maxSplits: 1)
            guard fields.count == 2 else { continue }
            let path = "\(workspace)/\(fields[1])"
            if FileManager.default.fileExists(atPath: path + "/.git") {
                checkouts.append((name: String(fields[1]), path: path))
            }
        }
        var remotes: Set<String> = []
        for checkout in checkouts {
            try Self.capture(checkout.path, as: checkout.name, into: &items, sandbox: sandbox)
            for remote in try Self.lines(sandbox, ["remote"], in: checkout.path) {
                guard let url = try Self.lines(sandbox, ["remote", "get-url", "--", remote], in: checkout.path).first
                else { continue }
                let path =
                    url.hasPrefix("/") ? url : URL(fileURLWithPath: checkout.path).appendingPathComponent(url).path
                var isDirectory: ObjCBool = false
                if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
                    remotes.insert(URL(fileURLWithPath: path).standardizedFileURL.path)
                }
            }
        }
        for remote in remotes {
            items["remote \(remote) refs"] = try Self.output(
                sandbox, ["for-each-ref", "--format=%(refname) %(objectname) %(symref)"], in: remote)
            items["remote \(remote) HEAD"] = try Self.output(sandbox, ["symbolic-ref", "-q", "HEAD"], in: remote)
        }
        self.items = items
    }

    /// The items that differ from `other` (the earlier capture), one readable line each: for a listing, the lines
    /// it lost (`-`) and gained (`+`).
    public func differences(from other: RepositoryFingerprint) -> [String] {
        Set(items.keys).union(other.items.keys).sorted().compactMap { key in
            let now = items[key]
            let then = other.items[key]
            guard now != then else { return nil }
            guard let now, let then else { return "\(key): \(then == nil ? "appeared" : "disappeared")" }
            let old = then.split(whereSeparator: { $0 == "\n" || $0 == "\0" })
            let new = now.split(whereSeparator: { $0 == "\n" || $0 == "\0" })
            let lost = old.filter { !new.contains($0) }.map { "-" + $0.prefix(200) }
            let gained = new.filter { !old.contains($0) }.map { "+" + $0.prefix(200) }
            return "\(key): " + (lost + gained).joined(separator: " ")
        }
    }

    private static func capture(
        _ path: String, as name: String, into items: inout [String: String], sandbox: GitSandbox
    ) throws {
        items["\(name) HEAD symbolic"] = try output(sandbox, ["symbolic-ref", "-q", "HEAD"], in: path)
        items["\(name) HEAD"] = try output(sandbox, ["rev-parse", "-q", "--verify", "HEAD"], in: path)
        items["\(name) refs"] = try output(
            sandbox, ["for-each-ref", "--format=%(refname) %(objectname) %(symref)"], in: path
        ).split(separator: "\n", omittingEmptySubsequences: false).filter { !$0.hasPrefix("refs/tenantctl/") }
            .joined(separator: "\n")
        let gitDirectory = try output(sandbox, ["rev-parse", "--absolute-git-dir"], in: path)
        let index = FileManager.default.contents(atPath: gitDirectory + "/index")
        items["\(name) index"] = index.map { $0.base64EncodedString() } ?? "absent"
        let status = try output(
            sandbox, ["status", "--porcelain=v2", "--ignored", "--untracked-files=all", "-z"], in: path)
        items["\(name) status"] = status
        for entry in status.split(separator: "\0") where entry.hasPrefix("? ") || entry.hasPrefix("! ") {
            let relative = String(entry.dropFirst(2))
            for file in files(at: path + "/" + relative) {
                let data = FileManager.default.contents(atPath: file)
                items["\(name) file \(file.dropFirst(path.count + 1))"] = data?.base64EncodedString() ?? "unreadable"
            }
        }
    }

    /// `path` itself, or every file below it when it is a directory.
    private static func files(at path: String) -> [String] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { return [] }
        guard isDirectory.boolValue else { return [path] }
        let below = FileManager.default.enumerator(atPath: path)?.allObjects.compactMap { $0 as? String } ?? []
        return below.sorted().map { "\(path)/\($0)" }.filter {
            var directory: ObjCBool = false
            return FileManager.default.fileExists(atPath: $0, isDirectory: &directory) && !directory.boolValue
        }
    }

    /// git's output with status (0 or not) and stderr, without optional locks.
    private static func output(_ sandbox: GitSandbox, _ arguments: [String], in directory: String) throws -> String {
        let result = try sandbox.gitResult(["--no-optional-locks"] + arguments, in: directory)
        return "\(result.status) \(result.stdout)"
    }

    private static func lines(_ sandbox: GitSandbox, _ arguments: [String], in directory: String) throws -> [String] {
        try sandbox.gitResult(["--no-optional-locks"] + arguments, in: directory).stdout.split(separator: "\n").map(
            String.init)
    }
}
