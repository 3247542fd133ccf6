import Foundation

/// A submodule as `.gitmodules` declares it: the name of its section (`[submodule "<name>"]`), its path and URL.
public struct GitmodulesEntry: Sendable, Equatable {
    public var name: String
    public var path: String?
    public var url: String?

    public init(name: String, path: String? = nil, url: String? = nil) {
        self.name = name
        self.path = path
        self.url = url
    }
}

/// The submodules one `.gitmodules` file declares, as git's own parser reads it, and the questions asked of them.
///
/// Read with ``GitRepository/gitmodules(at:batch:)`` (a commit or tree, without a checkout) or
/// ``GitRepository/gitmodules(file:)`` (a working-tree file); both answer nil when there is no file, so a caller
/// tells "no `.gitmodules`" from "a `.gitmodules` without submodules" where that matters.
public struct Gitmodules: Sendable, Equatable {
    /// The entries, in file order (a section named twice is one entry, where git first saw it).
    public var entries: [GitmodulesEntry]

    public init(entries: [GitmodulesEntry] = []) {
        self.entries = entries
    }

    /// The entries of `git config -z --list` output of a `.gitmodules` file (`key LF value NUL`, a key without a
    /// value alone); keys outside `submodule.<name>.*` are left out.
    public init(configList data: Data) {
        var entries: [String: GitmodulesEntry] = [:]
        var order: [String] = []
        for record in data.split(separator: 0) {
            let text = String(decoding: record, as: UTF8.self)
            let parts = text.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false)
            let key = String(parts[0])
            let value = parts.count > 1 ? String(parts[1]) : ""
            guard key.hasPrefix("submodule."), let dot = key.lastIndex(of: "."),
                dot > key.index(key.startIndex, offsetBy: 9)
            else { continue }
            let name = String(key[key.index(key.startIndex, offsetBy: 10)..<dot])
            let variable = key[key.index(after: dot)...]
            if entries[name] == nil {
                entries[name] = GitmodulesEntry(name: name)
                order.append(name)
            }
            if variable == "path" { entries[name]?.path = value }
            if variable == "url" { entries[name]?.url = value }
        }
        self.entries = order.compactMap { entries[$0] }
    }

    /// The entry of the section `name`.
    public func entry(named name: String) -> GitmodulesEntry? {
        entries.first { $0.name == name }
    }

    /// The entry git takes for `path`: of a path named by two sections, the last (git registers the submodule
    /// there under that name).
    public func entry(atPath path: String) -> GitmodulesEntry? {
        entries.last { $0.path == path }
    }

    /// The submodule name git gives `path` (``entry(atPath:)``).
    public func name(ofPath path: String) -> String? {
        entry(atPath: path)?.name
    }

    /// Every path → the submodule name git gives it (``entry(atPath:)``).
    public var namesByPath: [String: String] {
        var names: [String: String] = [:]
        for entry in entries {
            if let path = entry.path { names[path] = entry.name }
        }
        return names
    }

    /// Where a module is in this file (some commit's), found by its identity rather than by today's path: the
    /// entry with the submodule `name` the module has elsewhere (on the general branch), else the one whose URL is
    /// one of `urls` (compared with `sameURL`). nil when neither is there, or when the URL matches several entries.
    public func locate(name: String?, urls: [String], sameURL: (String, String) -> Bool) -> GitmodulesEntry? {
        if let name, let entry = entries.first(where: { $0.name == name && $0.path != nil }) {
            return entry
        }
        let matching = entries.filter { entry in
            guard entry.path != nil, let url = entry.url else { return false }
            return urls.contains { sameURL($0, url) }
        }
        return matching.count == 1 ? matching.first : nil
    }
}
