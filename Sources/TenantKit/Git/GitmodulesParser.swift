import Foundation

/// A submodule as `.gitmodules` declares it.
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

/// Parses `git config -z --list` output of a `.gitmodules` file (`key LF value NUL`).
public enum GitmodulesParser {
    public static func parse(_ data: Data) -> [GitmodulesEntry] {
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
        return order.compactMap { entries[$0] }
    }
}
